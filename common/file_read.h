/* file_read.h -- the one way to read a whole file (or stdin) into memory, with a size limit.
 *
 * Every reader of outside input (plans, workloads, TLS keys, users files, simhost documents) goes
 * through here so that a limit, an unreadable file and a pipe all behave the same way and give a
 * one-line error naming the path. */
#ifndef SESSMAX_FILE_READ_H
#define SESSMAX_FILE_READ_H

#include <stddef.h>

/* Limits used by more than one reader; name a new one here rather than writing a bare number. */
#define FILE_READ_MAX_CONFIG (1u << 20)  /* plans, workloads, TLS PEM files, users files: 1 MiB */
#define FILE_READ_MAX_DOCUMENT (64u << 20) /* simhost's documents and generic YAML: 64 MiB */

/* Reads all of `path` ("-" means standard input) into a new NUL-terminated buffer.
 * Returns the buffer (caller frees) and its length in *len (without the NUL), or NULL with a
 * one-line message "PATH: reason" in err (always written, also for a pipe) when the file cannot
 * be opened or read, or holds more than max_bytes. Works for pipes and files whose size is unknown. */
char *file_read_all(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen);

#endif
