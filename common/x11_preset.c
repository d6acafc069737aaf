/* x11_preset.c -- the presets of external X11 clients, their options, template expansion, JSON
 * for CONFIG and the Citrix ICA file. Nothing here starts a process (agent/x11_*.c does). */
#include "common/x11_preset.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/ydoc.h"

struct preset {
    const char *name;
    const char *command;
    enum x11_secret secret;
    const char *transports;     /* allowed labels, the first is the default */
    const char *source;         /* where the program comes from */
    /* Words added after the command for each transport label ("LABEL=WORDS;..."): the label
     * names what the client is told, never only what the plan says. */
    const char *transport_words;
};

/* The exact settings each preset starts its client with (docs/clients.md explains them). */
static const struct preset presets[] = {
    { "xfreerdp",
      "xfreerdp /v:{host}:{port} /u:{user} /d:{domain} /from-stdin:force /cert:{cert} "
      "/sec:{security} /network:{network} /f /size:{width}x{height} /bpp:16 -clipboard "
      "-grab-keyboard /log-level:WARN",
      X11_SECRET_STDIN, "tcp", "Debian package freerdp2-x11", "" },
    { "vncviewer",
      "vncviewer -PasswordFile={passfile} -FullScreen=1 -AlertOnFatalError=0 "
      "-ReconnectOnError=0 -Shared=1 -RemoteResize=0 {host}::{port}",
      X11_SECRET_VNCPASSWD, "tcp",
      "Debian packages tigervnc-viewer and tigervnc-tools (vncpasswd)", "" },
    { "citrix",
      "/opt/Citrix/ICAClient/wfica -icaroot /opt/Citrix/ICAClient {icafile}",
      X11_SECRET_ICA, "tcp,edt",
      "Citrix Workspace app for Linux (https://www.citrix.com/downloads/workspace-app/linux/)",
      "" },   /* the transport goes into the ICA file (x11_ica_file) */
    { "vmware-view",
      "vmware-view --serverURL={host} --userName={user} --domainName={domain} "
      "--protocol=BLAST --fullscreen --nonInteractive --password=-",
      X11_SECRET_STDIN, "tcp,udp",
      "VMware Horizon Client for Linux (https://customerconnect.vmware.com/downloads/)",
      "tcp=--enableUDP=FALSE;udp=--enableUDP=TRUE" },   /* Blast over TCP only, or UDP allowed */
};
#define NPRESETS (sizeof presets / sizeof presets[0])

static const char *const var_names[] = { "host", "port", "user", "domain", "width", "height",
                                         "security", "cert", "passfile", "icafile", "display",
                                         "dir", "network", NULL };

static const struct preset *find_preset(const char *name)
{
    for (size_t i = 0; i < NPRESETS; i++)
        if (!strcmp(presets[i].name, name))
            return &presets[i];
    return NULL;
}

void x11_client_init(struct x11_client *c)
{
    memset(c, 0, sizeof *c);
    c->window_timeout_ms = 30000;
}

/* Is `label` in the comma-separated list? */
static int in_list(const char *list, const char *label)
{
    size_t n = strlen(label);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, label, n))
            return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

static int set_x11(struct x11_client *c, const char *v, char *err, size_t errlen)
{
    const struct preset *p = find_preset(v);
    if (strlen(v) >= sizeof c->command)
        return log_escapef(err, errlen, "client command longer than %s characters", "1023");
    if (!*v)
        return log_escapef(err, errlen, "x11: give a preset (xfreerdp, vncviewer, citrix, vmware-view) "
                    "or a command template%s", "");
    if (p) {
        snprintf(c->preset, sizeof c->preset, "%s", p->name);
        snprintf(c->command, sizeof c->command, "%s", p->command);
        c->secret = p->secret;
    } else {
        c->preset[0] = '\0';
        snprintf(c->command, sizeof c->command, "%s", v);
    }
    return 0;
}

static int set_resolution(struct x11_client *c, const char *v, char *err, size_t errlen)
{
    unsigned w, h;
    char tail;
    if (sscanf(v, "%ux%u%c", &w, &h, &tail) != 2 || w < 64 || h < 64 || w > 8192 || h > 8192)
        return log_escapef(err, errlen, "resolution '%s': expected WIDTHxHEIGHT, 64..8192 each "
                    "(e.g. 1024x768)", v);
    c->width = w;
    c->height = h;
    return 0;
}

static int set_password(struct x11_client *c, const char *v, char *err, size_t errlen)
{
    if (!strcmp(v, "stdin"))
        c->secret = X11_SECRET_STDIN;
    else if (!strcmp(v, "vncpasswd"))
        c->secret = X11_SECRET_VNCPASSWD;
    else if (!strcmp(v, "none"))
        c->secret = X11_SECRET_NONE;
    else
        return log_escapef(err, errlen, "password '%s': expected stdin, vncpasswd or none", v);
    return 0;
}

int x11_client_set(struct x11_client *c, const char *key, const char *v, char *err, size_t errlen)
{
    uint64_t us;
    if (!strcmp(key, "x11"))
        return set_x11(c, v, err, errlen);
    if (!strcmp(key, "resolution"))
        return set_resolution(c, v, err, errlen);
    if (!strcmp(key, "password"))
        return set_password(c, v, err, errlen);
    if (!strcmp(key, "transport")) {
        if (strlen(v) >= sizeof c->transport || !*v)
            return log_escapef(err, errlen, "transport '%s': expected tcp, edt or udp", v);
        snprintf(c->transport, sizeof c->transport, "%s", v);
        return 0;
    }
    if (!strcmp(key, "args")) {
        if (strlen(v) >= sizeof c->args)
            return log_escapef(err, errlen, "args longer than %s characters", "255");
        snprintf(c->args, sizeof c->args, "%s", v);
        return 0;
    }
    if (!strcmp(key, "window_timeout")) {
        if (ydoc_parse_duration_us(v, &us) < 0 || us < 1000000 || us > 3600000000ull)
            return log_escapef(err, errlen, "window_timeout '%s': expected a duration of 1s..1h", v);
        c->window_timeout_ms = (uint32_t)(us / 1000);
        return 0;
    }
    return log_escapef(err, errlen, "unknown client option '%s' (x11, transport, resolution, args, "
                "password, window_timeout)", key);
}

int x11_client_finish(struct x11_client *c, char *err, size_t errlen)
{
    if (!c->command[0])
        return log_escapef(err, errlen, "client: 'x11' is missing (a preset: xfreerdp, vncviewer, "
                    "citrix, vmware-view; or a command template)%s", "");
    const struct preset *p = c->preset[0] ? find_preset(c->preset) : NULL;
    const char *allowed = p ? p->transports : "tcp,udp,edt";
    if (!c->transport[0])
        snprintf(c->transport, sizeof c->transport, "%.*s", (int)strcspn(allowed, ","), allowed);
    if (!in_list(allowed, c->transport)) {
        return log_escapef(err, errlen, "transport '%s' is not available with %s (expected one of: %s)",
                    c->transport, p ? p->name : "a command template", allowed);
    }
    if (p && c->secret != p->secret)
        return log_escapef(err, errlen, "password: the %s preset decides how it gets the password",
                    p->name);
    struct x11_vars v = { .host = "h", .port = "1", .user = "u", .width = "1", .height = "1",
                          .passfile = "p", .icafile = "i", .display = ":1", .dir = "d" };
    char *argv[X11_ARGV_MAX + 1];
    if (x11_client_argv(c, &v, argv, X11_ARGV_MAX, err, errlen) < 0)
        return -1;
    x11_argv_free(argv);
    return 0;
}

void x11_client_label(const struct x11_client *c, char *out, size_t outlen)
{
    char prog[128];
    if (c->preset[0]) {
        snprintf(out, outlen, "%s", c->preset);
        return;
    }
    x11_client_program(c, prog, sizeof prog);
    const char *base = strrchr(prog, '/');
    snprintf(out, outlen, "x11:%s", base ? base + 1 : prog);
}

const char *x11_client_transport(const struct x11_client *c)
{
    return c->transport[0] ? c->transport : "tcp";
}

void x11_client_program(const struct x11_client *c, char *out, size_t outlen)
{
    const char *s = c->command + strspn(c->command, " \t");
    size_t n = strcspn(s, " \t");
    if (*s == '\'' || *s == '"') {
        const char *e = strchr(s + 1, *s);
        s++;
        n = e ? (size_t)(e - s) : strlen(s);
    }
    snprintf(out, outlen, "%.*s", (int)n, s);
}

void x11_client_transport_words(const struct x11_client *c, char *out, size_t outlen)
{
    const struct preset *p = c->preset[0] ? find_preset(c->preset) : NULL;
    const char *t = x11_client_transport(c);
    size_t n = strlen(t);
    out[0] = '\0';
    for (const char *w = p ? p->transport_words : NULL; w && *w;) {
        const char *e = strchr(w, ';');
        size_t len = e ? (size_t)(e - w) : strlen(w);
        if (len > n && !strncmp(w, t, n) && w[n] == '=') {
            snprintf(out, outlen, "%.*s", (int)(len - n - 1), w + n + 1);
            return;
        }
        w = e ? e + 1 : NULL;
    }
}

const char *x11_client_source(const struct x11_client *c)
{
    const struct preset *p = c->preset[0] ? find_preset(c->preset) : NULL;
    return p ? p->source : "the program named in the client command";
}

int x11_which(const char *prog, char *out, size_t outlen)
{
    if (strchr(prog, '/')) {
        snprintf(out, outlen, "%s", prog);
        return access(out, X_OK) == 0 ? 0 : -1;
    }
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/local/bin:/usr/bin:/bin"; p && *p;) {
        const char *e = strchr(p, ':');
        int len = e ? (int)(e - p) : (int)strlen(p);
        snprintf(out, outlen, "%.*s/%s", len, p, prog);
        if (len && access(out, X_OK) == 0)
            return 0;
        p = e ? e + 1 : NULL;
    }
    return -1;
}

/* ---------------------------------------------------------------- JSON (CONFIG) */

static const char *secret_name(enum x11_secret s)
{
    static const char *const names[] = { "none", "stdin", "vncpasswd", "ica" };
    return names[s];
}

char *x11_client_to_json(const struct x11_client *c)
{
    char res[32];
    json_t *o = json_pack("{s:s, s:s, s:s, s:I}", "x11", c->preset[0] ? c->preset : c->command,
                          "transport", x11_client_transport(c), "args", c->args,
                          "window_timeout_ms", (json_int_t)c->window_timeout_ms);
    if (!o)
        return NULL;
    if (c->width) {
        snprintf(res, sizeof res, "%ux%u", c->width, c->height);
        json_object_set_new(o, "resolution", json_string(res));
    }
    if (!c->preset[0])
        json_object_set_new(o, "password", json_string(secret_name(c->secret)));
    char *s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(o);
    return s;
}

static int json_member(struct x11_client *c, const char *key, json_t *val, char *err, size_t errlen)
{
    char buf[64];
    if (!strcmp(key, "window_timeout_ms")) {
        if (!json_is_integer(val) || json_integer_value(val) < 1000 ||
            json_integer_value(val) > 3600000)
            return log_escapef(err, errlen, "client: %s must be 1000..3600000", key);
        c->window_timeout_ms = (uint32_t)json_integer_value(val);
        return 0;
    }
    if (!json_is_string(val))
        return log_escapef(err, errlen, "client: %s must be a string", key);
    if (!strcmp(key, "password") && !strcmp(json_string_value(val), "ica")) {
        c->secret = X11_SECRET_ICA;
        return 0;
    }
    snprintf(buf, sizeof buf, "%s", key);
    return x11_client_set(c, buf, json_string_value(val), err, errlen);
}

int x11_client_from_json(struct x11_client *c, const char *text, char *err, size_t errlen)
{
    x11_client_init(c);
    if (text[0] != '{')
        return x11_client_set(c, "x11", text, err, errlen) < 0 ? -1 : x11_client_finish(c, err, errlen);
    json_error_t je;
    json_t *o = json_loads(text, 0, &je);
    if (!json_is_object(o)) {
        json_decref(o);
        return log_escapef(err, errlen, "client: not a JSON object (%s at column %d)", je.text, je.column);
    }
    json_t *x = json_object_get(o, "x11");
    int rc = x && json_is_string(x) ? set_x11(c, json_string_value(x), err, errlen)
                                    : log_escapef(err, errlen, "client: 'x11' is missing%s", "");
    const char *key;
    json_t *val;
    json_object_foreach(o, key, val) {
        if (rc == 0 && strcmp(key, "x11"))
            rc = json_member(c, key, val, err, errlen);
    }
    json_decref(o);
    return rc < 0 ? -1 : x11_client_finish(c, err, errlen);
}

/* ---------------------------------------------------------------- expansion */

static const char *var_value(const struct x11_vars *v, const char *name, size_t n, int *known)
{
    const char *const vals[] = { v->host, v->port, v->user, v->domain, v->width, v->height,
                                 v->security, v->cert, v->passfile, v->icafile, v->display,
                                 v->dir, v->network };
    for (size_t i = 0; var_names[i]; i++)
        if (strlen(var_names[i]) == n && !strncmp(var_names[i], name, n)) {
            *known = 1;
            return vals[i] ? vals[i] : "";
        }
    *known = 0;
    return "";
}

/* Expands one word (quotes already removed) into out. Returns 1 to keep it, 0 when it had
 * placeholders that were all empty, -1 on an unknown placeholder. */
static int expand_word(const char *w, size_t len, const struct x11_vars *v, char *out,
                       size_t outlen, char *err, size_t errlen)
{
    size_t o = 0;
    int holders = 0, filled = 0;
    for (size_t i = 0; i < len; i++) {
        const char *close = w[i] == '{' ? memchr(w + i, '}', len - i) : NULL;
        const char *add = NULL;
        size_t addlen = 1;
        if (close) {
            int known;
            add = var_value(v, w + i + 1, (size_t)(close - w - i - 1), &known);
            if (!known) {
                return log_escapef(err, errlen, "unknown placeholder '%.*s' in the client command (known: "
                            "{host} {port} {user} {domain} {width} {height} {security} {cert} "
                            "{passfile} {icafile} {display} {dir} {network})", (int)(close - w - i + 1), w + i);
            }
            holders++;
            filled += *add != '\0';
            addlen = strlen(add);
            i = (size_t)(close - w);
        } else {
            add = w + i;
        }
        if (o + addlen >= outlen)
            return log_escapef(err, errlen, "client command: a word is longer than %s characters", "1023");
        memcpy(out + o, add, addlen);
        o += addlen;
    }
    out[o] = '\0';
    return holders && !filled ? 0 : 1;
}

/* Next word of s at *pos (quotes removed into buf). 1: a word, 0: end, -1: bad quote. */
static int next_word(const char *s, size_t *pos, char *buf, size_t buflen, size_t *len)
{
    size_t i = *pos + strspn(s + *pos, " \t\n"), n = 0;
    if (!s[i])
        return 0;
    while (s[i] && !strchr(" \t\n", s[i])) {
        if (s[i] == '\'' || s[i] == '"') {
            const char *e = strchr(s + i + 1, s[i]);
            if (!e)
                return -1;
            for (const char *p = s + i + 1; p < e; p++)
                if (n + 1 < buflen)
                    buf[n++] = *p;
            i = (size_t)(e - s) + 1;
        } else {
            if (n + 1 < buflen)
                buf[n++] = s[i];
            i++;
        }
    }
    *pos = i;
    *len = n;
    return 1;
}

static int split_into(const char *s, const struct x11_vars *v, char **argv, size_t *n, size_t max,
                      char *err, size_t errlen)
{
    char word[X11_CMD_LEN], out[X11_CMD_LEN];
    size_t pos = 0, len;
    int r;
    while ((r = next_word(s, &pos, word, sizeof word, &len)) == 1) {
        int keep = expand_word(word, len, v, out, sizeof out, err, errlen);
        if (keep < 0)
            return -1;
        if (!keep)
            continue;
        if (*n >= max)
            return log_escapef(err, errlen, "client command: more than %s words", "64");
        if (!(argv[*n] = strdup(out)))
            return log_escapef(err, errlen, "out of memory%s", "");
        argv[++*n] = NULL;
    }
    if (r < 0)
        return log_escapef(err, errlen, "client command: unbalanced quote in '%s'", s);
    return 0;
}

int x11_client_argv(const struct x11_client *c, const struct x11_vars *v, char **argv, size_t max,
                    char *err, size_t errlen)
{
    size_t n = 0;
    argv[0] = NULL;
    char words[128];
    x11_client_transport_words(c, words, sizeof words);
    if (split_into(c->command, v, argv, &n, max, err, errlen) < 0 ||
        split_into(words, v, argv, &n, max, err, errlen) < 0 ||
        split_into(c->args, v, argv, &n, max, err, errlen) < 0) {
        x11_argv_free(argv);
        return -1;
    }
    if (!n)
        return log_escapef(err, errlen, "client command is empty%s", "");
    return (int)n;
}

void x11_argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++) {
        free(argv[i]);
        argv[i] = NULL;
    }
}

/* 1 when s (NULL: empty) holds a CR or LF: it would start a new key=value line of the ICA file. */
static int breaks_line(const char *s) { return s && strpbrk(s, "\r\n") != NULL; }

int x11_ica_file(const struct x11_client *c, const struct x11_vars *v, const char *password,
                 char *out, size_t outlen)
{
    if (breaks_line(v->host) || breaks_line(v->port) || breaks_line(v->user) || breaks_line(v->domain) ||
        breaks_line(password) || breaks_line(v->width) || breaks_line(v->height))
        return -2;
    /* HDXoverUDP: Off keeps ICA on TCP; Preferred lets the client use EDT (UDP) and fall back
     * to TCP when the server or the network refuses it. */
    const char *udp = !strcmp(x11_client_transport(c), "edt") ? "Preferred" : "Off";
    int n = snprintf(out, outlen,
                     "[WFClient]\r\nVersion=2\r\nHDXoverUDP=%s\r\n\r\n"
                     "[ApplicationServers]\r\nDesktop=\r\n\r\n"
                     "[Desktop]\r\nAddress=%s:%s\r\nTransportDriver=TCP/IP\r\n"
                     "WinStationDriver=ICA 3.0\r\nHDXoverUDP=%s\r\nUsername=%s\r\nDomain=%s\r\n"
                     "ClearPassword=%s\r\nDesiredHRES=%s\r\nDesiredVRES=%s\r\nTWIMode=Off\r\n"
                     "ScreenPercent=0\r\nDesiredColor=8\r\n",
                     udp, v->host ? v->host : "", v->port ? v->port : "", udp,
                     v->user ? v->user : "", v->domain ? v->domain : "", password,
                     v->width ? v->width : "", v->height ? v->height : "");
    return n < 0 || (size_t)n >= outlen ? -1 : n;
}
