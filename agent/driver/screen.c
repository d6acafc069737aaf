/* screen.c -- what every driver does with its screen: gather the rectangles of a paint, write a
 * PNG of a view (libpng). Nothing here knows where the pixels come from. */
#include "agent/driver/screen.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

static void fold(struct rect *into, const struct rect *r)
{
    int32_t x0 = into->x < r->x ? into->x : r->x;
    int32_t y0 = into->y < r->y ? into->y : r->y;
    int32_t x1 = into->x + into->w > r->x + r->w ? into->x + into->w : r->x + r->w;
    int32_t y1 = into->y + into->h > r->y + r->h ? into->y + into->h : r->y + r->h;
    *into = (struct rect){ x0, y0, x1 - x0, y1 - y0 };
}

size_t screen_rects_add(struct rect *acc, size_t n, size_t max, const struct rect *add, size_t m)
{
    for (size_t i = 0; i < m && max > 0; i++) {
        if (n < max)
            acc[n++] = add[i];
        else
            fold(&acc[max - 1], &add[i]);
    }
    return n;
}

/* One row of the view as 8-bit RGB. */
static void row_rgb(const struct screen_view *v, uint32_t y, uint8_t *dst)
{
    const uint8_t *src = v->pixels + (size_t)y * v->stride;
    for (uint32_t x = 0; x < v->width; x++, dst += 3) {
        if (v->bytes_per_pixel == 2) {
            uint16_t p = (uint16_t)(src[2 * x] | src[2 * x + 1] << 8);
            uint8_t r = (p >> 11) & 0x1f, g = (p >> 5) & 0x3f, b = p & 0x1f;
            dst[0] = (uint8_t)(r << 3 | r >> 2);
            dst[1] = (uint8_t)(g << 2 | g >> 4);
            dst[2] = (uint8_t)(b << 3 | b >> 2);
        } else {
            dst[0] = src[4 * x + 2];
            dst[1] = src[4 * x + 1];
            dst[2] = src[4 * x];
        }
    }
}

static int write_rows(FILE *f, const struct screen_view *v, uint8_t *row, int level)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int rc = -1;
    if (!info)
        goto done;
    if (setjmp(png_jmpbuf(png)))
        goto done;
    png_init_io(png, f);
    png_set_compression_level(png, level);
    png_set_IHDR(png, info, v->width, v->height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < v->height; y++) {
        row_rgb(v, y, row);
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    rc = 0;
done:
    png_destroy_write_struct(&png, &info);
    return rc;
}

int screen_png_stream(const struct screen_view *v, FILE *f, int level)
{
    if (!v->pixels || !v->width || !v->height || (v->bytes_per_pixel != 2 && v->bytes_per_pixel != 4))
        return -1;
    uint8_t *row = malloc((size_t)v->width * 3);
    int rc = row ? write_rows(f, v, row, level) : -1;
    free(row);
    return rc;
}

int screen_write_png(const struct screen_view *v, const char *path)
{
    char tmp[4096];
    uint8_t *row = NULL;
    FILE *f = NULL;
    int rc = -1;

    if (!v->pixels || !v->width || !v->height ||
        (v->bytes_per_pixel != 2 && v->bytes_per_pixel != 4)) {
        log_warn("%s: no screen to save", path);
        return -1;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    row = malloc((size_t)v->width * 3);
    if (!row || !(f = fopen(tmp, "wb"))) {
        log_warn("%s: cannot write: %s", tmp, strerror(errno));
        goto fail;
    }
    if (write_rows(f, v, row, 3) != 0) {
        log_warn("%s: PNG encoding failed", path);
        goto fail;
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        f = NULL;
        log_warn("%s: cannot write: %s", path, strerror(errno));
        goto fail;
    }
    f = NULL;
    rc = 0;
fail:
    if (f) {
        fclose(f);
        remove(tmp);
    }
    free(row);
    return rc;
}
