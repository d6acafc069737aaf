/* font.c -- one-time FreeType rasterisation of printable ASCII into a shared glyph table. */
#include "simhost/desktop/font.h"

#include <ft2build.h>
#include FT_FREETYPE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t glyph_area(FT_Face face, int c)
{
    if (FT_Load_Char(face, (FT_ULong)c, FT_LOAD_RENDER | FT_LOAD_TARGET_NORMAL))
        return 0;
    return (size_t)face->glyph->bitmap.width * face->glyph->bitmap.rows;
}

static void glyph_copy(FT_Face face, struct sim_glyph *g, uint8_t *dst)
{
    FT_Bitmap *b = &face->glyph->bitmap;
    g->w = (int)b->width;
    g->h = (int)b->rows;
    g->left = face->glyph->bitmap_left;
    g->top = face->glyph->bitmap_top;
    g->advance = (int)(face->glyph->advance.x >> 6);
    g->alpha = (g->w && g->h) ? dst : NULL;
    for (int y = 0; y < g->h; y++)
        memcpy(dst + (size_t)y * g->w, b->buffer + (ptrdiff_t)y * b->pitch, (size_t)g->w);
}

int sim_font_load(struct sim_font *f, const char *path, int size_px, char *err, size_t errlen)
{
    FT_Library lib = NULL;
    FT_Face face = NULL;
    memset(f, 0, sizeof *f);
    f->size_px = size_px;
    if (FT_Init_FreeType(&lib)) {
        snprintf(err, errlen, "%s: cannot initialise FreeType", path);
        goto fail;
    }
    if (FT_New_Face(lib, path, 0, &face) || FT_Set_Pixel_Sizes(face, 0, (FT_UInt)size_px)) {
        snprintf(err, errlen, "%s: cannot load font (install fonts-dejavu-core)", path);
        goto fail;
    }
    size_t total = 0;
    for (int c = 0; c < SIM_FONT_COUNT; c++)
        total += glyph_area(face, c + SIM_FONT_FIRST);
    f->pool = malloc(total ? total : 1);
    if (!f->pool) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto fail;
    }
    size_t off = 0;
    for (int c = 0; c < SIM_FONT_COUNT; c++) {
        if (FT_Load_Char(face, (FT_ULong)(c + SIM_FONT_FIRST), FT_LOAD_RENDER | FT_LOAD_TARGET_NORMAL))
            continue;
        glyph_copy(face, &f->glyph[c], f->pool + off);
        off += (size_t)f->glyph[c].w * f->glyph[c].h;
    }
    f->ascent = (int)(face->size->metrics.ascender >> 6);
    f->line_h = (int)(face->size->metrics.height >> 6);
    f->advance = f->glyph['M' - SIM_FONT_FIRST].advance;
    FT_Done_Face(face);
    FT_Done_FreeType(lib);
    return 0;
fail:
    if (face)
        FT_Done_Face(face);
    if (lib)
        FT_Done_FreeType(lib);
    sim_font_free(f);
    return -1;
}

void sim_font_free(struct sim_font *f)
{
    free(f->pool);
    f->pool = NULL;
}

const struct sim_glyph *sim_font_glyph(const struct sim_font *f, char c)
{
    unsigned char u = (unsigned char)c;
    if (u < SIM_FONT_FIRST || u >= SIM_FONT_FIRST + SIM_FONT_COUNT)
        u = '?';
    return &f->glyph[u - SIM_FONT_FIRST];
}
