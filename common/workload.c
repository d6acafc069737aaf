/* workload.c -- loads a workload: the top level (version, desktop, regions, defaults, logon,
 * loop, logoff, measures), plus the flattening walk. Steps and conditions are parsed in
 * workload_step.c, drives and copies in workload_drives.c, names in workload_parse.c; the
 * structs and their accessors live in workload_model.c, pixel hashing in workload_pixel.c. */
#include "common/workload.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_read.h"
#include "common/workload_drives.h"
#include "common/workload_parse.h"
#include "common/workload_step.h"

#define ERR WORKLOAD_PARSE_ERR

static int parse_desktop(struct workload_parse *p, const struct ydoc_node *n)
{
    static const char *const keys[] = { "width", "height", "bpp", NULL };
    struct workload *wl = p->wl;
    wl->width = 1024;
    wl->height = 768;
    wl->bpp = 16;
    if (!n)
        return 0;
    if (ydoc_check_keys(p->doc, n, keys, "desktop", p->err, p->errlen) != 0)
        return -1;
    long long v;
    const struct ydoc_node *w = ydoc_get(n, "width"), *h = ydoc_get(n, "height"), *b = ydoc_get(n, "bpp");
    if (w && ydoc_int(p->doc, w, 64, 8192, &v, p->err, p->errlen) != 0)
        return -1;
    if (w)
        wl->width = (uint32_t)v;
    if (h && ydoc_int(p->doc, h, 64, 8192, &v, p->err, p->errlen) != 0)
        return -1;
    if (h)
        wl->height = (uint32_t)v;
    if (b && ydoc_int(p->doc, b, 16, 32, &v, p->err, p->errlen) != 0)
        return -1;
    if (b && v != 16 && v != 32)
        return ERR(p, b, "bpp must be 16 or 32, not %lld", v);
    if (b)
        wl->bpp = (uint32_t)v;
    return 0;
}

static int parse_regions(struct workload_parse *p, const struct ydoc_node *n)
{
    struct workload *wl = p->wl;
    size_t count = 1 + (n && n->kind == YDOC_MAP ? n->n : 0);
    wl->regions = calloc(count, sizeof *wl->regions);
    if (!wl->regions)
        return ERR(p, n, "out of memory");
    wl->nregions = 1;
    snprintf(wl->regions[0].name, sizeof wl->regions[0].name, "screen");
    wl->regions[0].r = (struct workload_rect){ 0, 0, (int32_t)wl->width, (int32_t)wl->height };
    if (!n)
        return 0;
    if (ydoc_expect(p->doc, n, YDOC_MAP, "regions", p->err, p->errlen) != 0)
        return -1;
    for (size_t i = 0; i < n->n; i++) {
        struct workload_region *r = &wl->regions[wl->nregions];
        const struct ydoc_node *k = n->keys[i], *v = n->items[i];
        if (workload_parse_name(p, k, "region name", r->name) != 0)
            return -1;
        if (!strcmp(r->name, "screen"))
            return ERR(p, k, "'screen' is built in (the whole desktop); pick another name");
        if (v->kind != YDOC_SEQ || v->n != 4)
            return ERR(p, v, "region '%s' must be [x, y, w, h]", r->name);
        long long x[4];
        for (int j = 0; j < 4; j++)
            if (ydoc_int(p->doc, v->items[j], j < 2 ? 0 : 1, 8192, &x[j], p->err, p->errlen) != 0)
                return -1;
        if (x[0] + x[2] > wl->width || x[1] + x[3] > wl->height)
            return ERR(p, v, "region '%s' [%lld, %lld, %lld, %lld] does not fit the %ux%u desktop",
                       r->name, x[0], x[1], x[2], x[3], wl->width, wl->height);
        r->r = (struct workload_rect){ (int32_t)x[0], (int32_t)x[1], (int32_t)x[2], (int32_t)x[3] };
        r->line = k->line;
        r->col = k->col;
        wl->nregions++;
    }
    return 0;
}

static int parse_defaults(struct workload_parse *p, const struct ydoc_node *n)
{
    static const char *const keys[] = { "type_rate", "timeout", "on_timeout", "pause", "min", NULL };
    struct workload *wl = p->wl;
    wl->type_rate_us = 160000;
    wl->timeout_us = 10000000;
    wl->pause_us = 100000;
    wl->min = WORKLOAD_MIN_ECHO;
    if (!n)
        return 0;
    if (ydoc_check_keys(p->doc, n, keys, "defaults", p->err, p->errlen) != 0)
        return -1;
    const struct ydoc_node *pause = ydoc_get(n, "pause"), *min = ydoc_get(n, "min");
    if (pause && ydoc_duration_us(p->doc, pause, &wl->pause_us, p->err, p->errlen) != 0)
        return -1;
    if (min && workload_parse_min(p, min, &wl->min, &wl->min_us) != 0)
        return -1;
    const struct ydoc_node *r = ydoc_get(n, "type_rate"), *t = ydoc_get(n, "timeout"), *o = ydoc_get(n, "on_timeout");
    if (r && ydoc_duration_us(p->doc, r, &wl->type_rate_us, p->err, p->errlen) != 0)
        return -1;
    if (t && ydoc_duration_us(p->doc, t, &wl->timeout_us, p->err, p->errlen) != 0)
        return -1;
    if (t && wl->timeout_us == 0)
        return ERR(p, t, "timeout must be more than 0");
    if (o) {
        const char *s;
        if (ydoc_str(p->doc, o, &s, p->err, p->errlen) != 0)
            return -1;
        if (strcmp(s, "continue") && strcmp(s, "fail"))
            return ERR(p, o, "on_timeout must be 'continue' or 'fail', not '%s'", s);
        wl->on_timeout_fail = !strcmp(s, "fail");
    }
    return 0;
}

static int parse_measures(struct workload_parse *p, const struct ydoc_node *n)
{
    struct workload *wl = p->wl;
    if (!n)
        return 0;
    if (ydoc_expect(p->doc, n, YDOC_MAP, "measures", p->err, p->errlen) != 0)
        return -1;
    if (!(wl->measures = calloc(n->n ? n->n : 1, sizeof *wl->measures)))
        return ERR(p, n, "out of memory");
    for (size_t i = 0; i < n->n; i++) {
        struct workload_measure *m = &wl->measures[wl->nmeasures++];
        const struct ydoc_node *k = n->keys[i], *v = n->items[i];
        if (workload_parse_name(p, k, "measure name", m->name) != 0)
            return -1;
        m->line = k->line;
        m->col = k->col;
        if (workload_timer_index(wl, m->name) >= 0)
            return ERR(p, k, "measure '%s' has the name of a timer; samples would mix", m->name);
        if (ydoc_expect(p->doc, v, YDOC_MAP, "a measure group", p->err, p->errlen) != 0)
            return -1;
        if (v->n == 0)
            return ERR(p, v, "measure '%s' must name at least one timer with its weight", m->name);
        if (!(m->items = calloc(v->n, sizeof *m->items)))
            return ERR(p, v, "out of memory");
        for (size_t j = 0; j < v->n; j++) {
            struct workload_measure_item *it = &m->items[m->n++];
            if (workload_parse_name(p, v->keys[j], "timer name", it->timer) != 0)
                return -1;
            if (workload_timer_index(wl, it->timer) < 0)
                return ERR(p, v->keys[j], "unknown timer '%s' in measure '%s'", it->timer, m->name);
            if (ydoc_double(p->doc, v->items[j], 0, 1000, &it->weight, p->err, p->errlen) != 0)
                return -1;
        }
    }
    return 0;
}

/* A loop that never waits would spin the agent's event loop and flood the server. Looks at
 * each step once (a repeat's body once, whatever its count: count is at least 1), so nested
 * repeats cost their size, not the product of their counts. */
static int pauses(const struct workload_step *steps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct workload_step *s = &steps[i];
        if (s->kind == WORKLOAD_STEP_WAIT || s->kind == WORKLOAD_STEP_TIMER ||
            (s->kind == WORKLOAD_STEP_THINK && s->think_max_us > 0) ||
            (s->kind == WORKLOAD_STEP_TYPE && s->rate_us > 0) ||
            ((s->kind == WORKLOAD_STEP_KEY || s->kind == WORKLOAD_STEP_CLICK ||
              s->kind == WORKLOAD_STEP_MOVE) && s->pause_us > 0))
            return 1;
        if (s->kind == WORKLOAD_STEP_REPEAT && pauses(s->steps, s->nsteps))
            return 1;
    }
    return 0;
}

static int parse_top(struct workload_parse *p)
{
    static const char *const keys[] = { "version", "name", "description", "desktop", "regions", "defaults",
                                        "logon", "loop", "logoff", "measures", "drives", NULL };
    const struct ydoc_node *root = p->doc->root;
    struct workload *wl = p->wl;
    if (!root)
        return ERR(p, NULL, "empty workload");
    if (ydoc_check_keys(p->doc, root, keys, "a workload", p->err, p->errlen) != 0)
        return -1;
    const struct ydoc_node *v = ydoc_get(root, "version");
    long long version;
    if (!v)
        return ERR(p, root, "version is missing (write version: %d)", WORKLOAD_VERSION);
    if (ydoc_int(p->doc, v, 1, 1000, &version, p->err, p->errlen) != 0)
        return -1;
    if (version != WORKLOAD_VERSION)
        return ERR(p, v, "version %lld is not supported (this sessmax reads version %d)", version, WORKLOAD_VERSION);
    wl->version = (int)version;
    const char *s;
    const struct ydoc_node *name = ydoc_get(root, "name"), *desc = ydoc_get(root, "description");
    if (!name)
        return ERR(p, root, "name is missing");
    if (ydoc_str(p->doc, name, &s, p->err, p->errlen) != 0 || !(wl->name = strdup(s)))
        return -1;
    if (desc && (ydoc_str(p->doc, desc, &s, p->err, p->errlen) != 0 || !(wl->description = strdup(s))))
        return -1;
    if (parse_desktop(p, ydoc_get(root, "desktop")) != 0 || parse_regions(p, ydoc_get(root, "regions")) != 0 ||
        parse_defaults(p, ydoc_get(root, "defaults")) != 0)
        return -1;
    const struct ydoc_node *logon = ydoc_get(root, "logon"), *loop = ydoc_get(root, "loop");
    if (!logon)
        return ERR(p, root, "logon is missing (the desktop-ready condition)");
    if (workload_parse_wait(p, logon, "logon", WORKLOAD_WAIT_REPAINT, 120000000, &wl->logon) != 0)
        return -1;
    if (!loop)
        return ERR(p, root, "loop is missing");
    if (workload_parse_steps(p, loop, "loop", &wl->loop, &wl->nloop) != 0)
        return -1;
    if (!pauses(wl->loop, wl->nloop))
        return ERR(p, loop, "loop never pauses, so it would repeat unbounded: add a think, wait, timer, type or a pause");
    const struct ydoc_node *logoff = ydoc_get(root, "logoff");
    if (logoff && workload_parse_steps(p, logoff, "logoff", &wl->logoff, &wl->nlogoff) != 0)
        return -1;
    if (parse_measures(p, ydoc_get(root, "measures")) != 0)
        return -1;
    return workload_parse_drives(p, ydoc_get(root, "drives"));
}

static void hash_text(const char *text, size_t len, char out[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    out[0] = '\0';
    if (!EVP_Digest(text, len, md, &mdlen, EVP_sha256(), NULL))
        return;
    for (unsigned i = 0; i < mdlen && i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
}

struct workload *workload_load_string(const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    struct workload_parse p = { .err = err, .errlen = errlen };
    struct ydoc *doc = ydoc_load_string(name, text, len, err, errlen);
    if (!doc)
        return NULL;
    p.doc = doc;
    p.wl = calloc(1, sizeof *p.wl);
    if (!p.wl || !(p.wl->file = strdup(name))) {
        snprintf(err, errlen, "%s: out of memory", name);
        goto fail;
    }
    hash_text(text, len, p.wl->hash);
    if (parse_top(&p) != 0)
        goto fail;
    ydoc_free(doc);
    return p.wl;
fail:
    ydoc_free(doc);
    workload_free(p.wl);
    return NULL;
}

struct workload *workload_load_file(const char *path, char *err, size_t errlen)
{
    size_t len = 0;
    char *text = file_read_all(path, FILE_READ_MAX_CONFIG, &len, err, errlen);
    if (!text)
        return NULL;
    struct workload *wl = workload_load_string(path, text, len, err, errlen);
    free(text);
    return wl;
}

void workload_free(struct workload *wl)
{
    if (!wl)
        return;
    workload_free_steps(wl->loop, wl->nloop);
    workload_free_steps(wl->logoff, wl->nlogoff);
    for (size_t i = 0; i < wl->nmeasures; i++)
        free(wl->measures[i].items);
    free(wl->measures);
    for (size_t i = 0; i < wl->ntimers; i++)
        free(wl->timers[i]);
    free(wl->timers);
    workload_free_drives(wl);
    free(wl->regions);
    free(wl->name);
    free(wl->description);
    free(wl->file);
    free(wl);
}

static int walk(const struct workload_step *steps, size_t n, const char *timer, workload_visit_fn fn, void *ctx)
{
    for (size_t i = 0; i < n; i++) {
        const struct workload_step *s = &steps[i];
        int rc = 0;
        if (s->kind == WORKLOAD_STEP_REPEAT) {
            for (uint32_t k = 0; k < s->count && rc == 0; k++)
                rc = walk(s->steps, s->nsteps, timer, fn, ctx);
        } else if (s->kind == WORKLOAD_STEP_TIMER) {
            rc = fn(ctx, s, s->name);
            if (rc == 0)
                rc = walk(s->steps, s->nsteps, s->name, fn, ctx);
        } else {
            rc = fn(ctx, s, timer);
        }
        if (rc)
            return rc;
    }
    return 0;
}

int workload_walk(const struct workload *wl, enum workload_part part, workload_visit_fn fn, void *ctx)
{
    if (part == WORKLOAD_PART_LOOP)
        return walk(wl->loop, wl->nloop, NULL, fn, ctx);
    return walk(wl->logoff, wl->nlogoff, NULL, fn, ctx);
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static uint64_t sat_mul(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

static uint64_t flat_steps(const struct workload_step *steps, size_t n)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        const struct workload_step *s = &steps[i];
        if (s->kind == WORKLOAD_STEP_REPEAT)
            total = sat_add(total, sat_mul(flat_steps(s->steps, s->nsteps), s->count));
        else if (s->kind == WORKLOAD_STEP_TIMER)
            total = sat_add(total, sat_add(1, flat_steps(s->steps, s->nsteps)));
        else
            total = sat_add(total, 1);
    }
    return total;
}

uint64_t workload_flat_steps(const struct workload *wl, enum workload_part part)
{
    return part == WORKLOAD_PART_LOOP ? flat_steps(wl->loop, wl->nloop) : flat_steps(wl->logoff, wl->nlogoff);
}

size_t workload_expand(const char *text, const char *user, char *out, size_t outlen)
{
    size_t n = 0, ulen = user ? strlen(user) : 0;
    for (const char *t = text; *t;) {
        const char *piece = t;
        size_t plen = 1;
        if (!strncmp(t, "{user}", 6)) {
            piece = user ? user : "";
            plen = ulen;
            t += 6;
        } else {
            t++;
        }
        for (size_t i = 0; i < plen; i++, n++)
            if (outlen && n < outlen - 1)
                out[n] = piece[i];
    }
    if (outlen)
        out[n < outlen ? n : outlen - 1] = '\0';
    return n;
}
