/* studio_api.c -- the studio's request handlers (studio_api.h): query fields into steps,
 * conditions and regions, the state as JSON (jansson), the screen as PNG. */
#include "agent/studio/studio_api.h"

#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include "agent/studio/studio.h"
#include "agent/studio/studio_html.h"
#include "common/workload_pixel.h"

#define ERR_LEN 512

static int json_out(json_t *j, int code, char **body, size_t *len, const char **type)
{
    *body = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    *len = *body ? strlen(*body) : 0;
    *type = "application/json";
    return *body ? code : 500;
}

static int error_out(int code, const char *msg, char **body, size_t *len, const char **type)
{
    return json_out(json_pack("{s:s}", "error", msg), code, body, len, type);
}

static const char *arg(const struct evkeyvalq *q, const char *k)
{
    return q ? evhttp_find_header(q, k) : NULL;
}

/* An integer field in [lo, hi]; 0, or -1 (missing or bad). */
static int int_arg(const struct evkeyvalq *q, const char *k, long lo, long hi, long *out)
{
    const char *v = arg(q, k);
    char *end;
    if (!v || !*v)
        return -1;
    long n = strtol(v, &end, 10);
    if (*end || n < lo || n > hi)
        return -1;
    *out = n;
    return 0;
}

static int part_arg(const struct evkeyvalq *q, enum studio_part *p)
{
    const char *v = arg(q, "part");
    if (!v || !strcmp(v, "loop"))
        *p = STUDIO_LOOP;
    else if (!strcmp(v, "logoff"))
        *p = STUDIO_LOGOFF;
    else
        return -1;
    return 0;
}

/* Every c= field, in order. */
static int conds_arg(const struct evkeyvalq *q, struct studio_cond *c, size_t *n, char *err, size_t errlen)
{
    const struct evkeyval *kv;
    *n = 0;
    if (!q)
        return 0;
    TAILQ_FOREACH(kv, q, next) {
        if (strcmp(kv->key, "c"))
            continue;
        if (*n == STUDIO_MAX_CONDS) {
            snprintf(err, errlen, "at most %d conditions", STUDIO_MAX_CONDS);
            return -1;
        }
        if (studio_cond_parse(kv->value, &c[(*n)++], err, errlen) != 0)
            return -1;
    }
    return 0;
}

static const char *const KINDS[] = { "key", "type", "click", "think", "wait", "timer" };

static int step_arg(const struct evkeyvalq *q, struct studio_step *s, char *err, size_t errlen)
{
    const char *kind = arg(q, "kind"), *text = arg(q, "text"), *name = arg(q, "name"), *input = arg(q, "input");
    long v;
    memset(s, 0, sizeof *s);
    size_t k = 0;
    while (k < sizeof KINDS / sizeof *KINDS && (!kind || strcmp(kind, KINDS[k])))
        k++;
    if (k == sizeof KINDS / sizeof *KINDS) {
        snprintf(err, errlen, "kind is key, type, click, think, wait or timer");
        return -1;
    }
    s->kind = (enum studio_step_kind)k;
    if (text && strlen(text) >= sizeof s->text) {
        snprintf(err, errlen, "text longer than %zu bytes", sizeof s->text - 1);
        return -1;
    }
    snprintf(s->text, sizeof s->text, "%s", text ? text : "");
    snprintf(s->name, sizeof s->name, "%s", name ? name : "");
    s->input = input && !strcmp(input, "type") ? STUDIO_TYPE : STUDIO_KEY;
    if (s->kind == STUDIO_CLICK) {
        long x, y;
        if (int_arg(q, "x", 0, 65535, &x) || int_arg(q, "y", 0, 65535, &y)) {
            snprintf(err, errlen, "a click needs x and y");
            return -1;
        }
        s->x = (int32_t)x;
        s->y = (int32_t)y;
    }
    if (arg(q, "timeout_ms") && int_arg(q, "timeout_ms", 1, 3600000, &v) == 0)
        s->timeout_ms = (uint32_t)v;
    else if (arg(q, "timeout_ms") && *arg(q, "timeout_ms")) {
        snprintf(err, errlen, "timeout_ms is 1 to 3600000");
        return -1;
    }
    return conds_arg(q, s->conds, &s->nconds, err, errlen);
}

/* ---------------------------------------------------------------- state */

static json_t *steps_json(const struct studio_rec *r, enum studio_part p)
{
    json_t *a = json_array();
    for (size_t i = 0; i < r->nsteps[p]; i++) {
        char *y = studio_rec_try_yaml(r, &r->steps[p][i], 1);
        const char *line = y ? strstr(y, "loop:\n") : NULL;
        const char *end = line ? strstr(line, "  - think: 10ms\n") : NULL;
        json_array_append_new(a, line && end ? json_stringn(line + 10, (size_t)(end - line - 11)) : json_string("?"));
        free(y);
    }
    return a;
}

static json_t *tried_json(const struct studio *s)
{
    json_t *a = json_array();
    uint32_t first = s->ntried > STUDIO_TRIES_KEPT ? s->ntried - STUDIO_TRIES_KEPT : 0;
    for (uint32_t i = s->ntried; i-- > first;) {
        const struct studio_tried *t = &s->tried[i % STUDIO_TRIES_KEPT];
        json_t *o = json_pack("{s:i,s:s,s:f,s:s,s:s,s:b}", "seq", (int)t->seq, "what", t->what, "took_ms",
                              (t->r.timed ? t->r.value_us : t->r.elapsed_us) / 1000.0, "ended_by", t->ended_by,
                              "floor", t->floor, "failed", t->r.failed);
        if (o && t->r.timed)
            json_object_set_new(o, "sample", json_pack("{s:s,s:f,s:s}", "timer", t->r.timer, "value_ms",
                                                       t->r.value_us / 1000.0, "status",
                                                       t->r.status == 1 ? "ok" : t->r.status == 2 ? "suspect" : "failed"));
        json_array_append_new(a, o);
    }
    return a;
}

static int state_page(struct studio *s, char **body, size_t *len, const char **type)
{
    char err[ERR_LEN] = "";
    json_t *regions = json_array();
    for (size_t i = 0; i < s->rec.nregions; i++) {
        const struct workload_rect *r = &s->rec.regions[i].r;
        json_array_append_new(regions, json_pack("{s:s,s:i,s:i,s:i,s:i}", "name", s->rec.regions[i].name, "x", r->x,
                                                 "y", r->y, "w", r->w, "h", r->h));
    }
    char *yaml = studio_rec_yaml(&s->rec);
    int valid = studio_rec_check(&s->rec, err, sizeof err) == 0;
    json_t *j = json_pack("{s:I,s:i,s:i,s:i,s:o,s:o,s:o,s:s,s:b,s:s,s:b,s:o,s:s,s:b}", "frame", (json_int_t)s->frame,
                          "width", (int)s->rec.width, "height", (int)s->rec.height, "bpp", (int)s->rec.bpp,
                          "regions", regions, "loop", steps_json(&s->rec, STUDIO_LOOP), "logoff",
                          steps_json(&s->rec, STUDIO_LOGOFF), "yaml", yaml ? yaml : "", "valid", valid,
                          "problem", valid ? "" : err, "busy", s->cur != NULL, "tries", tried_json(s), "out",
                          s->out_path, "unsaved", s->dirty);
    free(yaml);
    return json_out(j, 200, body, len, type);
}

/* ---------------------------------------------------------------- actions */

static int pixel_page(struct studio *s, const struct evkeyvalq *q, char **body, size_t *len, const char **type)
{
    long x, y;
    struct screen_view v;
    if (int_arg(q, "x", 0, 65535, &x) || int_arg(q, "y", 0, 65535, &y))
        return error_out(400, "pixel needs x and y", body, len, type);
    if (s->live.screen(s->live.arg, &v) != 0 || (uint32_t)x >= v.width || (uint32_t)y >= v.height)
        return error_out(400, "no such pixel on the screen", body, len, type);
    char rgb[8];
    snprintf(rgb, sizeof rgb, "#%06x", workload_pixel_rgb(v.pixels, v.stride, v.bytes_per_pixel, (int32_t)x, (int32_t)y));
    return json_out(json_pack("{s:i,s:i,s:s}", "x", (int)x, "y", (int)y, "rgb", rgb), 200, body, len, type);
}

static int region_page(struct studio *s, const struct evkeyvalq *q, char **body, size_t *len, const char **type)
{
    long x, y, w, h;
    char err[ERR_LEN];
    if (int_arg(q, "x", -65535, 65535, &x) || int_arg(q, "y", -65535, 65535, &y) ||
        int_arg(q, "w", -65535, 65535, &w) || int_arg(q, "h", -65535, 65535, &h))
        return error_out(400, "a region needs x, y, w and h", body, len, type);
    struct workload_rect r = { (int32_t)x, (int32_t)y, (int32_t)w, (int32_t)h };
    const char *name = arg(q, "name");
    if (studio_rec_region(&s->rec, name, r, err, sizeof err) != 0)
        return error_out(400, err, body, len, type);
    s->dirty = 1;
    studio_rec_snap(&s->rec, &r);
    return json_out(json_pack("{s:s,s:i,s:i,s:i,s:i}", "name", name, "x", r.x, "y", r.y, "w", r.w, "h", r.h), 200,
                    body, len, type);
}

/* An input with conditions is the input and a wait for them: tried together, the wait is armed
 * at the input as in a run, so a launcher that opens at once is not missed. */
static size_t split_wait(struct studio_step st[2])
{
    if ((st[0].kind != STUDIO_KEY && st[0].kind != STUDIO_TYPE && st[0].kind != STUDIO_CLICK) || !st[0].nconds)
        return 1;
    st[1] = (struct studio_step){ .kind = STUDIO_WAIT, .nconds = st[0].nconds, .timeout_ms = st[0].timeout_ms };
    memcpy(st[1].conds, st[0].conds, sizeof st[0].conds);
    st[0].nconds = 0;
    st[0].timeout_ms = 0;
    return 2;
}

static int step_page(struct studio *s, const struct evkeyvalq *q, char **body, size_t *len, const char **type)
{
    struct studio_step st[2];
    enum studio_part part;
    char err[ERR_LEN];
    const char *rec = arg(q, "record"), *run = arg(q, "run");
    int record = rec && !strcmp(rec, "1"), go = run && !strcmp(run, "1");
    if (part_arg(q, &part) != 0)
        return error_out(400, "part is loop or logoff", body, len, type);
    if (step_arg(q, &st[0], err, sizeof err) != 0)
        return error_out(400, err, body, len, type);
    size_t n = split_wait(st);
    if (go && s->cur)
        return error_out(409, "a try is running: wait for it to end", body, len, type);
    for (size_t i = 0; record && i < n; i++)
        if (studio_rec_append(&s->rec, part, &st[i], err, sizeof err) != 0) {
            if (i)
                studio_rec_undo(&s->rec, part);
            return error_out(400, err, body, len, type);
        }
    if (record)
        s->dirty = 1;
    if (go && studio_try_steps(s, st, n, err, sizeof err) != 0)
        return error_out(400, err, body, len, type);
    return json_out(json_pack("{s:b,s:b,s:i}", "recorded", record, "running", go, "steps", (int)n), 200, body, len,
                    type);
}

static int try_page(struct studio *s, const struct evkeyvalq *q, char **body, size_t *len, const char **type)
{
    enum studio_part part;
    long from, to;
    char err[ERR_LEN];
    if (part_arg(q, &part) != 0)
        return error_out(400, "part is loop or logoff", body, len, type);
    size_t n = s->rec.nsteps[part];
    if (!n || int_arg(q, "from", 0, (long)n - 1, &from) != 0)
        return error_out(400, "from: the number of a recorded step (0-based)", body, len, type);
    if (!arg(q, "to"))
        to = from;
    else if (int_arg(q, "to", from, (long)n - 1, &to) != 0 || to - from >= STUDIO_TRY_MAX)
        return error_out(400, "to: a recorded step at most 8 after from", body, len, type);
    if (s->cur)
        return error_out(409, "a try is running: wait for it to end", body, len, type);
    if (studio_try_steps(s, &s->rec.steps[part][from], (size_t)(to - from + 1), err, sizeof err) != 0)
        return error_out(400, err, body, len, type);
    return json_out(json_pack("{s:b}", "running", 1), 200, body, len, type);
}

static int logon_page(struct studio *s, const struct evkeyvalq *q, char **body, size_t *len, const char **type)
{
    struct studio_cond c[STUDIO_MAX_CONDS];
    size_t n;
    char err[ERR_LEN];
    if (conds_arg(q, c, &n, err, sizeof err) != 0 || studio_rec_set_logon(&s->rec, c, n, err, sizeof err) != 0)
        return error_out(400, err, body, len, type);
    s->dirty = 1;
    return json_out(json_pack("{s:i}", "conditions", (int)n), 200, body, len, type);
}

int studio_api_page(void *argp, const char *path, const struct evkeyvalq *q, char **body, size_t *len,
                    const char **type)
{
    struct studio *s = argp;
    char err[ERR_LEN];
    enum studio_part part;
    if (!strcmp(path, "/")) {
        *body = strdup(STUDIO_HTML);
        *len = *body ? strlen(*body) : 0;
        *type = "text/html; charset=utf-8";
        return *body ? 200 : 500;
    }
    if (!strcmp(path, "/api/state"))
        return state_page(s, body, len, type);
    if (!strcmp(path, "/api/screen.png")) {
        size_t n;
        const char *png = studio_png(s, &n);
        if (!png)
            return error_out(400, "no screen yet", body, len, type);
        if (!(*body = malloc(n)))
            return 500;
        memcpy(*body, png, n);
        *len = n;
        *type = "image/png";
        return 200;
    }
    if (!strcmp(path, "/api/pixel"))
        return pixel_page(s, q, body, len, type);
    if (!strcmp(path, "/api/region"))
        return region_page(s, q, body, len, type);
    if (!strcmp(path, "/api/step"))
        return step_page(s, q, body, len, type);
    if (!strcmp(path, "/api/try"))
        return try_page(s, q, body, len, type);
    if (!strcmp(path, "/api/logon"))
        return logon_page(s, q, body, len, type);
    if (!strcmp(path, "/api/undo")) {
        if (part_arg(q, &part) != 0 || studio_rec_undo(&s->rec, part) != 0)
            return error_out(400, "nothing to undo", body, len, type);
        s->dirty = 1;
        return json_out(json_pack("{s:b}", "undone", 1), 200, body, len, type);
    }
    if (!strcmp(path, "/api/save")) {
        if (studio_save(s, err, sizeof err) != 0)
            return error_out(400, err, body, len, type);
        return json_out(json_pack("{s:s}", "saved", s->out_path), 200, body, len, type);
    }
    return 404;
}
