/* studio_rec.c -- the studio's recording and its YAML writer (studio_rec.h). Text is written
 * through open_memstream; every string the user gave (chords, typed text, durations) is written
 * double-quoted with YAML escapes, names are checked to be plain words, so nothing typed in the
 * page can add a key to the file. */
#include "agent/studio/studio_rec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/names.h"
#include "common/workload.h"

static int errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* A name written unquoted as a YAML key or value: a safe name that starts with a letter. */
static int plain_name(const char *s)
{
    return name_is_safe(s) && ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'));
}

void studio_rec_init(struct studio_rec *r, const char *name, uint32_t width, uint32_t height, uint32_t bpp)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", plain_name(name) ? name : "studio");
    r->width = width;
    r->height = height;
    r->bpp = bpp == 32 ? 32 : 16;
    r->logon[0] = (struct studio_cond){ .kind = STUDIO_CHANGE, .region = "screen" };
    r->logon[1] = (struct studio_cond){ .kind = STUDIO_STABLE, .region = "screen", .for_ms = 1000 };
    r->nlogon = 2;
}

int studio_rec_snap(const struct studio_rec *r, struct workload_rect *rect)
{
    int64_t x0 = rect->x, y0 = rect->y, x1 = (int64_t)rect->x + rect->w, y1 = (int64_t)rect->y + rect->h;
    if (x1 < x0) { int64_t t = x0; x0 = x1; x1 = t; }
    if (y1 < y0) { int64_t t = y0; y0 = y1; y1 = t; }
    x0 -= x0 % STUDIO_SNAP;
    y0 -= y0 % STUDIO_SNAP;
    x1 += (STUDIO_SNAP - x1 % STUDIO_SNAP) % STUDIO_SNAP;
    y1 += (STUDIO_SNAP - y1 % STUDIO_SNAP) % STUDIO_SNAP;
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > r->width ? r->width : x1;
    y1 = y1 > r->height ? r->height : y1;
    if (x1 <= x0 || y1 <= y0)
        return -1;
    *rect = (struct workload_rect){ (int32_t)x0, (int32_t)y0, (int32_t)(x1 - x0), (int32_t)(y1 - y0) };
    return 0;
}

int studio_rec_region(struct studio_rec *r, const char *name, struct workload_rect rect, char *err, size_t errlen)
{
    if (!name || !plain_name(name))
        return errf(err, errlen, "region name '%s': use %s, starting with a letter", name ? name : "",
                    NAMES_CHARSET_TEXT);
    if (!strcmp(name, "screen"))
        return errf(err, errlen, "'screen' is built in (the whole desktop): pick another name");
    if (studio_rec_snap(r, &rect) != 0)
        return errf(err, errlen, "region '%s' is not on the %ux%u desktop", name, r->width, r->height);
    size_t i = 0;
    while (i < r->nregions && strcmp(r->regions[i].name, name))
        i++;
    if (i == STUDIO_MAX_REGIONS)
        return errf(err, errlen, "at most %d regions", STUDIO_MAX_REGIONS);
    if (i == r->nregions)
        snprintf(r->regions[r->nregions++].name, sizeof r->regions[0].name, "%s", name);
    r->regions[i].r = rect;
    return 0;
}

/* ---------------------------------------------------------------- writing */

static void quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void cond_yaml(FILE *f, const struct studio_cond *c)
{
    switch (c->kind) {
    case STUDIO_CHANGE:
        fprintf(f, "change: {region: %s", c->region);
        if (c->except[0])
            fprintf(f, ", except: %s", c->except);
        fputc('}', f);
        break;
    case STUDIO_STABLE:
        fprintf(f, "stable: {region: %s", c->region);
        if (c->for_ms)
            fprintf(f, c->for_ms % 1000 ? ", for: %ums" : ", for: %us", c->for_ms % 1000 ? c->for_ms : c->for_ms / 1000);
        fputc('}', f);
        break;
    case STUDIO_PIXEL:
        fprintf(f, "pixel: {x: %d, y: %d, rgb: \"#%06x\", tolerance: %u}", c->x, c->y, c->rgb & 0xffffff,
                c->tolerance);
        break;
    }
}

static void wait_yaml(FILE *f, const struct studio_cond *c, size_t n, uint32_t timeout_ms)
{
    fputc('{', f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputs(", ", f);
        cond_yaml(f, &c[i]);
    }
    if (timeout_ms)
        fprintf(f, timeout_ms % 1000 ? "%stimeout: %ums" : "%stimeout: %us", n ? ", " : "",
                timeout_ms % 1000 ? timeout_ms : timeout_ms / 1000);
    fputc('}', f);
}

static void input_yaml(FILE *f, enum studio_step_kind kind, const char *text)
{
    fputs(kind == STUDIO_TYPE ? "type: " : "key: ", f);
    quoted(f, text);
}

static void step_yaml(FILE *f, const struct studio_step *s)
{
    fputs("  - ", f);
    switch (s->kind) {
    case STUDIO_KEY:
    case STUDIO_TYPE:
        input_yaml(f, s->kind, s->text);
        break;
    case STUDIO_CLICK:
        fprintf(f, "click: {x: %d, y: %d}", s->x, s->y);
        break;
    case STUDIO_THINK:
        fputs("think: ", f);
        quoted(f, s->text);
        break;
    case STUDIO_WAIT:
        fputs("wait: ", f);
        wait_yaml(f, s->conds, s->nconds, s->timeout_ms);
        break;
    case STUDIO_TIMER:
        fprintf(f, "timer: %s\n    steps: [{", plain_name(s->name) ? s->name : "\"\"");
        input_yaml(f, s->input == STUDIO_TYPE ? STUDIO_TYPE : STUDIO_KEY, s->text);
        fputs("}]\n    until: ", f);
        wait_yaml(f, s->conds, s->nconds, s->timeout_ms);
        break;
    }
    fputc('\n', f);
}

/* The head every file shares: name, desktop, regions. */
static void head_yaml(FILE *f, const struct studio_rec *r, const char *name)
{
    fprintf(f, "version: 1\nname: %s\n", name);
    fprintf(f, "desktop: {width: %u, height: %u, bpp: %u}\n", r->width, r->height, r->bpp);
    if (r->nregions) {
        fputs("regions:\n", f);
        for (size_t i = 0; i < r->nregions; i++)
            fprintf(f, "  %s: [%d, %d, %d, %d]\n", r->regions[i].name, r->regions[i].r.x, r->regions[i].r.y,
                    r->regions[i].r.w, r->regions[i].r.h);
    }
}

/* Closes the memstream; its buffer is only final after fclose, hence the pointer to it. */
static char *close_text(FILE *f, char **buf)
{
    if (fclose(f) != 0) {
        free(*buf);
        return NULL;
    }
    return *buf;
}

char *studio_rec_yaml(const struct studio_rec *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fputs("# recorded with sessmax-agent studio (docs/studio.md)\n", f);
    head_yaml(f, r, r->name);
    fputs("logon: ", f);
    wait_yaml(f, r->logon, r->nlogon, 120000);
    fputs(r->nsteps[STUDIO_LOOP] ? "\nloop:\n" : "\nloop: []\n", f);
    for (size_t i = 0; i < r->nsteps[STUDIO_LOOP]; i++)
        step_yaml(f, &r->steps[STUDIO_LOOP][i]);
    if (r->nsteps[STUDIO_LOGOFF]) {
        fputs("logoff:\n", f);
        for (size_t i = 0; i < r->nsteps[STUDIO_LOGOFF]; i++)
            step_yaml(f, &r->steps[STUDIO_LOGOFF][i]);
    }
    return close_text(f, &buf);
}

char *studio_rec_try_yaml(const struct studio_rec *r, const struct studio_step *steps, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    head_yaml(f, r, "studio-try");
    fputs("defaults: {on_timeout: fail}\n", f);
    fputs("logon: {pixel: {x: 0, y: 0, rgb: \"#000000\", tolerance: 255}, timeout: 5s, repaint_after: 0s}\n", f);
    fputs("loop:\n", f);
    for (size_t i = 0; i < n; i++)
        step_yaml(f, &steps[i]);
    fputs("  - think: 10ms\n", f);
    return close_text(f, &buf);
}

/* ---------------------------------------------------------------- checking */

/* Names the page sent must be plain before they reach the text (the loader then checks that
 * the region exists). */
static int conds_plain(const struct studio_cond *c, size_t n, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        if (c[i].kind == STUDIO_PIXEL)
            continue;
        if (!plain_name(c[i].region) || (c[i].except[0] && !plain_name(c[i].except)))
            return errf(err, errlen, "condition %zu: draw a region first (region names are words)", i + 1);
    }
    return 0;
}

static int step_plain(const struct studio_step *s, char *err, size_t errlen)
{
    if (s->kind == STUDIO_TIMER && !plain_name(s->name))
        return errf(err, errlen, "timer name '%s': use %s, starting with a letter", s->name, NAMES_CHARSET_TEXT);
    if ((s->kind == STUDIO_WAIT || s->kind == STUDIO_TIMER) && s->nconds == 0)
        return errf(err, errlen, "a %s needs at least one condition", s->kind == STUDIO_WAIT ? "wait" : "timer");
    if (s->nconds > STUDIO_MAX_CONDS)
        return errf(err, errlen, "at most %d conditions", STUDIO_MAX_CONDS);
    if ((s->kind == STUDIO_KEY || s->kind == STUDIO_TYPE || s->kind == STUDIO_THINK || s->kind == STUDIO_TIMER) &&
        !s->text[0])
        return errf(err, errlen, "the step's text is empty");
    return conds_plain(s->conds, s->nconds, err, errlen);
}

int studio_rec_check(const struct studio_rec *r, char *err, size_t errlen)
{
    char *text = studio_rec_yaml(r);
    if (!text)
        return errf(err, errlen, "out of memory");
    char file[RESULTS_NAME_LEN + 8];
    snprintf(file, sizeof file, "%s.yaml", r->name);
    struct workload *wl = workload_load_string(file, text, strlen(text), err, errlen);
    free(text);
    workload_free(wl);
    return wl ? 0 : -1;
}

/* A loop may not load yet only because no step of it pauses: fine while recording. */
static int loads_or_needs_pause(const struct studio_rec *r, char *err, size_t errlen)
{
    if (studio_rec_check(r, err, errlen) == 0)
        return 0;
    return strstr(err, "never pauses") || strstr(err, "loop must not be empty") ? 0 : -1;
}

int studio_rec_append(struct studio_rec *r, enum studio_part part, const struct studio_step *s, char *err,
                      size_t errlen)
{
    if (step_plain(s, err, errlen) != 0)
        return -1;
    if (r->nsteps[part] == STUDIO_MAX_STEPS)
        return errf(err, errlen, "at most %d steps", STUDIO_MAX_STEPS);
    r->steps[part][r->nsteps[part]++] = *s;
    if (loads_or_needs_pause(r, err, errlen) != 0) {
        r->nsteps[part]--;
        return -1;
    }
    return 0;
}

int studio_rec_undo(struct studio_rec *r, enum studio_part part)
{
    if (!r->nsteps[part])
        return -1;
    r->nsteps[part]--;
    return 0;
}

int studio_rec_set_logon(struct studio_rec *r, const struct studio_cond *c, size_t n, char *err, size_t errlen)
{
    if (n == 0 || n > STUDIO_MAX_CONDS)
        return errf(err, errlen, "the logon needs 1 to %d conditions", STUDIO_MAX_CONDS);
    if (conds_plain(c, n, err, errlen) != 0)
        return -1;
    struct studio_cond old[STUDIO_MAX_CONDS];
    size_t nold = r->nlogon;
    memcpy(old, r->logon, sizeof old);
    memcpy(r->logon, c, n * sizeof *c);
    r->nlogon = n;
    if (loads_or_needs_pause(r, err, errlen) != 0) {
        memcpy(r->logon, old, sizeof old);
        r->nlogon = nold;
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- the page's short form */

static int field(const char **p, char *out, size_t len)
{
    size_t n = strcspn(*p, ",");
    if (n >= len)
        return -1;
    memcpy(out, *p, n);
    out[n] = '\0';
    *p += n + ((*p)[n] == ',');
    return 0;
}

static int number(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int studio_cond_parse(const char *text, struct studio_cond *out, char *err, size_t errlen)
{
    char kind[16], a[RESULTS_NAME_LEN], b[RESULTS_NAME_LEN] = "", c[16] = "", d[16] = "";
    const char *p = text;
    long x = 0, y = 0, v = 0;
    memset(out, 0, sizeof *out);
    if (field(&p, kind, sizeof kind) || field(&p, a, sizeof a) || field(&p, b, sizeof b) ||
        field(&p, c, sizeof c) || field(&p, d, sizeof d) || *p)
        return errf(err, errlen, "bad condition '%s'", text);
    if (!strcmp(kind, "change")) {
        out->kind = STUDIO_CHANGE;
        snprintf(out->region, sizeof out->region, "%s", a);
        snprintf(out->except, sizeof out->except, "%s", b);
        return c[0] ? errf(err, errlen, "bad condition '%s'", text) : 0;
    }
    if (!strcmp(kind, "stable")) {
        out->kind = STUDIO_STABLE;
        snprintf(out->region, sizeof out->region, "%s", a);
        if (b[0] && number(b, 1, 600000, &v) != 0)
            return errf(err, errlen, "stable: 'for' is 1 to 600000 ms, not '%s'", b);
        out->for_ms = b[0] ? (uint32_t)v : 0;
        return 0;
    }
    if (!strcmp(kind, "pixel")) {
        out->kind = STUDIO_PIXEL;
        char *end;
        unsigned long rgb = strtoul(c + (c[0] == '#'), &end, 16);
        if (number(a, 0, 65535, &x) || number(b, 0, 65535, &y) || c[0] != '#' || strlen(c) != 7 || *end ||
            (d[0] && number(d, 0, 255, &v)))
            return errf(err, errlen, "pixel is x,y,#RRGGBB[,tolerance], not '%s'", text);
        out->x = (int32_t)x;
        out->y = (int32_t)y;
        out->rgb = (uint32_t)rgb;
        out->tolerance = d[0] ? (uint32_t)v : 0;
        return 0;
    }
    return errf(err, errlen, "unknown condition '%s' (change, stable or pixel)", kind);
}
