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
        if (!strcmp(v, "builtin"))
            return 0;
        if (x11_client_set(&out->c, "x11", v, sub, sizeof sub) < 0 || !out->c.preset[0] ||
            x11_client_finish(&out->c, sub, sizeof sub) < 0)
            return ydoc_error(doc, n, err, errlen, "client '%s': expected builtin, a preset (xfreerdp, vncviewer, "
                              "citrix, vmware-view), an entry of 'clients:' or {x11: PRESET or command, ...}", v);
        out->x11 = 1;
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

static int is_preset(const char *name)
{
    struct x11_client c;
    char err[256];
    x11_client_init(&c);
    return x11_client_set(&c, "x11", name, err, sizeof err) == 0 && c.preset[0];
}

/* The entry's client options (its pairs but `target`, and `x11: NAME` when it has none) parsed
 * as a `client:` mapping. */
static int entry_client(const struct ydoc *doc, const struct ydoc_node *val, struct plan_client_entry *e,
                        char *err, size_t errlen)
{
    char x11key[] = "x11";
    struct ydoc_node k = { .kind = YDOC_SCALAR, .line = val->line, .col = val->col, .value = x11key };
    struct ydoc_node v = { .kind = YDOC_SCALAR, .line = val->line, .col = val->col, .value = e->name };
    struct ydoc_node view = { .kind = YDOC_MAP, .line = val->line, .col = val->col };
    view.keys = calloc(val->n + 1, sizeof *view.keys);
    view.items = calloc(val->n + 1, sizeof *view.items);
    int rc = -1;
    if (!view.keys || !view.items) {
        snprintf(err, errlen, "%s: out of memory", doc->file);
        goto out;
    }
    for (size_t i = 0; i < val->n; i++)
        if (strcmp(val->keys[i]->value, "target") != 0) {
            view.keys[view.n] = val->keys[i];
            view.items[view.n++] = val->items[i];
        }
    if (!ydoc_get(val, "x11")) {
        view.keys[view.n] = &k;
        view.items[view.n++] = &v;
    }
    rc = plan_client_parse(doc, &view, &e->pc, err, errlen);
out:
    free(view.keys);
    free(view.items);
    return rc;
}

static int parse_entry(const struct ydoc *doc, const struct ydoc_node *key, const struct ydoc_node *val,
                       struct plan_client_entry *e, char *err, size_t errlen)
{
    const char *name = key->value;
    memset(e, 0, sizeof *e);
    if (!name[0] || strlen(name) >= sizeof e->name ||
        strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != strlen(name))
        return ydoc_error(doc, key, err, errlen, "clients: a name is a plain word (letters, digits, '.', '_', '-'; "
                          "at most %d characters), as `--vary client=` takes it", PLAN_CLIENT_NAME_LEN - 1);
    snprintf(e->name, sizeof e->name, "%s", name);
    if (ydoc_expect(doc, val, YDOC_MAP, "a clients entry", err, errlen) < 0)
        return -1;
    e->target = ydoc_get(val, "target");
    if (e->target && ydoc_expect(doc, e->target, YDOC_MAP, "target", err, errlen) < 0)
        return -1;
    if (!strcmp(name, "builtin")) {
        if (val->n != (e->target ? 1u : 0u))
            return ydoc_error(doc, val, err, errlen, "clients.builtin: the built-in engine takes only 'target'");
        x11_client_init(&e->pc.c);
    } else {
        if (!ydoc_get(val, "x11") && !is_preset(name))
            return ydoc_error(doc, key, err, errlen, "clients.%s: 'x11' is missing and '%s' is no preset (xfreerdp, "
                              "vncviewer, citrix, vmware-view)", name, name);
        if (entry_client(doc, val, e, err, errlen) < 0)
            return -1;
    }
    e->pc.line = key->line;
    e->pc.col = key->col;
    return 0;
}

int plan_clients_parse(const struct ydoc *doc, const struct ydoc_node *root, struct plan_client *out,
                       struct plan_client_entry *entries, size_t *n, const struct ydoc_node **target,
                       char *err, size_t errlen)
{
    const struct ydoc_node *cl = ydoc_get(root, "clients"), *c = ydoc_get(root, "client");
    *n = 0;
    *target = NULL;
    if (cl && ydoc_expect(doc, cl, YDOC_MAP, "clients", err, errlen) < 0)
        return -1;
    if (cl && cl->n > PLAN_CLIENTS_MAX)
        return ydoc_error(doc, cl->keys[PLAN_CLIENTS_MAX], err, errlen, "clients: at most %d entries",
                          PLAN_CLIENTS_MAX);
    for (size_t i = 0; cl && i < cl->n; i++) {
        if (parse_entry(doc, cl->keys[i], cl->items[i], &entries[i], err, errlen) < 0)
            return -1;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(entries[j].name, entries[i].name))
                return ydoc_error(doc, cl->keys[i], err, errlen, "clients: '%s' given twice", entries[i].name);
        *n = i + 1;
    }
    const char *pick = !c ? "builtin" : c->kind == YDOC_SCALAR ? c->value : NULL;
    for (size_t i = 0; pick && i < *n; i++)
        if (!strcmp(entries[i].name, pick)) {
            *out = entries[i].pc;
            *target = entries[i].target;
            return 0;
        }
    return plan_client_parse(doc, c, out, err, errlen);
}

static int drops(const struct ydoc_node *over, const char *k)
{
    if (ydoc_get(over, k))
        return 1;
    if ((!strcmp(k, "fingerprint") || !strcmp(k, "verify")) && (ydoc_get(over, "fingerprint") || ydoc_get(over, "verify")))
        return 1;
    return !strcmp(k, "local") && ydoc_get(over, "host");
}

int plan_client_target(const struct ydoc_node *base, const struct ydoc_node *over, struct ydoc_node *out)
{
    const struct ydoc_node *at = over ? over : base;
    size_t cap = base->n + (over ? over->n : 0) + 1;
    memset(out, 0, sizeof *out);
    out->kind = YDOC_MAP;
    out->line = at->line;
    out->col = at->col;
    out->keys = calloc(cap, sizeof *out->keys);
    out->items = calloc(cap, sizeof *out->items);
    if (!out->keys || !out->items) {
        plan_client_target_free(out);
        return -1;
    }
    for (size_t i = 0; i < base->n; i++)
        if (!over || !drops(over, base->keys[i]->value)) {
            out->keys[out->n] = base->keys[i];
            out->items[out->n++] = base->items[i];
        }
    for (size_t i = 0; over && i < over->n; i++) {
        out->keys[out->n] = over->keys[i];
        out->items[out->n++] = over->items[i];
    }
    return 0;
}

void plan_client_target_free(struct ydoc_node *merged)
{
    free(merged->keys);
    free(merged->items);
    merged->keys = merged->items = NULL;
    merged->n = 0;
}
