/* matrix_plan.h -- the plan of one matrix cell: the plan file's text with the keys the cell sets
 * replaced, so the cell's run is an ordinary plan (validated, run and stored like any other).
 *
 * Every top-level entry the cell sets (platform, transport, client, network, sessions, and
 * target when a platform value names HOST[:PORT]) has its lines blanked -- every other line keeps
 * its number, so messages still point into the file -- and the cell's entries are appended after
 * a comment naming the cell. A target is rewritten in flow style with its other keys kept.
 * The top level must be a block mapping (as every plan is written); a flow-style top level is
 * refused. */
#ifndef SESSMAX_MATRIX_PLAN_H
#define SESSMAX_MATRIX_PLAN_H

#include <stddef.h>

#include "controller/run/matrix_spec.h"

/* Returns the cell's plan text (malloc'd, NUL-terminated; caller frees), or NULL with a one-line
 * err naming `path` (YAML syntax error, flow-style top level, out of memory). */
char *matrix_plan_text(const char *path, const char *text, size_t len, const struct matrix_spec *s,
                       const struct matrix_cell *c, char *err, size_t errlen);

#endif
