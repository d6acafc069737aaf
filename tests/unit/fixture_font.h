/* fixture_font.h -- the DejaVu font every simhost drawing test renders with, loaded once per
 * suite (included by those test files; static functions only: pass setup/teardown to unit_run). */
#ifndef SESSMAX_FIXTURE_FONT_H
#define SESSMAX_FIXTURE_FONT_H

#include "simhost/desktop/font.h"

static struct sim_font font;

static int setup(void)
{
    char err[256];
    return sim_font_load(&font, SIM_FONT_PATH, 13, err, sizeof err);
}

static int teardown(void)
{
    sim_font_free(&font);
    return 0;
}

#endif
