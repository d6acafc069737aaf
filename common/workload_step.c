/* workload_step.c -- parses workload steps (key, type, click, move, think, wait, timer, repeat)
 * and screen conditions into struct workload_step / workload_wait, with positioned errors. */
#include "common/workload_step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/keymap.h"
#include "common/workload_drives.h"

#define ERR WORKLOAD_PARSE_ERR

static const struct workload_region *region_ref(struct workload_parse *p, const struct ydoc_node *n,
                                                const char *what)
{
    const char *name;
    if (ydoc_str(p->doc, n, &name, p->err, p->errlen) != 0)
        return NULL;
    const struct workload_region *r = workload_region(p->wl, name);
    if (!r)
        ERR(p, n, "unknown region '%s' in %s (define it under regions:)", name, what);
    return r;
}

static int parse_i32(struct workload_parse *p, const struct ydoc_node *n, const char *what,
                     long long min, long long max, int32_t *out)
{
    long long v;
    if (!n)
        return ERR(p, NULL, "%s is missing", what);
    if (ydoc_int(p->doc, n, min, max, &v, p->err, p->errlen) != 0)
        return -1;
    *out = (int32_t)v;
    return 0;
}

/* ---- conditions ---------------------------------------------------------------------------- */

static int cond_region(struct workload_parse *p, const struct ydoc_node *n, const char *what,
                       struct workload_cond *c)
{
    const struct workload_region *r = region_ref(p, n, what);
    if (!r)
        return -1;
    c->region = r->r;
    snprintf(c->region_name, sizeof c->region_name, "%s", r->name);
    return 0;
}

/* change: REGION, or {region, except: REGION | [REGION, ...]} */
static int cond_change(struct workload_parse *p, const struct ydoc_node *v, struct workload_cond *c)
{
    static const char *const keys[] = { "region", "except", NULL };
    if (v->kind == YDOC_SCALAR)
        return cond_region(p, v, "change", c);
    if (ydoc_check_keys(p->doc, v, keys, "change", p->err, p->errlen) != 0)
        return -1;
    if (!ydoc_get(v, "region"))
        return ERR(p, v, "change needs a region");
    if (cond_region(p, ydoc_get(v, "region"), "change", c) != 0)
        return -1;
    const struct ydoc_node *ex = ydoc_get(v, "except");
    if (!ex)
        return 0;
    size_t n = ex->kind == YDOC_SEQ ? ex->n : 1;
    if (n == 0 || n > WORKLOAD_EXCEPT_MAX)
        return ERR(p, ex, "except names 1 to %d regions", WORKLOAD_EXCEPT_MAX);
    for (size_t i = 0; i < n; i++) {
        const struct workload_region *r = region_ref(p, ex->kind == YDOC_SEQ ? ex->items[i] : ex, "except");
        if (!r)
            return -1;
        c->except[c->nexcept++] = r->r;
    }
    return 0;
}

int workload_parse_min(struct workload_parse *p, const struct ydoc_node *n, enum workload_min *min,
                       uint64_t *min_us)
{
    const char *text;
    if (ydoc_str(p->doc, n, &text, p->err, p->errlen) != 0)
        return -1;
    *min_us = 0;
    if (!strcmp(text, "echo")) {
        *min = WORKLOAD_MIN_ECHO;
        return 0;
    }
    if (!strcmp(text, "0")) {
        *min = WORKLOAD_MIN_NONE;
        return 0;
    }
    if (ydoc_duration_us(p->doc, n, min_us, p->err, p->errlen) != 0)
        return ERR(p, n, "min must be echo, 0 or a duration like 50ms, not '%s'", text);
    *min = *min_us ? WORKLOAD_MIN_FIXED : WORKLOAD_MIN_NONE;
    return 0;
}

static int cond_stable(struct workload_parse *p, const struct ydoc_node *v, struct workload_cond *c)
{
    static const char *const keys[] = { "region", "for", NULL };
    c->stable_us = 300000;
    if (v->kind == YDOC_SCALAR)
        return cond_region(p, v, "stable", c);
    if (ydoc_check_keys(p->doc, v, keys, "stable", p->err, p->errlen) != 0)
        return -1;
    const struct ydoc_node *f = ydoc_get(v, "for");
    if (f && ydoc_duration_us(p->doc, f, &c->stable_us, p->err, p->errlen) != 0)
        return -1;
    if (!ydoc_get(v, "region"))
        return ERR(p, v, "stable needs a region");
    return cond_region(p, ydoc_get(v, "region"), "stable", c);
}

static int cond_match(struct workload_parse *p, const struct ydoc_node *v, struct workload_cond *c)
{
    static const char *const keys[] = { "region", "hash", "tolerance", NULL };
    if (ydoc_check_keys(p->doc, v, keys, "match", p->err, p->errlen) != 0)
        return -1;
    if (!ydoc_get(v, "region"))
        return ERR(p, v, "match needs a region");
    if (cond_region(p, ydoc_get(v, "region"), "match", c) != 0)
        return -1;
    const struct ydoc_node *h = ydoc_get(v, "hash");
    const char *text;
    if (!h)
        return ERR(p, v, "match needs a hash (sessmax-agent shot prints region hashes)");
    if (ydoc_str(p->doc, h, &text, p->err, p->errlen) != 0)
        return -1;
    char *end;
    c->hash = strtoull(text, &end, 16);
    if (strlen(text) != 16 || *end)
        return ERR(p, h, "hash must be 16 hex digits, found '%s'", text);
    const struct ydoc_node *t = ydoc_get(v, "tolerance");
    long long tol = 0;
    if (t && ydoc_int(p->doc, t, 0, 3, &tol, p->err, p->errlen) != 0)
        return -1;
    c->tolerance = (uint32_t)tol;
    return 0;
}

static int cond_pixel(struct workload_parse *p, const struct ydoc_node *v, struct workload_cond *c)
{
    static const char *const keys[] = { "x", "y", "rgb", "tolerance", NULL };
    if (ydoc_check_keys(p->doc, v, keys, "pixel", p->err, p->errlen) != 0)
        return -1;
    struct workload_rect r = { 0, 0, 1, 1 };
    if (!ydoc_get(v, "x") || !ydoc_get(v, "y"))
        return ERR(p, v, "pixel needs x and y");
    if (parse_i32(p, ydoc_get(v, "x"), "pixel x", 0, (long long)p->wl->width - 1, &r.x) != 0 ||
        parse_i32(p, ydoc_get(v, "y"), "pixel y", 0, (long long)p->wl->height - 1, &r.y) != 0)
        return -1;
    c->region = r;
    const struct ydoc_node *rgb = ydoc_get(v, "rgb");
    const char *text;
    if (!rgb)
        return ERR(p, v, "pixel needs rgb: \"#RRGGBB\"");
    if (ydoc_str(p->doc, rgb, &text, p->err, p->errlen) != 0)
        return -1;
    char *end;
    unsigned long val = strtoul(text + 1, &end, 16);
    if (text[0] != '#' || strlen(text) != 7 || *end)
        return ERR(p, rgb, "rgb must be \"#RRGGBB\", found '%s'", text);
    c->rgb = (uint32_t)val;
    const struct ydoc_node *t = ydoc_get(v, "tolerance");
    long long tol = 0;
    if (t && ydoc_int(p->doc, t, 0, 255, &tol, p->err, p->errlen) != 0)
        return -1;
    c->tolerance = (uint32_t)tol;
    return 0;
}

int workload_parse_wait(struct workload_parse *p, const struct ydoc_node *map, const char *what,
                        int flags, uint64_t default_timeout_us, struct workload_wait *out)
{
    const char *keys[10] = { "change", "stable", "match", "pixel", "timeout" };
    size_t nk = 5;
    if (flags & WORKLOAD_WAIT_ON_TIMEOUT)
        keys[nk++] = "on_timeout";
    if (flags & WORKLOAD_WAIT_MIN)
        keys[nk++] = "min";
    if (flags & WORKLOAD_WAIT_REPAINT)
        keys[nk++] = "repaint_after";
    if (flags & WORKLOAD_WAIT_FAIL)
        keys[nk++] = "fail";
    keys[nk] = NULL;
    memset(out, 0, sizeof *out);
    if (ydoc_expect(p->doc, map, YDOC_MAP, what, p->err, p->errlen) != 0 ||
        ydoc_check_keys(p->doc, map, keys, what, p->err, p->errlen) != 0)
        return -1;
    out->line = map->line;
    out->col = map->col;
    out->timeout_us = default_timeout_us;
    out->on_timeout_fail = p->wl->on_timeout_fail;
    out->min = p->wl->min;
    out->min_us = p->wl->min_us;
    out->repaint_after_us = (flags & WORKLOAD_WAIT_REPAINT) ? 5000000 : 0;
    for (size_t i = 0; i < map->n; i++) {
        const char *k = map->keys[i]->value;
        const struct ydoc_node *v = map->items[i];
        if (!strcmp(k, "fail"))
            continue;                    /* step_timer parses it */
        if (!strcmp(k, "min")) {
            if (workload_parse_min(p, v, &out->min, &out->min_us) != 0)
                return -1;
            continue;
        }
        if (!strcmp(k, "repaint_after")) {
            if (ydoc_duration_us(p->doc, v, &out->repaint_after_us, p->err, p->errlen) != 0)
                return -1;
            continue;
        }
        if (!strcmp(k, "timeout")) {
            if (ydoc_duration_us(p->doc, v, &out->timeout_us, p->err, p->errlen) != 0)
                return -1;
            if (out->timeout_us == 0)
                return ERR(p, v, "timeout must be more than 0");
            continue;
        }
        if (!strcmp(k, "on_timeout")) {
            const char *s;
            if (ydoc_str(p->doc, v, &s, p->err, p->errlen) != 0)
                return -1;
            if (strcmp(s, "continue") && strcmp(s, "fail"))
                return ERR(p, v, "on_timeout must be 'continue' or 'fail', not '%s'", s);
            out->on_timeout_fail = !strcmp(s, "fail");
            continue;
        }
        struct workload_cond *c = &out->conds[out->n++];
        c->line = map->keys[i]->line;
        c->col = map->keys[i]->col;
        int rc;
        if (!strcmp(k, "change")) {
            c->kind = WORKLOAD_COND_CHANGE;
            rc = cond_change(p, v, c);
        } else if (!strcmp(k, "stable")) {
            c->kind = WORKLOAD_COND_STABLE;
            rc = cond_stable(p, v, c);
        } else if (!strcmp(k, "match")) {
            c->kind = WORKLOAD_COND_MATCH;
            rc = v->kind == YDOC_MAP ? cond_match(p, v, c) : ERR(p, v, "match must be a map {region, hash, tolerance}");
        } else {
            c->kind = WORKLOAD_COND_PIXEL;
            rc = v->kind == YDOC_MAP ? cond_pixel(p, v, c) : ERR(p, v, "pixel must be a map {x, y, rgb, tolerance}");
        }
        if (rc != 0)
            return -1;
    }
    if (out->n == 0)
        return ERR(p, map, "%s needs a condition: change, stable, match or pixel", what);
    return 0;
}

/* ---- steps --------------------------------------------------------------------------------- */

static int step_key(struct workload_parse *p, const struct ydoc_node *v, struct workload_step *s)
{
    const char *text;
    if (ydoc_str(p->doc, v, &text, p->err, p->errlen) != 0)
        return -1;
    int quote = v->quoted ? 1 : 0;
    const char *start = text;
    for (;;) {
        const char *plus = strchr(start, '+');
        size_t len = plus ? (size_t)(plus - start) : strlen(start);
        char name[32];
        struct ydoc_node at = *v;
        at.col = v->col + quote + (int)(start - text);
        if (len == 0 || len >= sizeof name)
            return ERR(p, &at, "bad key chord '%s' (write keys like ctrl+alt+t)", text);
        memcpy(name, start, len);
        name[len] = '\0';
        uint32_t sc = keymap_scancode_by_name(name);
        if (!sc)
            return ERR(p, &at, "unknown key '%s' in chord '%s'", name, text);
        if (s->nchord == WORKLOAD_CHORD_MAX)
            return ERR(p, v, "chord '%s' has more than %d keys", text, WORKLOAD_CHORD_MAX);
        s->chord[s->nchord++] = sc;
        if (!plus)
            break;
        start = plus + 1;
    }
    return 0;
}

static int step_type(struct workload_parse *p, const struct ydoc_node *step, const struct ydoc_node *v,
                     struct workload_step *s)
{
    const char *text;
    if (ydoc_str(p->doc, v, &text, p->err, p->errlen) != 0)
        return -1;
    if (!text[0])
        return ERR(p, v, "type needs some text");
    if (!(s->text = strdup(text)))
        return ERR(p, v, "out of memory");
    s->rate_us = p->wl->type_rate_us;
    const struct ydoc_node *r = ydoc_get(step, "rate");
    return r ? ydoc_duration_us(p->doc, r, &s->rate_us, p->err, p->errlen) : 0;
}

static int point(struct workload_parse *p, const struct ydoc_node *v, const char *what,
                 struct workload_step *s, const char *const *keys)
{
    if (v->kind == YDOC_SCALAR || (v->kind == YDOC_MAP && ydoc_get(v, "region"))) {
        if (v->kind == YDOC_MAP && ydoc_check_keys(p->doc, v, keys, what, p->err, p->errlen) != 0)
            return -1;
        const struct workload_region *r = region_ref(p, v->kind == YDOC_MAP ? ydoc_get(v, "region") : v, what);
        if (!r)
            return -1;
        s->x = r->r.x + r->r.w / 2;
        s->y = r->r.y + r->r.h / 2;
        return 0;
    }
    if (ydoc_check_keys(p->doc, v, keys, what, p->err, p->errlen) != 0)
        return -1;
    if (!ydoc_get(v, "x") || !ydoc_get(v, "y"))
        return ERR(p, v, "%s needs x and y, or a region", what);
    if (parse_i32(p, ydoc_get(v, "x"), "x", 0, (long long)p->wl->width - 1, &s->x) != 0 ||
        parse_i32(p, ydoc_get(v, "y"), "y", 0, (long long)p->wl->height - 1, &s->y) != 0)
        return -1;
    return 0;
}

static int step_click(struct workload_parse *p, const struct ydoc_node *v, struct workload_step *s)
{
    static const char *const keys[] = { "x", "y", "region", "button", "double", NULL };
    if (point(p, v, "click", s, keys) != 0)
        return -1;
    if (v->kind != YDOC_MAP)
        return 0;
    const struct ydoc_node *b = ydoc_get(v, "button");
    if (b) {
        const char *t;
        if (ydoc_str(p->doc, b, &t, p->err, p->errlen) != 0)
            return -1;
        if (!strcmp(t, "left")) s->button = WORKLOAD_BUTTON_LEFT;
        else if (!strcmp(t, "right")) s->button = WORKLOAD_BUTTON_RIGHT;
        else if (!strcmp(t, "middle")) s->button = WORKLOAD_BUTTON_MIDDLE;
        else return ERR(p, b, "button must be left, right or middle, not '%s'", t);
    }
    const struct ydoc_node *d = ydoc_get(v, "double");
    return d ? ydoc_bool(p->doc, d, &s->double_click, p->err, p->errlen) : 0;
}

static int step_think(struct workload_parse *p, const struct ydoc_node *v, struct workload_step *s)
{
    const char *text;
    if (ydoc_str(p->doc, v, &text, p->err, p->errlen) != 0)
        return -1;
    const char *dots = strstr(text, "..");
    char lo[64];
    size_t len = dots ? (size_t)(dots - text) : strlen(text);
    if (len >= sizeof lo)
        return ERR(p, v, "expected a duration or a range like 2s..5s, found '%s'", text);
    memcpy(lo, text, len);
    lo[len] = '\0';
    if (ydoc_parse_duration_us(lo, &s->think_min_us) != 0 ||
        ydoc_parse_duration_us(dots ? dots + 2 : lo, &s->think_max_us) != 0)
        return ERR(p, v, "expected a duration or a range like 2s..5s, found '%s'", text);
    if (s->think_max_us < s->think_min_us)
        return ERR(p, v, "think range '%s' ends before it starts", text);
    return 0;
}

static const struct workload_step *find_timer(const struct workload_step *steps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (steps[i].kind == WORKLOAD_STEP_TIMER)
            return &steps[i];
        const struct workload_step *t = find_timer(steps[i].steps, steps[i].nsteps);
        if (t)
            return t;
    }
    return NULL;
}

static int step_timer(struct workload_parse *p, const struct ydoc_node *step, const struct ydoc_node *v,
                      struct workload_step *s)
{
    if (workload_parse_name(p, v, "timer name", s->name) != 0)
        return -1;
    const struct ydoc_node *until = ydoc_get(step, "until");
    if (!until)
        return ERR(p, step, "timer '%s' needs until: {<condition>, timeout}", s->name);
    if (workload_parse_wait(p, until, "until", WORKLOAD_WAIT_ON_TIMEOUT | WORKLOAD_WAIT_MIN | WORKLOAD_WAIT_FAIL,
                            p->wl->timeout_us, &s->wait) != 0)
        return -1;
    const struct ydoc_node *fail = ydoc_get(until, "fail");
    if (fail && (ydoc_expect(p->doc, fail, YDOC_MAP, "fail", p->err, p->errlen) != 0 ||
                 workload_parse_wait(p, fail, "fail", 0, s->wait.timeout_us, &s->fail) != 0))
        return -1;
    const struct ydoc_node *steps = ydoc_get(step, "steps");
    if (steps && workload_parse_steps(p, steps, "timer steps", &s->steps, &s->nsteps) != 0)
        return -1;
    const struct ydoc_node *copy = ydoc_get(step, "copy");
    if (copy && workload_parse_copy(p, copy, s->name) != 0)
        return -1;
    const struct workload_step *inner = find_timer(s->steps, s->nsteps);
    if (inner) {
        struct ydoc_node at = { .line = inner->line, .col = inner->col };
        return ERR(p, &at, "timer '%s' inside timer '%s': timers cannot nest", inner->name, s->name);
    }
    for (size_t i = 0; i < p->wl->ntimers; i++)
        if (!strcmp(p->wl->timers[i], s->name))
            return 0;
    char **t = realloc(p->wl->timers, (p->wl->ntimers + 1) * sizeof *t);
    if (!t)
        return ERR(p, v, "out of memory");
    p->wl->timers = t;
    if (!(t[p->wl->ntimers] = strdup(s->name)))
        return ERR(p, v, "out of memory");
    p->wl->ntimers++;
    return 0;
}

static int step_repeat(struct workload_parse *p, const struct ydoc_node *v, struct workload_step *s)
{
    static const char *const keys[] = { "count", "steps", NULL };
    if (ydoc_check_keys(p->doc, v, keys, "repeat", p->err, p->errlen) != 0)
        return -1;
    long long count;
    if (!ydoc_get(v, "count") || !ydoc_get(v, "steps"))
        return ERR(p, v, "repeat needs count and steps");
    if (ydoc_int(p->doc, ydoc_get(v, "count"), 1, 100000, &count, p->err, p->errlen) != 0)
        return -1;
    s->count = (uint32_t)count;
    return workload_parse_steps(p, ydoc_get(v, "steps"), "repeat steps", &s->steps, &s->nsteps);
}

static const char *const step_actions[] = { "key", "type", "click", "move", "think", "wait", "timer", "repeat", NULL };

static int parse_step(struct workload_parse *p, const struct ydoc_node *n, struct workload_step *s)
{
    static const char *const k_key[] = { "key", "pause", NULL }, *const k_type[] = { "type", "rate", NULL },
        *const k_click[] = { "click", "pause", NULL }, *const k_move[] = { "move", "pause", NULL },
        *const k_think[] = { "think", NULL }, *const k_wait[] = { "wait", NULL },
        *const k_timer[] = { "timer", "steps", "until", "copy", NULL }, *const k_repeat[] = { "repeat", NULL };
    static const char *const *const allowed[] = { k_key, k_type, k_click, k_move, k_think, k_wait, k_timer, k_repeat };
    static const char *const move_keys[] = { "x", "y", "region", NULL };
    if (ydoc_expect(p->doc, n, YDOC_MAP, "a step", p->err, p->errlen) != 0)
        return -1;
    s->line = n->line;
    s->col = n->col;
    int kind = -1;
    for (int i = 0; step_actions[i] && kind < 0; i++)
        if (ydoc_get(n, step_actions[i]))
            kind = i;
    if (kind < 0)
        return ERR(p, n, "a step needs one of key, type, click, move, think, wait, timer, repeat");
    char what[32];
    snprintf(what, sizeof what, "a %s step", step_actions[kind]);
    if (ydoc_check_keys(p->doc, n, allowed[kind], what, p->err, p->errlen) != 0)
        return -1;
    s->kind = (enum workload_step_kind)kind;
    const struct ydoc_node *v = ydoc_get(n, step_actions[kind]), *pause = ydoc_get(n, "pause");
    s->pause_us = p->wl->pause_us;
    if (pause && ydoc_duration_us(p->doc, pause, &s->pause_us, p->err, p->errlen) != 0)
        return -1;
    switch (s->kind) {
    case WORKLOAD_STEP_KEY: return step_key(p, v, s);
    case WORKLOAD_STEP_TYPE: return step_type(p, n, v, s);
    case WORKLOAD_STEP_CLICK: return step_click(p, v, s);
    case WORKLOAD_STEP_MOVE: return point(p, v, "move", s, move_keys);
    case WORKLOAD_STEP_THINK: return step_think(p, v, s);
    case WORKLOAD_STEP_WAIT: return workload_parse_wait(p, v, "wait", WORKLOAD_WAIT_ON_TIMEOUT, p->wl->timeout_us,
                                                        &s->wait);
    case WORKLOAD_STEP_TIMER: return step_timer(p, n, v, s);
    case WORKLOAD_STEP_REPEAT:
        return v->kind == YDOC_MAP ? step_repeat(p, v, s) : ERR(p, v, "repeat must be a map {count, steps}");
    }
    return -1;
}

int workload_parse_steps(struct workload_parse *p, const struct ydoc_node *seq, const char *what,
                         struct workload_step **out, size_t *n)
{
    if (ydoc_expect(p->doc, seq, YDOC_SEQ, what, p->err, p->errlen) != 0)
        return -1;
    if (seq->n == 0)
        return ERR(p, seq, "%s must not be empty", what);
    *out = calloc(seq->n, sizeof **out);
    if (!*out)
        return ERR(p, seq, "out of memory");
    for (size_t i = 0; i < seq->n; i++) {
        (*n)++;
        if (parse_step(p, seq->items[i], &(*out)[i]) != 0)
            return -1;
    }
    return 0;
}

void workload_free_steps(struct workload_step *steps, size_t n)
{
    if (!steps)
        return;
    for (size_t i = 0; i < n; i++) {
        free(steps[i].text);
        workload_free_steps(steps[i].steps, steps[i].nsteps);
    }
    free(steps);
}
