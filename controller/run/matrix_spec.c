/* matrix_spec.c -- --vary parsing, the odometer over the cells, and cell tags. */
#include "controller/run/matrix_spec.h"

#include "common/hostport.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const key_names[MATRIX_KEY__COUNT] = { "platform", "transport", "client", "network", "sessions" };

const char *matrix_key_name(enum matrix_key key)
{
    return key < MATRIX_KEY__COUNT ? key_names[key] : "?";
}

int matrix_key_parse(const char *name, size_t len)
{
    for (int k = 0; k < MATRIX_KEY__COUNT; k++)
        if (strlen(key_names[k]) == len && !strncmp(name, key_names[k], len))
            return k;
    return -1;
}

void matrix_spec_init(struct matrix_spec *s)
{
    memset(s, 0, sizeof *s);
    s->repeat = 1;
}

/* Plain words only: a value goes into YAML unquoted and into a tag between ',' and '='. */
static int value_ok(enum matrix_key key, const char *v, size_t len)
{
    if (len == 0 || len >= MATRIX_VALUE_LEN)
        return 0;
    const char *a = key == MATRIX_PLATFORM ? memchr(v, '@', len) : NULL;   /* v is not NUL-terminated */
    size_t at = a ? (size_t)(a - v) : len;
    if (at == 0)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = v[i];
        int word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                   c == '_' || c == '-';
        int target = i > at && (c == ':' || c == '[' || c == ']');
        if (!word && !target && i != at)
            return 0;
    }
    if (key == MATRIX_SESSIONS) {
        char buf[MATRIX_VALUE_LEN], *end;
        memcpy(buf, v, len);
        buf[len] = 0;
        long n = strtol(buf, &end, 10);
        return *end == 0 && n >= 1 && n <= 100000 && buf[0] != '0';
    }
    return 1;
}

int matrix_spec_add_vary(struct matrix_spec *s, const char *arg, char *err, size_t errlen)
{
    const char *eq = strchr(arg, '=');
    int key = eq ? matrix_key_parse(arg, (size_t)(eq - arg)) : -1;
    if (key < 0) {
        log_escapef(err, errlen, "--vary '%s': expected KEY=V1,V2,... with KEY one of platform, transport, client, "
                 "network, sessions", arg);
        return -1;
    }
    for (size_t a = 0; a < s->naxes; a++)
        if ((int)s->axes[a].key == key) {
            log_escapef(err, errlen, "--vary %s is given twice: list every value in one --vary", key_names[key]);
            return -1;
        }
    struct matrix_axis *ax = &s->axes[s->naxes];
    memset(ax, 0, sizeof *ax);
    ax->key = (enum matrix_key)key;
    for (const char *p = eq + 1;; p++) {
        size_t len = strcspn(p, ",");
        if (!value_ok(ax->key, p, len)) {
            log_escapef(err, errlen, "--vary %s: bad value '%.*s' (%s)", key_names[key], (int)len, p,
                     key == MATRIX_SESSIONS ? "a number of sessions, 1-100000"
                     : key == MATRIX_PLATFORM ? "LABEL or LABEL@HOST[:PORT], letters, digits, '.', '_', '-'"
                                              : "letters, digits, '.', '_', '-'");
            return -1;
        }
        if (ax->n == MATRIX_MAX_VALUES) {
            log_escapef(err, errlen, "--vary %s: more than %d values", key_names[key], MATRIX_MAX_VALUES);
            return -1;
        }
        memcpy(ax->values[ax->n], p, len);
        ax->values[ax->n][len] = 0;
        char label[MATRIX_VALUE_LEN], host[MATRIX_VALUE_LEN];
        uint16_t port;
        if (key == MATRIX_PLATFORM &&
            matrix_platform_split(ax->values[ax->n], label, sizeof label, host, sizeof host, &port) < 0) {
            log_escapef(err, errlen, "--vary platform: bad target in '%s' (LABEL@HOST or LABEL@HOST:PORT, port 1-65535)",
                     ax->values[ax->n]);
            return -1;
        }
        for (size_t i = 0; i < ax->n; i++)
            if (!strcmp(ax->values[i], ax->values[ax->n])) {
                log_escapef(err, errlen, "--vary %s: value '%s' is listed twice", key_names[key], ax->values[i]);
                return -1;
            }
        ax->n++;
        p += len;
        if (!*p)
            break;
    }
    s->naxes++;
    return 0;
}

size_t matrix_spec_cells(const struct matrix_spec *s)
{
    size_t n = 1;
    for (size_t a = 0; a < s->naxes; a++)
        n *= s->axes[a].n;
    return n;
}

void matrix_spec_cell(const struct matrix_spec *s, size_t i, struct matrix_cell *c)
{
    memset(c, 0, sizeof *c);
    c->index = i;
    for (size_t a = s->naxes; a-- > 0;) {
        c->value[a] = i % s->axes[a].n;
        i /= s->axes[a].n;
    }
}

const char *matrix_cell_value(const struct matrix_spec *s, const struct matrix_cell *c, enum matrix_key key)
{
    for (size_t a = 0; a < s->naxes; a++)
        if (s->axes[a].key == key)
            return s->axes[a].values[c->value[a]];
    return NULL;
}

void matrix_cell_tag(const struct matrix_spec *s, const struct matrix_cell *c, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int k = 0; k < MATRIX_KEY__COUNT; k++) {
        const char *v = matrix_cell_value(s, c, (enum matrix_key)k);
        if (v && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? "," : "", key_names[k], v);
    }
}

void matrix_spec_id(const struct matrix_spec *s, const char *plan_sha256, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "plan=%s", plan_sha256);
    for (size_t a = 0; a < s->naxes && used < len; a++) {
        used += (size_t)snprintf(buf + used, len - used, " %s=", key_names[s->axes[a].key]);
        for (size_t v = 0; v < s->axes[a].n && used < len; v++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", v ? "," : "", s->axes[a].values[v]);
    }
    if (used < len)
        snprintf(buf + used, len - used, " repeat=%u", s->repeat);
}

int matrix_tag_parse(const char *text, struct matrix_tag *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (strlen(text) >= sizeof out->text) {
        log_escapef(err, errlen, "cell '%.40s...' is too long", text);
        return -1;
    }
    snprintf(out->text, sizeof out->text, "%s", text);
    char *save = NULL;
    for (char *kv = strtok_r(out->text, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        int key = eq ? matrix_key_parse(kv, (size_t)(eq - kv)) : -1;
        if (key < 0 || !eq[1] || !value_ok((enum matrix_key)key, eq + 1, strlen(eq + 1))) {
            log_escapef(err, errlen, "cell '%s': '%s' is not KEY=VALUE with KEY one of platform, transport, "
                     "client, network, sessions", text, kv);
            return -1;
        }
        if (out->value[key]) {
            log_escapef(err, errlen, "cell '%s': %s is given twice", text, key_names[key]);
            return -1;
        }
        out->value[key] = eq + 1;
    }
    return 0;
}

int matrix_platform_split(const char *value, char *label, size_t labellen, char *host, size_t hostlen,
                          uint16_t *port)
{
    size_t at = strcspn(value, "@");
    snprintf(label, labellen, "%.*s", (int)at, value);
    host[0] = 0;
    *port = 0;
    if (!value[at])
        return 0;
    const char *where = value + at + 1;
    const char *close = strrchr(where, ']');
    const char *colon = strrchr(close ? close : where, ':');
    if (!colon) {
        snprintf(host, hostlen, "%s", where);
    } else if (hostport_split(where, 0, host, hostlen, port) != 0 || *port == 0) {
        return -1;
    }
    size_t n = strlen(host);
    if (n >= 2 && host[0] == '[' && host[n - 1] == ']') {   /* [::1] -> ::1 */
        memmove(host, host + 1, n - 2);
        host[n - 2] = 0;
    }
    return host[0] ? 0 : -1;
}
