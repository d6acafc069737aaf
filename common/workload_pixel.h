/* workload_pixel.h -- reading framebuffer pixels the way workloads name them: one pixel as
 * 0xRRGGBB, and the region hash `match` conditions compare. */
#ifndef SESSMAX_WORKLOAD_PIXEL_H
#define SESSMAX_WORKLOAD_PIXEL_H

#include <stdint.h>

#include "common/workload.h"

/* The region hash used by `match` conditions and printed by `sessmax-agent shot`:
 * FNV-1a 64 over (w, h as 4-byte little-endian each, then for every pixel in row order the
 * three bytes r5>>t, g6>>t, b5>>t), where r5/g6/b5 are the pixel reduced to RGB565 precision
 * (so a 16 bpp and a 32 bpp session of the same screen hash alike) and t = tolerance (0..3) the
 * low bits ignored per channel. `pixels` is the framebuffer (bytes_per_pixel 2: RGB565
 * little-endian; 4: B, G, R, X). The rect must lie inside the framebuffer. */
uint64_t workload_region_hash(const uint8_t *pixels, uint32_t stride, uint32_t bytes_per_pixel,
                              struct workload_rect r, unsigned tolerance);

/* Reads one pixel as 0xRRGGBB (16 bpp expanded to 8 bits per channel by bit replication). */
uint32_t workload_pixel_rgb(const uint8_t *pixels, uint32_t stride, uint32_t bytes_per_pixel,
                            int32_t x, int32_t y);

#endif
