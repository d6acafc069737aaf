/* plan_pin.h -- what the sections of a plan share below plan.h (plan.c and plan_metrics.c): a
 * certificate pin's check and a path relative to the plan's folder. */
#ifndef SESSMAX_PLAN_PIN_H
#define SESSMAX_PLAN_PIN_H

#include <stddef.h>

struct ydoc;
struct ydoc_node;

/* `rel` relative to `dir` (a plan's directory; absolute or dir "" kept as is); malloc'd, NULL
 * when memory ran out. */
char *plan_path_resolve(const char *dir, const char *rel);
/* Checks a "sha256:AA:BB:..." certificate pin at node n. 0, or -1 with err "file:line:col: ...". */
int plan_fingerprint_check(const struct ydoc *doc, const struct ydoc_node *n, const char *fp, char *err, size_t errlen);

#endif
