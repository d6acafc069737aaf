/* drive_gen.h -- content and sizes of the files sessmax copies over client-drive redirection.
 *
 * A file's bytes are a pseudo-random stream keyed by its name, readable at any offset, so the
 * agent can write the client-side files and simhost can check what it reads (copyin) or produce
 * what it writes (copyout) without either side keeping a whole file in memory. */
#ifndef SESSMAX_DRIVE_GEN_H
#define SESSMAX_DRIVE_GEN_H

#include <stddef.h>
#include <stdint.h>

/* Key of a file's stream: FNV-1a 64 of its name (the last path component, as typed). */
uint64_t drive_gen_key(const char *name);

/* Fills buf with bytes [offset, offset + len) of the stream of `key`. Byte i is byte (i % 8)
 * (little-endian) of word i / 8, word w = splitmix64 finaliser of key + (w + 1) * 0x9E3779B97F4A7C15. */
void drive_gen_fill(uint64_t key, uint64_t offset, uint8_t *buf, size_t len);

/* Writes `size` bytes of name's stream to path (through path.tmp, then rename; mode 0444) in
 * chunks of 1 MiB. Keeps an existing file of that size. Returns 0, or -1 with err naming path. */
int drive_gen_write_file(const char *path, const char *name, uint64_t size, char *err, size_t errlen);

/* "10MB", "300MB", "64KB", "1GB", "4096" or "4096B" -> bytes (KB/MB/GB are binary: 1024-based).
 * Returns 0, or -1 for anything else (empty, no digits, unknown unit, overflow, zero). */
int drive_gen_parse_size(const char *s, uint64_t *out);

/* Mebibytes per second for bytes moved in us microseconds (0 when us is 0). */
double drive_gen_mbps(uint64_t bytes, uint64_t us);

#endif
