/* font.h -- DejaVu Sans Mono (fonts-dejavu-core) rasterised once with FreeType into a
 * read-only glyph table for printable ASCII. After sim_font_load() the table is immutable, so
 * every session thread may draw with it concurrently without locks. */
#ifndef SIM_FONT_H
#define SIM_FONT_H

#include <stddef.h>
#include <stdint.h>

#define SIM_FONT_PATH "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
#define SIM_FONT_FIRST 32
#define SIM_FONT_COUNT 95

struct sim_glyph {
    int w, h;            /* bitmap size in pixels */
    int left, top;       /* bearing: bitmap origin relative to the pen (top = above baseline) */
    int advance;         /* pen advance in pixels */
    const uint8_t *alpha; /* w*h coverage values (0..255), row-major; NULL when empty */
};

struct sim_font {
    int size_px;         /* requested pixel size */
    int ascent;          /* baseline offset from the top of a line, pixels */
    int line_h;          /* line height, pixels */
    int advance;         /* monospace cell width, pixels */
    struct sim_glyph glyph[SIM_FONT_COUNT];
    uint8_t *pool;       /* owns every glyph's alpha */
};

/* Loads `path` at `size_px`. Returns 0, or -1 with err filled (names the file). */
int sim_font_load(struct sim_font *f, const char *path, int size_px, char *err, size_t errlen);
void sim_font_free(struct sim_font *f);
/* Glyph of c; characters outside printable ASCII map to '?'. Never NULL. */
const struct sim_glyph *sim_font_glyph(const struct sim_font *f, char c);

#endif
