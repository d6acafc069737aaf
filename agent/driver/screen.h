/* screen.h -- what every driver does with its screen (driver.h's struct screen_view and struct
 * rect): the rectangles of one paint, gathered and folded, and PNG snapshots (libpng). */
#ifndef SESSMAX_DRIVER_SCREEN_H
#define SESSMAX_DRIVER_SCREEN_H

#include <stddef.h>
#include <stdio.h>

#include "agent/driver/driver.h"

/* Most rectangles passed per paint; more are folded into the last one's bounding box. */
#define SCREEN_MAX_RECTS 32

/* Appends rectangles add[0..m-1] to acc[0..n-1] (capacity max); once full, the rest are folded
 * into the last one's bounding box. Returns the new count. */
size_t screen_rects_add(struct rect *acc, size_t n, size_t max, const struct rect *add, size_t m);

/* Writes the view as an 8-bit RGB PNG (written to path.tmp, then renamed). 0, or -1 (logged). */
int screen_write_png(const struct screen_view *v, const char *path);

/* Writes the view as an 8-bit RGB PNG to an open stream (an open_memstream for a web page), at
 * zlib level `level` (1 fast .. 9 small). The colours are workload_pixel_rgb()'s, so a pixel
 * read from the PNG is the one a `pixel` condition compares. 0, or -1 (nothing logged). */
int screen_png_stream(const struct screen_view *v, FILE *f, int level);

#endif
