/* workload_pixel.c -- reading framebuffer pixels the way workloads name them: one pixel as
 * 0xRRGGBB, and the region hash that `match` conditions compare (defined in workload.h). */
#include "common/workload_pixel.h"

static void rgb565(const uint8_t *px, uint32_t bpp, unsigned *r5, unsigned *g6, unsigned *b5)
{
    if (bpp == 2) {
        unsigned v = (unsigned)px[0] | ((unsigned)px[1] << 8);
        *r5 = v >> 11;
        *g6 = (v >> 5) & 0x3F;
        *b5 = v & 0x1F;
    } else {
        *r5 = px[2] >> 3;
        *g6 = px[1] >> 2;
        *b5 = px[0] >> 3;
    }
}

uint64_t workload_region_hash(const uint8_t *pixels, uint32_t stride, uint32_t bytes_per_pixel,
                              struct workload_rect r, unsigned tolerance)
{
    const uint64_t prime = 0x100000001b3ull;
    uint64_t h = 0xcbf29ce484222325ull;
    uint32_t dims[2] = { (uint32_t)r.w, (uint32_t)r.h };
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < 4; i++)
            h = (h ^ ((dims[d] >> (8 * i)) & 0xFF)) * prime;
    if (tolerance > 3)
        tolerance = 3;
    for (int32_t y = 0; y < r.h; y++) {
        const uint8_t *row = pixels + (size_t)(r.y + y) * stride + (size_t)r.x * bytes_per_pixel;
        for (int32_t x = 0; x < r.w; x++, row += bytes_per_pixel) {
            unsigned c[3];
            rgb565(row, bytes_per_pixel, &c[0], &c[1], &c[2]);
            for (int i = 0; i < 3; i++)
                h = (h ^ (c[i] >> tolerance)) * prime;
        }
    }
    return h;
}

uint32_t workload_pixel_rgb(const uint8_t *pixels, uint32_t stride, uint32_t bytes_per_pixel,
                            int32_t x, int32_t y)
{
    const uint8_t *px = pixels + (size_t)y * stride + (size_t)x * bytes_per_pixel;
    if (bytes_per_pixel == 4)
        return ((uint32_t)px[2] << 16) | ((uint32_t)px[1] << 8) | px[0];
    unsigned r5, g6, b5;
    rgb565(px, 2, &r5, &g6, &b5);
    uint32_t r = (r5 << 3) | (r5 >> 2), g = (g6 << 2) | (g6 >> 4), b = (b5 << 3) | (b5 >> 2);
    return (r << 16) | (g << 8) | b;
}
