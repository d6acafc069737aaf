/* plan_client.h -- the plan's `client:` key: `builtin` (the FreeRDP engine, the default) or
 * `{x11: PRESET-or-command, transport, resolution, args, password, window_timeout}` (an external
 * X11 client per session, common/x11_preset.h); its labels and the check that its program
 * exists on this host (for `validate`).
 *
 * `clients:` names client settings, each with its own target if it needs one:
 *   clients: {vncviewer: {resolution: 1024x768, target: {host: 127.0.0.1, port: 5901}}}
 * `client: NAME` (and a matrix cell `client=NAME`) picks an entry; an entry's `x11` defaults to
 * its name when that is a preset; the entry `builtin` is the engine and takes only `target`.
 * `client: NAME` without such an entry is `builtin` or the preset NAME. */
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

#define PLAN_CLIENTS_MAX 16
#define PLAN_CLIENT_NAME_LEN 64

/* One entry of `clients:`. */
struct plan_client_entry {
    char name[PLAN_CLIENT_NAME_LEN];
    struct plan_client pc;
    const struct ydoc_node *target;   /* its `target:` (keys replacing the plan's), or NULL */
};

/* n may be NULL (builtin). 0, or -1 with err "file:line:col: ...". A scalar is builtin or a
 * preset's name (entries of `clients:` are resolved by plan_clients_parse). */
int plan_client_parse(const struct ydoc *doc, const struct ydoc_node *n, struct plan_client *out,
                      char *err, size_t errlen);
/* Checks `clients:` of the plan root `root` (every entry, into entries[*n], at most
 * PLAN_CLIENTS_MAX) and picks the run's client from `client:`; *target is the picked entry's
 * `target:` or NULL. 0, or -1 with err "file:line:col: ...". */
int plan_clients_parse(const struct ydoc *doc, const struct ydoc_node *root, struct plan_client *out,
                       struct plan_client_entry *entries, size_t *n, const struct ydoc_node **target,
                       char *err, size_t errlen);
/* The target an entry's `target:` makes of the plan's: a map with `base`'s pairs, those `over`
 * names replaced (fingerprint and verify go together: naming either drops both of base's; with
 * a new host, base's `local` is not kept). The arrays are malloc'd (plan_client_target_free);
 * the nodes stay the documents'. over NULL: base's pairs. -1 when memory ran out. */
int plan_client_target(const struct ydoc_node *base, const struct ydoc_node *over, struct ydoc_node *out);
void plan_client_target_free(struct ydoc_node *merged);
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
