/* plan_check.c -- loads a plan, its workload and its score section and checks them together. */
#include "controller/run/plan_check.h"

#include "common/file_read.h"
#include "common/names.h"
#include "common/workload.h"
#include "common/workload_drives.h"
#include "common/ydoc.h"
#include <sysexits.h>
#include "controller/run/plan.h"
#include "controller/run/targetproc.h"
#include "controller/run/plan_client.h"
#include "controller/score/textesc.h"

#include <errno.h>
#include <openssl/crypto.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The plan's drives join the workload's (the agents get them in CONFIG), copy timers take their
 * sizes from either, and `focus:` must name a timer of the loop. */
static int add_plan_parts(struct plan_checked *pc, char *err, size_t errlen)
{
    const struct plan *p = pc->plan;
    size_t own = pc->wl->ndrives;
    if (workload_add_drives(pc->wl, p->doc, p->drives_node, err, errlen) != 0 ||
        workload_resolve_copies(pc->wl, 1, err, errlen) != 0)
        return EX_DATAERR;
    if (!(pc->drives_text = workload_drives_text(pc->wl->drives + own, pc->wl->ndrives - own))) {
        snprintf(err, errlen, "out of memory");
        return EX_OSERR;
    }
    if (p->focus && workload_timer_index(pc->wl, p->focus) < 0) {
        char list[256] = "";
        for (size_t i = 0, n = 0; i < pc->wl->ntimers && n + 2 < sizeof list; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", pc->wl->timers[i]);
        plan_error_at(p, p->focus_node, err, errlen, "focus '%s' is not a timer of workload %s (timers: %s)",
                      p->focus, p->workload_path, list[0] ? list : "none");
        return EX_DATAERR;
    }
    return 0;
}

static int load_workload(struct plan_checked *pc, char *err, size_t errlen)
{
    const struct plan *p = pc->plan;
    char sub[WORKLOAD_ERR_LEN];
    if (access(p->workload_path, R_OK) != 0) {
        plan_error_at(p, p->workload_node, err, errlen, "workload file %s: %s", p->workload_path, strerror(errno));
        return EX_NOINPUT;
    }
    pc->wl_text = file_read_all(p->workload_path, FILE_READ_MAX_CONFIG, &pc->wl_len, sub, sizeof sub);
    if (pc->wl_text)
        pc->wl = workload_load_string(p->workload_path, pc->wl_text, pc->wl_len, sub, sizeof sub);
    if (!pc->wl) {
        snprintf(err, errlen, "%s", sub);
        return EX_DATAERR;
    }
    return add_plan_parts(pc, err, errlen);
}

static int load_score(struct plan_checked *pc, char *err, size_t errlen)
{
    const struct workload *wl = pc->wl;
    const char **names = calloc(wl->ntimers + wl->nmeasures + 1, sizeof *names);
    if (!names) {
        snprintf(err, errlen, "out of memory");
        return EX_SOFTWARE;
    }
    size_t n = 0;
    for (size_t i = 0; i < wl->ntimers; i++)
        names[n++] = wl->timers[i];
    for (size_t i = 0; i < wl->nmeasures; i++)
        names[n++] = wl->measures[i].name;
    int rc = score_config_parse(pc->plan->doc, pc->plan->score_node, pc->plan->thresholds_node, names,
                                &pc->score, err, errlen);
    free(names);
    if (rc < 0)
        return EX_DATAERR;
    if (pc->plan->focus)
        snprintf(pc->score.focus, sizeof pc->score.focus, "%s", pc->plan->focus);
    pc->score_json = score_config_to_json(&pc->score);
    if (!pc->score_json) {
        snprintf(err, errlen, "out of memory");
        return EX_SOFTWARE;
    }
    return 0;
}

/* A password file that exists must be 0600; a missing variable or file is only reported by
 * describe (validate may run where the secret is not provisioned). */
static int check_password_source(const struct plan *p, char *err, size_t errlen)
{
    char pw[512], sub[PLAN_ERR_LEN];
    if (!p->cred.password_file || access(p->cred.password_file, F_OK) != 0)
        return 0;
    int rc = plan_read_password(p, pw, sizeof pw, sub, sizeof sub);
    OPENSSL_cleanse(pw, sizeof pw);
    if (rc < 0) {
        snprintf(err, errlen, "%s", sub);
        return EX_CONFIG;
    }
    return 0;
}

#define AGENT_CONNECT_TIMEOUT_MS 30000
#define AGENT_TRAFFIC_INTERVAL_MS 5000
#define AGENT_HEALTH_INTERVAL_MS 2000
#define LINK_FRAME_HEADER 4        /* the agent link's length prefix (common/proto.h) */

void plan_check_config_msg(const struct plan_checked *pc, struct proto_msg *m)
{
    const struct plan *p = pc->plan;
    memset(m, 0, sizeof *m);
    m->type = PROTO_CONFIG;
    struct proto_config *c = &m->u.config;
    c->host = p->target.host;
    c->port = p->target.port;
    c->fingerprint = p->target.fingerprint ? p->target.fingerprint : "";
    c->no_verify = (uint8_t)p->target.no_verify;
    c->security = (char *)plan_security_name(p->target.security);
    c->domain = p->target.domain ? p->target.domain : "";
    c->gateway_host = p->transport == PLAN_TRANSPORT_GATEWAY ? p->gateway.host : "";
    c->gateway_port = p->gateway.port;
    c->workload_name = p->workload_path;
    c->workload_text = pc->wl_text;
    c->connect_timeout_ms = AGENT_CONNECT_TIMEOUT_MS;
    c->traffic_interval_ms = AGENT_TRAFFIC_INTERVAL_MS;
    c->health_interval_ms = AGENT_HEALTH_INTERVAL_MS;
    c->network_profile = pc->net_json;
    c->client = pc->client_json;
    c->ext_costs = pc->client_json && pc->client_json[0];   /* only then: older agents refuse tag 20 */
    c->ext_capacity = c->ext_costs;                         /* and tag 21 */
    c->logon_phases = 1;
    c->min_rtt = 1;
    c->drives = pc->drives_text;
    c->max_loops = p->loops;
    c->logon_retries = p->logon_retries;
    c->shot_timers = (uint32_t)pc->shot_timers;
}

size_t plan_check_config_size(const struct plan_checked *pc)
{
    struct proto_msg m;
    struct proto_buf b = { 0 };
    plan_check_config_msg(pc, &m);
    size_t n = proto_encode(&b, &m) == 0 ? b.len + PROTO_TAG_LEN : 0;
    proto_buf_free(&b);
    return n > PROTO_MAX_FRAME + LINK_FRAME_HEADER ? 0 : n;   /* the length counts payload and tag */
}

/* The workload travels to every agent in one CONFIG frame: it must fit, or the run would fail
 * later with a message about the link. */
static int check_config_fits(const struct plan_checked *pc, char *err, size_t errlen)
{
    if (plan_check_config_size(pc))
        return 0;
    plan_error_at(pc->plan, pc->plan->workload_node, err, errlen,
                  "workload file %s (%zu bytes) and the plan's settings do not fit the agent link's CONFIG "
                  "frame (limit %u bytes with its tag): shorten the workload",
                  pc->plan->workload_path, pc->wl_len, PROTO_MAX_FRAME);
    return -1;
}

/* The plan's name:, platform: and the workload's name: label every run, table and export: they
 * take the timer names' character set (common/names.h), so that none carries markup, a
 * separator or a control character there. */
static int check_labels(const struct plan_checked *pc, char *err, size_t errlen)
{
    const struct plan *p = pc->plan;
    const struct ydoc_node *root = p->doc ? p->doc->root : NULL;
    const struct { const char *key, *value; } labels[] = { { "name", p->name }, { "platform", p->platform } };
    char esc[256];
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        if (!name_is_safe(labels[i].value))
            return plan_error_at(p, root ? ydoc_get(root, labels[i].key) : NULL, err, errlen,
                                 "%s '%s': use %s (1 to %d characters)", labels[i].key,
                                 textesc(esc, sizeof esc, labels[i].value, TEXTESC_LINE), NAMES_CHARSET_TEXT,
                                 RESULTS_NAME_LEN - 1);
    if (!name_is_safe(pc->wl->name)) {
        snprintf(err, errlen, "%s: workload name '%s': use %s (1 to %d characters)", p->workload_path,
                 textesc(esc, sizeof esc, pc->wl->name, TEXTESC_LINE), NAMES_CHARSET_TEXT, RESULTS_NAME_LEN - 1);
        return -1;
    }
    return 0;
}

/* Everything after the plan itself loaded: workload, score, password source, profile, size. */
static int check_loaded(const char *path, struct plan_checked *pc, char *err, size_t errlen)
{
    int rc;
    if ((rc = load_workload(pc, err, errlen)) != 0 || (rc = load_score(pc, err, errlen)) != 0 ||
        (rc = check_password_source(pc->plan, err, errlen)) != 0)
        return rc;
    if (check_labels(pc, err, errlen) < 0)
        return EX_DATAERR;
    if (!(pc->net_json = netprofile_to_json(&pc->plan->net)) ||
        !(pc->client_json = plan_client_json(&pc->plan->client))) {
        snprintf(err, errlen, "%s: out of memory", path);
        return EX_OSERR;
    }
    return check_config_fits(pc, err, errlen) < 0 ? EX_DATAERR : 0;
}

/* The checks after plan_load_*: pc->plan NULL (err set by the loader) or not; frees on failure. */
static int check_plan(const char *path, struct plan_checked *pc, char *err, size_t errlen)
{
    int rc = pc->plan ? check_loaded(path, pc, err, errlen) : EX_DATAERR;
    if (rc != 0)
        plan_check_free(pc);
    return rc;
}

int plan_check_load(const char *path, struct plan_checked *pc, char *err, size_t errlen)
{
    memset(pc, 0, sizeof *pc);
    score_config_init(&pc->score);
    if (access(path, R_OK) != 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return EX_NOINPUT;
    }
    pc->plan = plan_load_file(path, err, errlen);
    return check_plan(path, pc, err, errlen);
}

static int load_text(const char *path, const char *text, size_t len, struct plan_checked *pc, char *err,
                     size_t errlen)
{
    memset(pc, 0, sizeof *pc);
    score_config_init(&pc->score);
    pc->plan = plan_load_string(path, text, len, err, errlen);
    return check_plan(path, pc, err, errlen);
}

void plan_check_free(struct plan_checked *pc)
{
    plan_free(pc->plan);
    workload_free(pc->wl);
    free(pc->wl_text);
    free(pc->score_json);
    free(pc->net_json);
    free(pc->client_json);
    free(pc->drives_text);
    score_config_free(&pc->score);
    memset(pc, 0, sizeof *pc);
}

static void describe_agents(const struct plan *p, FILE *out)
{
    const struct plan_agents *a = &p->agents;
    if (a->mode == PLAN_AGENTS_LOCAL)
        fprintf(out, "  agents     %u local (loopback%s%s%s)", a->count, a->cpus ? ", pinned to CPUs " : "",
                a->cpus ? a->cpus : "", a->tls ? ", TLS" : "");
    else
        fprintf(out, "  agents     expect %u remote on %s (%s, wait up to %g s)", a->count, a->listen,
                a->tls ? "TLS" : "plain TCP", a->wait_us / 1e6);
    if (a->capacity)
        fprintf(out, ", capacity %u each", a->capacity);
    fprintf(out, "\n");
}

void plan_check_describe(const struct plan_checked *pc, FILE *out)
{
    const struct plan *p = pc->plan;
    char first[64], last[64];
    plan_user_name(p, 0, first, sizeof first);
    plan_user_name(p, p->sessions - 1, last, sizeof last);
    char e[4][1024];   /* paths and free text from the plan, escaped: one line stays one line */
    fprintf(out, "%s: valid plan '%s'\n", textesc(e[0], sizeof e[0], p->file, TEXTESC_LINE), p->name);
    fprintf(out, "  target     %s:%u (%s, %s%s)\n", textesc(e[0], sizeof e[0], p->target.host, TEXTESC_LINE),
            p->target.port, plan_security_name(p->target.security), p->target.no_verify ? "certificate not verified"
            : "pinned ", textesc(e[1], sizeof e[1], p->target.no_verify ? "" : p->target.fingerprint, TEXTESC_LINE));
    if (p->target.local.set) {   /* what the run will sample: the words the run prints */
        char what[512];
        targetproc_describe(p->target.local.set, p->target.local.cgroup, p->target.local.process,
                            p->target.local.cpus, what, sizeof what);
        fprintf(out, "  local      %s\n", textesc(e[0], sizeof e[0], what, TEXTESC_LINE));
    }
    for (size_t i = 0; i < p->target.metrics.n; i++)
        fprintf(out, "  metrics    %s%s%s, every %g s\n", textesc(e[0], sizeof e[0], p->target.metrics.ep[i].url, TEXTESC_LINE),
                p->target.metrics.ep[i].instance ? " instance " : "",
                textesc(e[1], sizeof e[1], p->target.metrics.ep[i].instance ? p->target.metrics.ep[i].instance : "",
                        TEXTESC_LINE), p->target.metrics.ep[i].interval_us / 1e6);
    char client[64];
    plan_client_label(&p->client, client, sizeof client);
    fprintf(out, "  labels     transport=%s platform=%s network=%s client=%s\n",
            plan_client_transport(&p->client, plan_transport_name(p->transport)), p->platform,
            textesc(e[0], sizeof e[0], p->network, TEXTESC_LINE), textesc(e[1], sizeof e[1], client, TEXTESC_LINE));
    char net[256];
    netprofile_describe(&p->net, net, sizeof net);
    fprintf(out, "  network    %s%s\n", textesc(e[0], sizeof e[0], net, TEXTESC_LINE), netprofile_is_shaped(&p->net) ? "; RDP traffic of every agent "
            "shaped by the built-in emulator (needs CAP_NET_ADMIN)" : "");
    fprintf(out, "  workload   %s (%s, sha256 %.12s..., %zu timers, %zu measures)\n", pc->wl->name,
            textesc(e[0], sizeof e[0], p->workload_path, TEXTESC_LINE), pc->wl->hash, pc->wl->ntimers,
            pc->wl->nmeasures);
    fprintf(out, "  users      %s .. %s, password from %s %s%s\n", textesc(e[0], sizeof e[0], first, TEXTESC_LINE),
            textesc(e[1], sizeof e[1], last, TEXTESC_LINE), p->cred.password_env ? "environment variable" : "file",
            textesc(e[2], sizeof e[2], p->cred.password_env ? p->cred.password_env : p->cred.password_file,
            TEXTESC_LINE), (p->cred.password_env ? getenv(p->cred.password_env) != NULL
            : access(p->cred.password_file, F_OK) == 0) ? "" : " (NOT SET HERE)");
    fprintf(out, "  ramp       %u sessions over %g s, steady %g s, logoff deadline %g s%s\n", p->sessions,
            p->launch_window_us / 1e6, p->steady_state_us / 1e6, p->logoff_deadline_us / 1e6,
            p->early_stop ? ", early stop after the threshold" : "");
    describe_agents(p, out);
    fprintf(out, "  score      %s, %zu thresholds\n", pc->score_json, pc->score.threshold_count);
}

int plan_check_programs(const struct plan_checked *pc, int always, char *err, size_t errlen)
{
    const struct plan *p = pc->plan;
    char why[512];
    if (!always && p->agents.mode != PLAN_AGENTS_LOCAL)
        return 0;
    const struct plan_client *bad = plan_client_check_program(&p->client, why, sizeof why) ? &p->client : NULL;
    for (size_t i = 0; always && !bad && i < p->nclients; i++)   /* validate: every entry of clients: */
        bad = plan_client_check_program(&p->clients[i].pc, why, sizeof why) ? &p->clients[i].pc : NULL;
    if (!bad)
        return 0;
    snprintf(err, errlen, "%s:%d:%d: %s", p->file, bad->line, bad->col, why);
    return EX_DATAERR;
}

int plan_check_load_runnable(const char *path, const char *text, size_t len, int always, struct plan_checked *out,
                             char *err, size_t errlen)
{
    int rc = text ? load_text(path, text, len, out, err, errlen) : plan_check_load(path, out, err, errlen);
    if (rc == 0 && (rc = plan_check_programs(out, always, err, errlen)) != 0)
        plan_check_free(out);
    return rc;
}
