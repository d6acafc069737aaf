/* plan_client.h -- the plan's `client:` key: `builtin` (the FreeRDP engine, the default) or
 * `{x11: PRESET-or-command, transport, resolution, args, password, window_timeout}` (an external
 * X11 client per session, common/x11_preset.h); its labels and the check that its program
 * exists on this host (for `validate`). */
#ifndef SESSMAX_PLAN_CLIENT_H
#define SESSMAX_PLAN_CLIENT_H

#include <stddef.h>

#include "common/x11_preset.h"

struct ydoc;
struct ydoc_node;

struct plan_client {
    int x11;                      /* 0: builtin */
    struct x11_client c;
    int line, col;                /* of the `client:` node, for later messages */
};

/* n may be NULL (builtin). 0, or -1 with err "file:line:col: ...". */
int plan_client_parse(const struct ydoc *doc, const struct ydoc_node *n, struct plan_client *out,
                      char *err, size_t errlen);
/* "builtin", a preset's name or "x11:PROGRAM". */
void plan_client_label(const struct plan_client *pc, char *out, size_t outlen);
/* The run's transport label: the client's (x11), else `plan_transport` as given. */
const char *plan_client_transport(const struct plan_client *pc, const char *plan_transport);
/* JSON for CONFIG (malloc'd; "" for builtin); NULL when memory ran out. */
char *plan_client_json(const struct plan_client *pc);
/* 0 when the client's program is executable here (always for builtin), else -1 with err naming
 * the program and where it comes from. */
int plan_client_check_program(const struct plan_client *pc, char *err, size_t errlen);

#endif
