/* store_chunk.c -- packing samples into chunks and reading them back (see store_chunk.h). */
#include "db/store_chunk.h"

#include <stdlib.h>
#include <string.h>

int store_chunk_fits(const struct store_chunk *c, int64_t run, int64_t t)
{
    if (c->n == 0)
        return 1;
    if (c->run != run || c->n >= STORE_CHUNK_MAX)
        return 0;
    int64_t lo = t < c->t_min ? t : c->t_min, hi = t > c->t_max ? t : c->t_max;
    return (uint64_t)hi - (uint64_t)lo < (uint64_t)STORE_CHUNK_SPAN;
}

void store_chunk_add(struct store_chunk *c, int64_t run, const struct store_chunk_rec *r)
{
    int64_t t = r->f[CHUNK_T];
    if (c->n == 0) {
        c->run = run;
        c->t_min = c->t_max = t;
    }
    if (t < c->t_min)
        c->t_min = t;
    if (t > c->t_max)
        c->t_max = t;
    c->rec[c->n++] = *r;
}

/* Characters of v in decimal, '-' included. */
static int width_of(int64_t v)
{
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int w = v < 0 ? 2 : 1;
    while (m >= 10) {
        m /= 10;
        w++;
    }
    return w;
}

static void put(unsigned char *p, int w, int64_t v)
{
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    for (int i = w - 1; i >= 0; i--) {
        p[i] = (unsigned char)('0' + m % 10);
        m /= 10;
    }
    if (v < 0 && w > 0)
        p[0] = '-';
}

int store_chunk_write(sqlite3_stmt *ins, struct store_chunk *c, int fields)
{
    int w[CHUNK__FIELDS] = { 0 }, rw = 0, agent = 0;
    for (size_t k = 0; k < c->n; k++) {
        c->rec[k].f[CHUNK_T] = (int64_t)((uint64_t)c->rec[k].f[CHUNK_T] - (uint64_t)c->t_min);
        agent |= c->rec[k].f[CHUNK_AGENT] >= 0;
        for (int f = 0; f < fields; f++) {
            int x = width_of(c->rec[k].f[f]);
            if (x > w[f])
                w[f] = x;
        }
    }
    if (fields > CHUNK_AGENT && !agent)
        w[CHUNK_AGENT] = 0;                   /* no share measured: the field is left out */
    for (int f = 0; f < fields; f++)
        rw += w[f];
    unsigned char *data = malloc(c->n * (size_t)rw);
    if (!data)
        return SQLITE_NOMEM;
    for (size_t k = 0; k < c->n; k++) {
        unsigned char *p = data + k * (size_t)rw;
        for (int f = 0; f < fields; f++) {
            put(p, w[f], c->rec[k].f[f]);
            p += w[f];
        }
    }
    sqlite3_bind_int64(ins, 1, c->run);
    sqlite3_bind_int64(ins, 2, (int64_t)c->n);
    sqlite3_bind_int64(ins, 3, c->t_min);
    sqlite3_bind_int64(ins, 4, c->t_max);
    for (int f = 0; f < fields; f++)
        sqlite3_bind_int(ins, 5 + f, w[f]);
    sqlite3_bind_blob(ins, 5 + fields, data, (int)(c->n * (size_t)rw), free);
    int rc = sqlite3_step(ins);
    sqlite3_reset(ins);
    sqlite3_clear_bindings(ins);
    c->n = 0;
    return rc;
}

int store_chunk_check(const struct store_chunk_view *v, const char **why)
{
    int64_t rw = 0;
    *why = NULL;
    if (v->n < 1 || v->n > STORE_CHUNK_MAX)
        *why = "sample count outside 1..1024";
    for (int f = 0; f < CHUNK__FIELDS && !*why; f++) {
        if (v->w[f] < (f == CHUNK_AGENT ? 0 : 1) || v->w[f] > 20)
            *why = "field width outside 1..20";
        else
            rw += v->w[f];      /* only checked widths: a forged one would overflow the sum */
    }
    if (!*why && (!v->data || (int64_t)v->len != rw * v->n))
        *why = "data length does not match its count and widths";
    return *why ? -1 : 0;
}

/* One field: an optional '-' and digits only; -1 when not, or out of int64's range. Up to 18
 * digits cannot overflow: those (every field in practice) skip the per-digit range check. */
static int field(const unsigned char *p, int64_t w, int64_t *out)
{
    int neg = p[0] == '-', long_field = w - neg > 18;
    uint64_t m = 0;
    unsigned bad = 0;
    if (neg && w == 1)
        return -1;
    for (int64_t i = neg; i < w; i++) {
        unsigned d = (unsigned)p[i] - '0';
        bad |= d > 9;
        if (long_field && m > (UINT64_MAX - d) / 10)
            return -1;
        m = m * 10 + d;
    }
    if (bad || m > (uint64_t)INT64_MAX + neg)
        return -1;
    *out = neg ? (int64_t)(0 - m) : (int64_t)m;
    return 0;
}

#define SWAR_ONES UINT64_C(0x0101010101010101)

/* 1..8 digits read as one 64-bit word: p[0..w) are the field, and 8 bytes from p may be read.
 * -1 unless every one of the w bytes is a digit (a '-' or a stray byte: field() decides). */
static int digits8(const unsigned char *p, int64_t w, uint64_t *out)
{
    uint64_t x;
    memcpy(&x, p, sizeof x);
    unsigned sh = (unsigned)(8 - w) * 8;
    x <<= sh;                                  /* the field to the top bytes, zeros below */
    uint64_t used = ~UINT64_C(0) << sh;
    if ((x & (0xF0 * SWAR_ONES)) != (0x30 * SWAR_ONES & used) ||
        ((x + (0x06 * SWAR_ONES & used)) & (0xF0 * SWAR_ONES)) != (0x30 * SWAR_ONES & used))
        return -1;                             /* a byte outside '0'..'9' */
    x &= 0x0F * SWAR_ONES;                     /* digit values, the first digit lowest */
    x = (x * 10 + (x >> 8)) & UINT64_C(0x00FF00FF00FF00FF);
    x = (x * 100 + (x >> 16)) & UINT64_C(0x0000FFFF0000FFFF);
    *out = (x * 10000 + (x >> 32)) & UINT64_C(0xFFFFFFFF);
    return 0;
}

/* Up to 16 plain digits by whole words when 8 bytes can be read at p and at p + w - 8; else,
 * and for a sign or anything malformed, field() (the same values and the same refusals). */
static int field_fast(const unsigned char *p, int64_t w, const unsigned char *end, int64_t *out)
{
    uint64_t hi, lo;
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    return field(p, w, out);                   /* digits8 takes the first byte as the lowest */
#endif
    if (w <= 8 && end - p >= 8 && digits8(p, w, &lo) == 0) {
        *out = (int64_t)lo;
        return 0;
    }
    if (w > 8 && w <= 16 && end - p >= 8 + (w - 8) && digits8(p, w - 8, &hi) == 0 &&
        digits8(p + w - 8, 8, &lo) == 0) {
        *out = (int64_t)(hi * 100000000u + lo);
        return 0;
    }
    return field(p, w, out);
}

int store_chunk_decode(const struct store_chunk_view *v, size_t k, struct store_chunk_rec *r)
{
    int64_t rw = 0;
    for (int f = 0; f < CHUNK__FIELDS; f++)
        rw += v->w[f];
    const unsigned char *p = v->data + (int64_t)k * rw, *end = v->data + v->len;
    for (int f = 0; f < CHUNK__FIELDS; f++) {
        if (f == CHUNK_AGENT && v->w[f] == 0)
            r->f[f] = -1;
        else if (field_fast(p, v->w[f], end, &r->f[f]) != 0)
            return -1;
        p += v->w[f];
    }
    r->f[CHUNK_T] = (int64_t)((uint64_t)v->t_min + (uint64_t)r->f[CHUNK_T]);
    return 0;
}

void store_chunk_view_read(struct store_chunk_view *v, sqlite3_stmt *s, int first)
{
    v->n = sqlite3_column_int64(s, first);
    v->t_min = sqlite3_column_int64(s, first + 1);
    for (int f = 0; f < CHUNK__FIELDS; f++)
        v->w[f] = sqlite3_column_int64(s, first + 2 + f);
    v->data = sqlite3_column_blob(s, first + 2 + CHUNK__FIELDS);
    v->len = (size_t)sqlite3_column_bytes(s, first + 2 + CHUNK__FIELDS);
}
