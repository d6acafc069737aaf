/* drive_gen.c -- the keyed pseudo-random content of drive-test files (see drive_gen.h). */
#include "common/drive_gen.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GEN_GAMMA 0x9E3779B97F4A7C15ull
#define GEN_CHUNK (1u << 20)

uint64_t drive_gen_key(const char *name)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    return h;
}

static uint64_t gen_word(uint64_t key, uint64_t w)
{
    uint64_t z = key + (w + 1) * GEN_GAMMA;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void drive_gen_fill(uint64_t key, uint64_t offset, uint8_t *buf, size_t len)
{
    size_t i = 0;
    while (i < len) {
        uint64_t pos = offset + i, v = gen_word(key, pos / 8);
        unsigned b = (unsigned)(pos % 8);
        if (b == 0 && len - i >= 8) {
            for (unsigned k = 0; k < 8; k++)
                buf[i + k] = (uint8_t)(v >> (8 * k));
            i += 8;
            continue;
        }
        buf[i++] = (uint8_t)(v >> (8 * b));
    }
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int drive_gen_write_file(const char *path, const char *name, uint64_t size, char *err, size_t errlen)
{
    struct stat st;
    char tmp[4096 + 8];
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == size)
        return 0;
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        snprintf(err, errlen, "%s: path too long", path);
        return -1;
    }
    uint8_t *buf = malloc(GEN_CHUNK);
    int fd = buf ? open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", tmp, buf ? strerror(errno) : "out of memory");
        free(buf);
        return -1;
    }
    uint64_t key = drive_gen_key(name);
    int rc = 0;
    for (uint64_t off = 0; off < size && rc == 0; off += GEN_CHUNK) {
        size_t n = size - off < GEN_CHUNK ? (size_t)(size - off) : GEN_CHUNK;
        drive_gen_fill(key, off, buf, n);
        rc = write_all(fd, buf, n);
    }
    free(buf);
    if (rc != 0 || fchmod(fd, 0444) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int drive_gen_parse_size(const char *s, uint64_t *out)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || v == 0)
        return -1;
    uint64_t mul = 1;
    if (!strcmp(end, "KB"))
        mul = 1ull << 10;
    else if (!strcmp(end, "MB"))
        mul = 1ull << 20;
    else if (!strcmp(end, "GB"))
        mul = 1ull << 30;
    else if (strcmp(end, "") && strcmp(end, "B"))
        return -1;
    if (v > UINT64_MAX / mul)
        return -1;
    *out = (uint64_t)v * mul;
    return 0;
}

double drive_gen_mbps(uint64_t bytes, uint64_t us)
{
    return us ? ((double)bytes / (double)(1u << 20)) / ((double)us / 1e6) : 0.0;
}
