/* shots.h -- the screenshot directory of a run: created on demand (with its parents), and an
 * HTML contact sheet (index.html) of the PNGs in it, one row per user, in name order
 * (<user>-logon.png, <user>-loop<k>-<timer>.png). Used by `sessmax-agent run --shot-timers` and
 * by the controller for its per-run shots directory. */
#ifndef SESSMAX_SHOTS_H
#define SESSMAX_SHOTS_H

#include <stddef.h>

/* mkdir -p with mode 0755. 0, or -1 with err = "DIR: reason". */
int shots_mkdir(const char *dir, char *err, size_t errlen);

/* Writes DIR/index.html listing every *.png of DIR (written to .tmp, then renamed). Returns the
 * number of pictures listed, or -1 with err set. */
int shots_contact_sheet(const char *dir, char *err, size_t errlen);

#endif
