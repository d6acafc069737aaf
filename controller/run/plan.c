/* plan.c -- loads a test plan (YAML) into struct plan, checking every field with its position.
 * The sections are parsed by one function each; defaults are set before parsing, so a missing
 * optional key never needs special handling afterwards. */
#include "controller/run/plan.h"

#include "common/file_read.h"
#include "common/hostport.h"
#include "common/names.h"
#include "common/secret_file.h"
#include "common/ydoc.h"
#include "controller/run/run_limits.h"
#include "controller/run/plan_metrics.h"
#include "controller/run/plan_pin.h"
#include "controller/run/targetload.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_LISTEN "127.0.0.1:7400"

struct ctx {
    struct plan *p;
    const struct ydoc *doc;
    char *err;
    size_t errlen;
};

/* Optional string: leaves *out untouched when absent. */
static int get_str(struct ctx *c, const struct ydoc_node *map, const char *key, char **out)
{
    const struct ydoc_node *n = ydoc_get(map, key);
    const char *v;
    if (!n)
        return 0;
    if (ydoc_str(c->doc, n, &v, c->err, c->errlen) < 0)
        return -1;
    if (!v[0])
        return ydoc_error(c->doc, n, c->err, c->errlen, "'%s' must not be empty", key);
    free(*out);
    *out = strdup(v);
    return 0;
}

static int get_dur(struct ctx *c, const struct ydoc_node *map, const char *key, uint64_t *out)
{
    const struct ydoc_node *n = ydoc_get(map, key);
    return n ? ydoc_duration_us(c->doc, n, out, c->err, c->errlen) : 0;
}

static int get_u32(struct ctx *c, const struct ydoc_node *map, const char *key, long long min,
                   long long max, uint32_t *out)
{
    const struct ydoc_node *n = ydoc_get(map, key);
    long long v;
    if (!n)
        return 0;
    if (ydoc_int(c->doc, n, min, max, &v, c->err, c->errlen) < 0)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int require(struct ctx *c, const struct ydoc_node *map, const char *key, const char *what)
{
    if (ydoc_get(map, key))
        return 0;
    return ydoc_error(c->doc, map, c->err, c->errlen, "%s: missing required key '%s'", what, key);
}

static int pick(struct ctx *c, const struct ydoc_node *n, const char *const *names, int *out)
{
    const char *v;
    if (ydoc_str(c->doc, n, &v, c->err, c->errlen) < 0)
        return -1;
    for (int i = 0; names[i]; i++)
        if (!strcmp(v, names[i])) {
            *out = i;
            return 0;
        }
    char list[160] = "";
    for (int i = 0; names[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    return ydoc_error(c->doc, n, c->err, c->errlen, "unknown value '%s' (expected one of: %s)", v, list);
}

static char *resolve(const struct plan *p, const char *rel)
{
    return plan_path_resolve(p->dir, rel);
}

static int check_fingerprint(struct ctx *c, const struct ydoc_node *n, const char *fp)
{
    return plan_fingerprint_check(c->doc, n, fp, c->err, c->errlen);
}

static int parse_local(struct ctx *c, const struct ydoc_node *m)
{
    static const char *const keys[] = { "cgroup", "cpus", "cpu_percent", "simhost_work_scale", "process", NULL };
    struct plan_target_local *l = &c->p->target.local;
    cpu_set_t set;
    if (!m)
        return 0;
    const struct ydoc_node *ws = ydoc_get(m, "simhost_work_scale");   /* range: simhost's --work-scale */
    l->set = 1;
    if (ydoc_check_keys(c->doc, m, keys, "target.local", c->err, c->errlen) < 0 ||
        get_str(c, m, "cgroup", &l->cgroup) < 0 || get_str(c, m, "cpus", &l->cpus) < 0 ||
        get_str(c, m, "process", &l->process) < 0 ||
        get_u32(c, m, "cpu_percent", 1, 100 * CPU_SETSIZE, &l->cpu_percent) < 0 ||
        (ws && ydoc_double(c->doc, ws, 0.001, 1000, &l->simhost_work_scale, c->err, c->errlen) < 0))
        return -1;
    if (l->cpus && targetload_parse_cpus(l->cpus, &set) < 0)
        return ydoc_error(c->doc, ydoc_get(m, "cpus"), c->err, c->errlen,
                          "cpus: a CPU list like \"1\" or \"0-2,5\"");
    return 0;
}

static int parse_target(struct ctx *c, const struct ydoc_node *t)
{
    static const char *const keys[] = { "host", "port", "fingerprint", "verify", "security", "domain", "local",
                                        "metrics", NULL };
    static const char *const sec[] = { "negotiate", "tls", "nla", "rdp", NULL };
    struct plan_target *pt = &c->p->target;
    if (ydoc_check_keys(c->doc, t, keys, "target", c->err, c->errlen) < 0 || require(c, t, "host", "target") < 0)
        return -1;
    uint32_t port = 3389;
    if (get_str(c, t, "host", &pt->host) < 0 || get_u32(c, t, "port", 1, 65535, &port) < 0 ||
        get_str(c, t, "fingerprint", &pt->fingerprint) < 0 || get_str(c, t, "domain", &pt->domain) < 0 ||
        parse_local(c, ydoc_get(t, "local")) < 0 ||
        plan_metrics_parse(c->doc, ydoc_get(t, "metrics"), c->p->dir, &pt->metrics, c->err, c->errlen) < 0)
        return -1;
    pt->port = (uint16_t)port;
    const struct ydoc_node *n = ydoc_get(t, "security");
    int s = 0;
    if (n && pick(c, n, sec, &s) < 0)
        return -1;
    pt->security = (enum plan_security)s;
    const struct ydoc_node *fp = ydoc_get(t, "fingerprint");
    const struct ydoc_node *vn = ydoc_get(t, "verify");
    int verify = 1;
    if (vn && ydoc_bool(c->doc, vn, &verify, c->err, c->errlen) < 0)
        return -1;
    if (fp && vn && !verify)
        return ydoc_error(c->doc, vn, c->err, c->errlen, "give either 'fingerprint' or 'verify: false', not both");
    if (fp && check_fingerprint(c, fp, pt->fingerprint) < 0)
        return -1;
    if (!fp && verify && pt->security != PLAN_SEC_RDP)
        return ydoc_error(c->doc, t, c->err, c->errlen,
                          "target: pin the server certificate with 'fingerprint: sha256:...' "
                          "or say 'verify: false'");
    pt->no_verify = !fp;
    return 0;
}

static int check_pattern(struct ctx *c, const struct ydoc_node *n, const char *pat)
{
    const char *open = strstr(pat, "{n");
    if (!open)
        return ydoc_error(c->doc, n, c->err, c->errlen, "user pattern needs '{n}' or '{n:03}' (e.g. simuser{n:03})");
    const char *close = strchr(open, '}');
    int ok = close && (close == open + 2 ||
                       (open[2] == ':' && close > open + 3 && strspn(open + 3, "0123456789") == (size_t)(close - open - 3)
                        && close - open - 3 <= 2));
    if (!ok || strstr(close, "{n"))
        return ydoc_error(c->doc, n, c->err, c->errlen,
                          "user pattern: use exactly one '{n}' or '{n:0W}' with a width of 1-2 digits");
    if (strlen(pat) > 40)
        return ydoc_error(c->doc, n, c->err, c->errlen, "user pattern is too long (at most 40 characters)");
    return 0;
}

static int parse_credentials(struct ctx *c, const struct ydoc_node *m)
{
    static const char *const keys[] = { "user", "first", "password_env", "password_file", "password", NULL };
    struct plan_credentials *cr = &c->p->cred;
    if (ydoc_check_keys(c->doc, m, keys, "credentials", c->err, c->errlen) < 0)
        return -1;
    const struct ydoc_node *pw = ydoc_get(m, "password");
    if (pw)
        return ydoc_error(c->doc, pw, c->err, c->errlen,
                          "passwords are never written in plans: use 'password_env: VAR' or "
                          "'password_file: PATH' (mode 0600)");
    if (require(c, m, "user", "credentials") < 0 || get_str(c, m, "user", &cr->user_pattern) < 0 ||
        check_pattern(c, ydoc_get(m, "user"), cr->user_pattern) < 0 ||
        get_u32(c, m, "first", 0, 1000000, &cr->first) < 0)
        return -1;
    char *file = NULL;
    if (get_str(c, m, "password_env", &cr->password_env) < 0 || get_str(c, m, "password_file", &file) < 0)
        return -1;
    if (!!cr->password_env == !!file) {
        free(file);
        return ydoc_error(c->doc, m, c->err, c->errlen,
                          "credentials: give exactly one of 'password_env: VAR' or 'password_file: PATH'");
    }
    if (file) {
        cr->password_file = resolve(c->p, file);
        free(file);
    }
    cr->line = m->line;
    cr->col = m->col;
    return 0;
}

/* agents.tls_cert and tls_key: both or neither, only with TLS; paths start at the plan's folder. */
static int parse_tls_files(struct ctx *c, const struct ydoc_node *m, struct plan_agents *a)
{
    char *cert = NULL, *key = NULL;
    if (get_str(c, m, "tls_cert", &cert) < 0 || get_str(c, m, "tls_key", &key) < 0)
        goto fail;
    if (!cert != !key) {
        ydoc_error(c->doc, ydoc_get(m, cert ? "tls_cert" : "tls_key"), c->err, c->errlen,
                   "agents: give both 'tls_cert' and 'tls_key' (PEM files), or neither");
        goto fail;
    }
    if (cert && !a->tls) {
        ydoc_error(c->doc, ydoc_get(m, "tls_cert"), c->err, c->errlen, "agents: 'tls_cert' needs 'tls: true'");
        goto fail;
    }
    if (cert) {
        a->tls_cert = resolve(c->p, cert);
        a->tls_key = resolve(c->p, key);
    }
    free(cert);
    free(key);
    return 0;
fail:
    free(cert);
    free(key);
    return -1;
}

static int parse_agents(struct ctx *c, const struct ydoc_node *m)
{
    static const char *const keys[] = { "local", "cpus", "expect", "listen", "capacity", "wait", "tls",
                                        "heartbeat_timeout", "grace", "tls_cert", "tls_key", NULL };
    struct plan_agents *a = &c->p->agents;
    if (ydoc_check_keys(c->doc, m, keys, "agents", c->err, c->errlen) < 0)
        return -1;
    const struct ydoc_node *local = ydoc_get(m, "local"), *expect = ydoc_get(m, "expect");
    if (!!local == !!expect)
        return ydoc_error(c->doc, m, c->err, c->errlen,
                          "agents: give either 'local: N' (spawn N agents here) or 'expect: N' (wait for remote agents)");
    a->mode = local ? PLAN_AGENTS_LOCAL : PLAN_AGENTS_REMOTE;
    a->wait_us = local ? 30000000ull : 300000000ull;
    a->tls = !local;
    a->grace_us = 120000000ull;
    if (get_u32(c, m, local ? "local" : "expect", 1, RUN_MAX_AGENTS, &a->count) < 0 ||
        get_u32(c, m, "capacity", 1, RUN_MAX_AGENT_CAPACITY, &a->capacity) < 0 || get_str(c, m, "cpus", &a->cpus) < 0 ||
        get_str(c, m, "listen", &a->listen) < 0 || get_dur(c, m, "wait", &a->wait_us) < 0 ||
        get_dur(c, m, "heartbeat_timeout", &a->heartbeat_timeout_us) < 0 || get_dur(c, m, "grace", &a->grace_us) < 0)
        return -1;
    const struct ydoc_node *n;
    if ((n = ydoc_get(m, "tls")) && ydoc_bool(c->doc, n, &a->tls, c->err, c->errlen) < 0)
        return -1;
    if (parse_tls_files(c, m, a) < 0)
        return -1;
    if (local && (n = ydoc_get(m, "listen")))
        return ydoc_error(c->doc, n, c->err, c->errlen, "'listen' is for remote agents ('expect: N'); local agents use loopback");
    if (local && (n = ydoc_get(m, "grace")))
        return ydoc_error(c->doc, n, c->err, c->errlen, "'grace' is for remote agents ('expect: N'); a local agent "
                          "that loses its loopback link is gone");
    if (expect && (n = ydoc_get(m, "cpus")))
        return ydoc_error(c->doc, n, c->err, c->errlen, "'cpus' pins local agents; remote agents are pinned where they run");
    if (a->cpus && strspn(a->cpus, "0123456789,-") != strlen(a->cpus))
        return ydoc_error(c->doc, ydoc_get(m, "cpus"), c->err, c->errlen, "cpus: expected a CPU list like \"1\" or \"2-3,5\"");
    if (!a->listen)
        a->listen = strdup(DEFAULT_LISTEN);
    char host[256];
    uint16_t port;
    if (hostport_split(a->listen, 0, host, sizeof host, &port) < 0)
        return ydoc_error(c->doc, ydoc_get(m, "listen"), c->err, c->errlen, "listen: expected ADDR:PORT (e.g. 0.0.0.0:7400)");
    if (a->heartbeat_timeout_us && a->heartbeat_timeout_us < 2000000)
        return ydoc_error(c->doc, ydoc_get(m, "heartbeat_timeout"), c->err, c->errlen, "heartbeat_timeout must be at least 2s");
    if (!a->heartbeat_timeout_us)
        a->heartbeat_timeout_us = 15000000;
    return 0;
}

static int parse_transport(struct ctx *c, const struct ydoc_node *root)
{
    const struct ydoc_node *n = ydoc_get(root, "transport"), *g = ydoc_get(root, "gateway");
    const char *v = "tcp";
    if (n && ydoc_str(c->doc, n, &v, c->err, c->errlen) < 0)
        return -1;
    if (!strcmp(v, "udp"))
        return ydoc_error(c->doc, n, c->err, c->errlen,
                          "transport 'udp' is not available: FreeRDP 2.x and 3.x have no UDP transport "
                          "(RDP-UDP/Shortpath); use 'tcp' or 'gateway'");
    if (!strcmp(v, "tcp"))
        c->p->transport = PLAN_TRANSPORT_TCP;
    else if (!strcmp(v, "gateway"))
        c->p->transport = PLAN_TRANSPORT_GATEWAY;
    else
        return ydoc_error(c->doc, n, c->err, c->errlen, "unknown transport '%s' (expected tcp or gateway)", v);
    if (c->p->transport == PLAN_TRANSPORT_TCP && g)
        return ydoc_error(c->doc, g, c->err, c->errlen, "'gateway' needs 'transport: gateway'");
    if (c->p->transport == PLAN_TRANSPORT_TCP)
        return 0;
    if (!g)
        return ydoc_error(c->doc, n, c->err, c->errlen, "transport gateway needs a 'gateway: {host: ..., port: 443}' section");
    static const char *const keys[] = { "host", "port", NULL };
    uint32_t port = 443;
    if (ydoc_check_keys(c->doc, g, keys, "gateway", c->err, c->errlen) < 0 || require(c, g, "host", "gateway") < 0 ||
        get_str(c, g, "host", &c->p->gateway.host) < 0 || get_u32(c, g, "port", 1, 65535, &port) < 0)
        return -1;
    c->p->gateway.port = (uint16_t)port;
    return 0;
}

static void target_clear(struct plan_target *t)
{
    free(t->host);
    free(t->fingerprint);
    free(t->domain);
    free(t->local.cgroup);
    free(t->local.cpus);
    free(t->local.process);
    plan_metrics_free(&t->metrics);
    memset(t, 0, sizeof *t);
}

/* The plan's target with `over` (a clients entry's `target:`) applied. */
static int parse_target_over(struct ctx *c, const struct ydoc_node *base, const struct ydoc_node *over)
{
    struct ydoc_node merged;
    if (plan_client_target(base, over, &merged) < 0)
        return ydoc_error(c->doc, over, c->err, c->errlen, "out of memory");
    target_clear(&c->p->target);
    int rc = parse_target(c, &merged);
    plan_client_target_free(&merged);
    return rc;
}

/* `client:` and `clients:`, then the target: the plan's, with the picked entry's keys over it
 * (every entry's target is checked). */
static int parse_client(struct ctx *c, const struct ydoc_node *root)
{
    const struct ydoc_node *n = ydoc_get(root, "client"), *base = ydoc_get(root, "target"), *over;
    struct plan *p = c->p;
    if (parse_target(c, base) < 0 ||
        plan_clients_parse(c->doc, root, &p->client, p->clients, &p->nclients, &over, c->err, c->errlen) < 0)
        return -1;
    for (size_t i = 0; i < p->nclients; i++)
        if (p->clients[i].target && parse_target_over(c, base, p->clients[i].target) < 0)
            return -1;
    if ((over || p->nclients) && parse_target_over(c, base, over) < 0)
        return -1;
    if (c->p->client.x11 && c->p->transport == PLAN_TRANSPORT_GATEWAY)
        return ydoc_error(c->doc, n, c->err, c->errlen, "an external client ('client: {x11: ...}') "
                          "takes the run's transport from its preset: leave 'transport' at tcp");
    return 0;
}

static int parse_early_stop(struct ctx *c, const struct ydoc_node *n)
{
    static const char *const keys[] = { "margin", NULL };
    c->p->early_stop_margin_us = 30000000;
    if (n->kind == YDOC_SCALAR)
        return ydoc_bool(c->doc, n, &c->p->early_stop, c->err, c->errlen);
    if (ydoc_check_keys(c->doc, n, keys, "early_stop", c->err, c->errlen) < 0)
        return -1;
    c->p->early_stop = 1;
    return get_dur(c, n, "margin", &c->p->early_stop_margin_us);
}

#define PLAN_LOOPS_STEADY_MAX_US 3600000000ull

static int parse_run_shape(struct ctx *c, const struct ydoc_node *root)
{
    struct plan *p = c->p;
    const struct ydoc_node *n;
    if (require(c, root, "sessions", "plan") < 0 || require(c, root, "launch_window", "plan") < 0 ||
        get_u32(c, root, "sessions", 1, 100000, &p->sessions) < 0 ||
        get_dur(c, root, "launch_window", &p->launch_window_us) < 0 ||
        get_dur(c, root, "steady_state", &p->steady_state_us) < 0 ||
        get_dur(c, root, "logoff_deadline", &p->logoff_deadline_us) < 0)
        return -1;
    if ((n = ydoc_get(root, "seed"))) {
        long long v;
        if (ydoc_int(c->doc, n, 0, (long long)1 << 62, &v, c->err, c->errlen) < 0)
            return -1;
        p->seed = (uint64_t)v;
    }
    if (p->logoff_deadline_us < 1000000 && ydoc_get(root, "logoff_deadline"))
        return ydoc_error(c->doc, ydoc_get(root, "logoff_deadline"), c->err, c->errlen, "logoff_deadline must be at least 1s");
    if ((n = ydoc_get(root, "early_stop")) && parse_early_stop(c, n) < 0)
        return -1;
    if ((n = ydoc_get(root, "preflight")) && ydoc_bool(c->doc, n, &p->preflight, c->err, c->errlen) < 0)
        return -1;
    if (get_u32(c, root, "loops", 1, 1000000, &p->loops) < 0 || get_u32(c, root, "logon_retries", 0, 10,
        &p->logon_retries) < 0 || get_str(c, root, "focus", &p->focus) < 0)
        return -1;
    p->focus_node = ydoc_get(root, "focus");
    if (p->loops && !ydoc_get(root, "steady_state"))
        p->steady_state_us = PLAN_LOOPS_STEADY_MAX_US;   /* loops end the run; this only caps it */
    if ((p->drives_node = ydoc_get(root, "drives")) &&
        ydoc_expect(c->doc, p->drives_node, YDOC_MAP, "drives", c->err, c->errlen) < 0)
        return -1;
    return 0;
}

static int parse_root(struct ctx *c, const struct ydoc_node *root)
{
    static const char *const keys[] = { "version", "name", "target", "credentials", "transport", "gateway",
                                        "platform", "network", "workload", "sessions", "launch_window",
                                        "steady_state", "logoff_deadline", "seed", "agents", "score",
                                        "thresholds", "early_stop", "results", "client", "clients", "drives", "loops",
                                        "focus", "logon_retries", "preflight", NULL };
    struct plan *p = c->p;
    if (!root)
        return ydoc_error(c->doc, NULL, c->err, c->errlen, "the plan is empty");
    if (ydoc_check_keys(c->doc, root, keys, "plan", c->err, c->errlen) < 0)
        return -1;
    const struct ydoc_node *n = ydoc_get(root, "version");
    if (n) {
        long long v;
        if (ydoc_int(c->doc, n, 1, 1, &v, c->err, c->errlen) < 0)
            return -1;
    }
    static const char *const required[] = { "target", "credentials", "workload", "agents", NULL };
    for (int i = 0; required[i]; i++)
        if (require(c, root, required[i], "plan") < 0)
            return -1;
    if (get_str(c, root, "name", &p->name) < 0 || get_str(c, root, "platform", &p->platform) < 0 ||
        get_str(c, root, "results", &p->results) < 0)
        return -1;
    if ((n = ydoc_get(root, "network"))) {
        if (netprofile_from_node(c->doc, n, &p->net, c->err, c->errlen) < 0)
            return -1;
        free(p->network);
        p->network = strdup(p->net.name);
    }
    char *wl = NULL;
    if (get_str(c, root, "workload", &wl) < 0)
        return -1;
    p->workload_node = ydoc_get(root, "workload");
    p->workload_path = resolve(p, wl);
    free(wl);
    if (parse_credentials(c, ydoc_get(root, "credentials")) < 0 || parse_transport(c, root) < 0 ||
        parse_client(c, root) < 0 || parse_agents(c, ydoc_get(root, "agents")) < 0 || parse_run_shape(c, root) < 0)
        return -1;
    p->score_node = ydoc_get(root, "score");
    p->thresholds_node = ydoc_get(root, "thresholds");
    if (p->score_node && ydoc_expect(c->doc, p->score_node, YDOC_MAP, "score", c->err, c->errlen) < 0)
        return -1;
    if (p->thresholds_node && ydoc_expect(c->doc, p->thresholds_node, YDOC_SEQ, "thresholds", c->err, c->errlen) < 0)
        return -1;
    uint64_t cap = (uint64_t)p->agents.capacity * p->agents.count;
    if (p->agents.capacity && cap < p->sessions)
        return ydoc_error(c->doc, ydoc_get(root, "sessions"), c->err, c->errlen,
                          "%u sessions do not fit on %u agents of capacity %u (raise agents or capacity)",
                          p->sessions, p->agents.count, p->agents.capacity);
    return 0;
}

static void set_defaults(struct plan *p, const char *path)
{
    const char *slash = strrchr(path, '/');
    p->dir = slash ? strndup(path, (size_t)(slash - path + (slash == path))) : strdup("");
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    char *stem = dot && dot != base ? strndup(base, (size_t)(dot - base)) : strdup(base), name[RESULTS_NAME_LEN];
    name_sanitize(stem, name, sizeof name);   /* the default name takes the label character set too */
    free(stem);
    p->name = strdup(name);
    p->target.port = 3389;
    p->cred.first = 1;
    p->platform = strdup("unknown");
    p->network = strdup("lan");
    netprofile_lan(&p->net);
    p->logoff_deadline_us = 60000000;
    p->seed = 1;
    p->preflight = 1;
    p->results = strdup("results.db");
}

struct plan *plan_load_string(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    struct plan *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    p->file = strdup(path);
    p->text = strndup(text, len);
    set_defaults(p, path);
    p->doc = ydoc_load_string(path, text, len, err, errlen);
    if (!p->doc)
        goto fail;
    struct ctx c = { p, p->doc, err, errlen };
    if (parse_root(&c, p->doc->root) < 0)
        goto fail;
    return p;
fail:
    plan_free(p);
    return NULL;
}

struct plan *plan_load_file(const char *path, char *err, size_t errlen)
{
    size_t len;
    char *buf = file_read_all(path, FILE_READ_MAX_CONFIG, &len, err, errlen);
    if (!buf)
        return NULL;
    struct plan *p = plan_load_string(path, buf, len, err, errlen);
    free(buf);
    return p;
}

void plan_free(struct plan *p)
{
    if (!p)
        return;
    ydoc_free(p->doc);
    free(p->file);
    free(p->dir);
    free(p->text);
    free(p->name);
    target_clear(&p->target);
    free(p->gateway.host);
    free(p->cred.user_pattern);
    free(p->cred.password_env);
    free(p->cred.password_file);
    free(p->platform);
    free(p->network);
    free(p->workload_path);
    free(p->agents.cpus);
    free(p->agents.listen);
    free(p->agents.tls_cert);
    free(p->agents.tls_key);
    free(p->results);
    free(p->focus);
    free(p);
}

void plan_user_name(const struct plan *p, uint32_t index, char *out, size_t outlen)
{
    const char *pat = p->cred.user_pattern;
    const char *open = strstr(pat, "{n"), *close = strchr(open, '}');
    int width = open[2] == ':' ? (int)strtoul(open + 3, NULL, 10) : 0;   /* 1-2 digits, checked at load */
    snprintf(out, outlen, "%.*s%0*u%s", (int)(open - pat), pat, width, p->cred.first + index, close + 1);
}

int plan_read_password(const struct plan *p, char *out, size_t outlen, char *err, size_t errlen)
{
    if (p->cred.password_file) {
        if (secret_file_read(p->cred.password_file, "password file", out, outlen, err, errlen) < 0)
            return -1;
    } else {
        const char *v = getenv(p->cred.password_env);
        if (!v) {
            snprintf(err, errlen, "%s:%d:%d: environment variable %s (password_env) is not set",
                     p->file, p->cred.line, p->cred.col, p->cred.password_env);
            return -1;
        }
        snprintf(out, outlen, "%s", v);
    }
    if (!out[0]) {
        snprintf(err, errlen, "%s:%d:%d: the password (%s) is empty", p->file, p->cred.line, p->cred.col,
                 p->cred.password_env ? p->cred.password_env : p->cred.password_file);
        return -1;
    }
    return 0;
}

const char *plan_security_name(enum plan_security s)
{
    static const char *const names[] = { "negotiate", "tls", "nla", "rdp" };
    return (unsigned)s < 4 ? names[s] : "?";
}

const char *plan_transport_name(enum plan_transport t)
{
    return t == PLAN_TRANSPORT_GATEWAY ? "gateway" : "tcp";
}

int plan_error_at(const struct plan *p, const struct ydoc_node *at, char *err, size_t errlen, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ydoc_error(p->doc, at, err, errlen, "%s", msg);
}
