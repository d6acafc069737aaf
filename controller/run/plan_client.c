/* plan_client.c -- `client:` of a plan (see plan_client.h). */
#include "controller/run/plan_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ydoc.h"

int plan_client_parse(const struct ydoc *doc, const struct ydoc_node *n, struct plan_client *out,
                      char *err, size_t errlen)
{
    static const char *const keys[] = { "x11", "transport", "resolution", "args", "password",
                                        "window_timeout", NULL };
    char sub[512];
    const char *v;
    memset(out, 0, sizeof *out);
    x11_client_init(&out->c);
    if (!n)
        return 0;
    out->line = n->line;
    out->col = n->col;
    if (n->kind == YDOC_SCALAR) {
        if (ydoc_str(doc, n, &v, err, errlen) < 0)
            return -1;
        if (strcmp(v, "builtin"))
            return ydoc_error(doc, n, err, errlen, "client '%s': expected builtin or {x11: PRESET or "
                              "command, ...} (presets: xfreerdp, vncviewer, citrix, vmware-view)", v);
        return 0;
    }
    if (ydoc_check_keys(doc, n, keys, "client", err, errlen) < 0)
        return -1;
    if (!ydoc_get(n, "x11"))
        return ydoc_error(doc, n, err, errlen, "client: 'x11' is missing (a preset: xfreerdp, "
                          "vncviewer, citrix, vmware-view; or a command template)");
    for (size_t i = 0; i < n->n; i++) {
        if (ydoc_str(doc, n->items[i], &v, err, errlen) < 0)
            return -1;
        if (x11_client_set(&out->c, n->keys[i]->value, v, sub, sizeof sub) < 0)
            return ydoc_error(doc, n->items[i], err, errlen, "%s", sub);
    }
    if (x11_client_finish(&out->c, sub, sizeof sub) < 0)
        return ydoc_error(doc, n, err, errlen, "%s", sub);
    out->x11 = 1;
    return 0;
}

void plan_client_label(const struct plan_client *pc, char *out, size_t outlen)
{
    if (pc->x11)
        x11_client_label(&pc->c, out, outlen);
    else
        snprintf(out, outlen, "builtin");
}

const char *plan_client_transport(const struct plan_client *pc, const char *plan_transport)
{
    return pc->x11 ? x11_client_transport(&pc->c) : plan_transport;
}

char *plan_client_json(const struct plan_client *pc)
{
    return pc->x11 ? x11_client_to_json(&pc->c) : strdup("");
}

int plan_client_check_program(const struct plan_client *pc, char *err, size_t errlen)
{
    char prog[1024], path[4096];
    if (!pc->x11)
        return 0;
    x11_client_program(&pc->c, prog, sizeof prog);
    const char *need[] = { prog, "Xvfb", pc->c.secret == X11_SECRET_VNCPASSWD ? "vncpasswd" : NULL };
    const char *from[] = { x11_client_source(&pc->c), "Debian package xvfb", "Debian package tigervnc-tools" };
    for (int i = 0; i < 3; i++)
        if (need[i] && x11_which(need[i], path, sizeof path) != 0) {
            snprintf(err, errlen, "client %s: program '%s' not found on this host (install %s)",
                     pc->c.preset[0] ? pc->c.preset : "command", need[i], from[i]);
            return -1;
        }
    return 0;
}
