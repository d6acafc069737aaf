/* test_plan.c -- plan loading: defaults, every refusal with its exact file:line:col text, user
 * names, password sources (env, 0600 file, refused 0644 file) and the plan+workload check. */
#include "unit.h"

#include "common/file_read.h"
#include "common/workload.h"
#include "controller/run/plan.h"
#include "controller/run/plan_check.h"
#include "controller/run/plan_estimate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define HEAD "target: {host: 127.0.0.1, port: 3390, verify: false}\n" \
             "credentials: {user: \"simuser{n:03}\", password_env: SESSMAX_PASSWORD}\n"
#define TAIL "workload: wl.yaml\nsessions: 4\nlaunch_window: 10s\nagents: {local: 2}\n"

static char err[PLAN_ERR_LEN];

static struct plan *load(const char *text)
{
    err[0] = 0;
    return plan_load_string("t.yaml", text, strlen(text), err, sizeof err);
}

/* Loads text expecting a refusal; returns 1 when the message is exactly `want`. */
static int refused_with(const char *text, const char *want)
{
    struct plan *p = load(text);
    plan_free(p);
    if (p || strcmp(err, want) != 0) {
        fprintf(stderr, "\n  want: %s\n  got:  %s\n", want, p ? "(loaded)" : err);
        return 0;
    }
    return 1;
}

static void test_plan__valid_with_defaults(void)
{
    struct plan *p = load(HEAD TAIL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p->name, "t");
    CU_ASSERT_STRING_EQUAL(p->target.host, "127.0.0.1");
    CU_ASSERT_EQUAL(p->target.port, 3390);
    CU_ASSERT_EQUAL(p->target.no_verify, 1);
    CU_ASSERT_EQUAL(p->transport, PLAN_TRANSPORT_TCP);
    CU_ASSERT_STRING_EQUAL(p->platform, "unknown");
    CU_ASSERT_STRING_EQUAL(p->network, "lan");
    CU_ASSERT_EQUAL(p->sessions, 4);
    CU_ASSERT_EQUAL(p->launch_window_us, 10000000);
    CU_ASSERT_EQUAL(p->logoff_deadline_us, 60000000);
    CU_ASSERT_EQUAL(p->agents.mode, PLAN_AGENTS_LOCAL);
    CU_ASSERT_EQUAL(p->agents.count, 2);
    CU_ASSERT_EQUAL(p->agents.tls, 0);
    CU_ASSERT_STRING_EQUAL(p->workload_path, "wl.yaml");
    CU_ASSERT_EQUAL(p->early_stop, 0);
    CU_ASSERT_EQUAL(p->preflight, 1);   /* the pre-flight logon is on by default */
    plan_free(p);
}

/* target.local: the cap of a target on this machine, and the work scale of the simhost `sessmax
 * demo` starts (the demo plan's; sessmax-simhost --predict --plan reads the same key). */
static void test_plan__target_local(void)
{
#define LOCAL(m) "target: {host: 127.0.0.1, verify: false, local: " m "}\n" \
                 "credentials: {user: \"u{n}\", password_env: SESSMAX_PASSWORD}\n" TAIL
    struct plan *p = load(LOCAL("{cgroup: g, cpus: \"1\", cpu_percent: 50, simhost_work_scale: 0.5}"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->target.local.set, 1);
    CU_ASSERT_STRING_EQUAL(p->target.local.cgroup, "g");
    CU_ASSERT_STRING_EQUAL(p->target.local.cpus, "1");
    CU_ASSERT_EQUAL(p->target.local.cpu_percent, 50);
    CU_ASSERT_DOUBLE_EQUAL(p->target.local.simhost_work_scale, 0.5, 1e-12);
    plan_free(p);
    p = load(HEAD TAIL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->target.local.set, 0);
    CU_ASSERT_DOUBLE_EQUAL(p->target.local.simhost_work_scale, 0, 0);   /* 0: the demo's default, 1 */
    plan_free(p);
    CU_ASSERT(refused_with(LOCAL("{simhost_work_scale: 0}"), "t.yaml:1:70: 0 is out of range [0.001, 1000]"));
    CU_ASSERT(refused_with(LOCAL("{simhost_work_scale: fast}"), "t.yaml:1:70: expected a number, found 'fast'"));
    CU_ASSERT(refused_with(LOCAL("{cpus: \"x\"}"), "t.yaml:1:56: cpus: a CPU list like \"1\" or \"0-2,5\""));
#undef LOCAL
}

static void test_plan__relative_paths_and_labels(void)
{
    const char *text = "name: nightly\ntarget: {host: h, fingerprint: \"sha256:"
                       "AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB\", "
                       "security: nla}\n"
                       "credentials: {user: \"u{n}\", first: 0, password_file: pw}\n"
                       "transport: gateway\ngateway: {host: gw.example}\nplatform: ws2016\nnetwork: wan-250ms-1pct\n"
                       "workload: ../w/x.yaml\nsessions: 100\nlaunch_window: 48m\nsteady_state: 5m\n"
                       "early_stop: {margin: 1m}\nagents: {expect: 4, listen: \"0.0.0.0:7500\", capacity: 30}\n"
                       "preflight: false\n";
    struct plan *p = plan_load_string("/srv/plans/n.yaml", text, strlen(text), err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p->workload_path, "/srv/plans/../w/x.yaml");
    CU_ASSERT_STRING_EQUAL(p->cred.password_file, "/srv/plans/pw");
    CU_ASSERT_EQUAL(p->target.security, PLAN_SEC_NLA);
    CU_ASSERT_EQUAL(p->target.no_verify, 0);
    CU_ASSERT_EQUAL(p->transport, PLAN_TRANSPORT_GATEWAY);
    CU_ASSERT_EQUAL(p->gateway.port, 443);
    CU_ASSERT_EQUAL(p->agents.mode, PLAN_AGENTS_REMOTE);
    CU_ASSERT_EQUAL(p->agents.tls, 1);
    CU_ASSERT_STRING_EQUAL(p->agents.listen, "0.0.0.0:7500");
    CU_ASSERT_PTR_NULL(p->agents.tls_cert);         /* a fresh certificate per run */
    CU_ASSERT_EQUAL(p->early_stop, 1);
    CU_ASSERT_EQUAL(p->early_stop_margin_us, 60000000);
    CU_ASSERT_EQUAL(p->preflight, 0);
    CU_ASSERT_STRING_EQUAL(p->network, "wan-250ms-1pct");
    CU_ASSERT_EQUAL(p->net.rtt_us, 250000);
    CU_ASSERT_DOUBLE_EQUAL(p->net.loss, 0.01, 1e-12);
    char u[64];
    plan_user_name(p, 0, u, sizeof u);
    CU_ASSERT_STRING_EQUAL(u, "u0");
    plan_free(p);
}

/* agents.tls_cert/tls_key: both, relative to the plan's folder, only with TLS. */
static void test_plan__controller_certificate_files(void)
{
    const char *text = HEAD "workload: w\nsessions: 4\nlaunch_window: 1s\n"
                       "agents: {expect: 2, tls_cert: tls/ctl.crt, tls_key: /run/sessmax/tls.key}\n";
    struct plan *p = plan_load_string("/etc/plans/k.yaml", text, strlen(text), err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p->agents.tls_cert, "/etc/plans/tls/ctl.crt");
    CU_ASSERT_STRING_EQUAL(p->agents.tls_key, "/run/sessmax/tls.key");
    plan_free(p);
    CU_ASSERT(refused_with(HEAD "workload: w\nsessions: 4\nlaunch_window: 1s\nagents: {expect: 2, tls_cert: c.pem}\n",
                           "t.yaml:6:31: agents: give both 'tls_cert' and 'tls_key' (PEM files), or neither"));
    CU_ASSERT(refused_with(HEAD "workload: w\nsessions: 4\nlaunch_window: 1s\n"
                           "agents: {expect: 2, tls: false, tls_cert: c.pem, tls_key: k.pem}\n",
                           "t.yaml:6:43: agents: 'tls_cert' needs 'tls: true'"));
}

static void test_plan__user_names(void)
{
    struct plan *p = load(HEAD TAIL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    char u[64];
    plan_user_name(p, 0, u, sizeof u);
    CU_ASSERT_STRING_EQUAL(u, "simuser001");
    plan_user_name(p, 41, u, sizeof u);
    CU_ASSERT_STRING_EQUAL(u, "simuser042");
    plan_user_name(p, 1999, u, sizeof u);
    CU_ASSERT_STRING_EQUAL(u, "simuser2000");
    plan_free(p);
}

static void test_plan__refusals_name_the_position(void)
{
    CU_ASSERT(refused_with(HEAD TAIL "sesions: 3\n",
                           "t.yaml:7:1: unknown key 'sesions' in plan (did you mean 'sessions'?)"));
    CU_ASSERT(refused_with(HEAD TAIL "transport: udp\n",
                           "t.yaml:7:12: transport 'udp' is not available: FreeRDP 2.x and 3.x have no UDP "
                           "transport (RDP-UDP/Shortpath); use 'tcp' or 'gateway'"));
    CU_ASSERT(refused_with("target: {host: h, verify: false}\n"
                           "credentials: {user: \"u{n}\", password: hunter2}\n" TAIL,
                           "t.yaml:2:39: passwords are never written in plans: use 'password_env: VAR' or "
                           "'password_file: PATH' (mode 0600)"));
    CU_ASSERT(refused_with("target: {host: h}\n"
                           "credentials: {user: \"u{n}\", password_env: X}\n" TAIL,
                           "t.yaml:1:9: target: pin the server certificate with 'fingerprint: sha256:...' "
                           "or say 'verify: false'"));
    CU_ASSERT(refused_with("target: {host: h, verify: false}\n"
                           "credentials: {user: \"user\", password_env: X}\n" TAIL,
                           "t.yaml:2:21: user pattern needs '{n}' or '{n:03}' (e.g. simuser{n:03})"));
    CU_ASSERT(refused_with("target: {host: h, verify: false}\n"
                           "credentials: {user: \"u{n}\"}\n" TAIL,
                           "t.yaml:2:14: credentials: give exactly one of 'password_env: VAR' or "
                           "'password_file: PATH'"));
    CU_ASSERT(refused_with(HEAD "workload: w\nsessions: 4\nlaunch_window: 10\nagents: {local: 1}\n",
                           "t.yaml:5:16: expected a duration with a unit (250ms, 2s, 5m), found '10'"));
    CU_ASSERT(refused_with(HEAD "workload: w\nsessions: 4\nlaunch_window: 1s\nagents: {local: 1, expect: 2}\n",
                           "t.yaml:6:9: agents: give either 'local: N' (spawn N agents here) or 'expect: N' "
                           "(wait for remote agents)"));
    CU_ASSERT(refused_with(HEAD "workload: w\nsessions: 40\nlaunch_window: 1s\nagents: {local: 2, capacity: 10}\n",
                           "t.yaml:4:11: 40 sessions do not fit on 2 agents of capacity 10 (raise agents or capacity)"));
    CU_ASSERT(refused_with(HEAD TAIL "network: wan-300ms\n",
                           "t.yaml:7:10: unknown network profile 'wan-300ms' (built-in: lan, wan-50ms, wan-100ms, "
                           "wan-250ms-1pct, broadband-20mbit, mobile-3g, satellite-600ms; or a mapping {name, rtt, "
                           "jitter, loss, rate_down, rate_up, queue})"));
    CU_ASSERT(refused_with(HEAD TAIL "network: {name: x, loss: 60%}\n",
                           "t.yaml:7:26: network loss: must be below 50% (built-in profiles: lan, wan-50ms, "
                           "wan-100ms, wan-250ms-1pct, broadband-20mbit, mobile-3g, satellite-600ms)"));
    CU_ASSERT(refused_with(HEAD "workload: w\nlaunch_window: 1s\nagents: {local: 2}\n",
                           "t.yaml:1:1: plan: missing required key 'sessions'"));
    CU_ASSERT(refused_with("target: {host: h, verify: false, security: ssl}\n"
                           "credentials: {user: \"u{n}\", password_env: X}\n" TAIL,
                           "t.yaml:1:44: unknown value 'ssl' (expected one of: negotiate, tls, nla, rdp)"));
    CU_ASSERT(refused_with(HEAD TAIL "thresholds: {smax: 3}\n",
                           "t.yaml:7:13: thresholds must be a list, not a map"));
}

static void test_plan__password_sources(void)
{
    char text[1024], pw[128];
    const char *path = unit_write_file("pw", "s3cret\n");
    snprintf(text, sizeof text, "target: {host: h, verify: false}\n"
             "credentials: {user: \"u{n}\", password_file: %s}\n" TAIL, path);
    struct plan *p = load(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    chmod(path, 0644);
    CU_ASSERT_EQUAL(plan_read_password(p, pw, sizeof pw, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "mode 0644"));
    CU_ASSERT_PTR_NULL(strstr(err, "s3cret"));
    chmod(path, 0600);
    CU_ASSERT_EQUAL(plan_read_password(p, pw, sizeof pw, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(pw, "s3cret");
    plan_free(p);

    p = load(HEAD TAIL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    unsetenv("SESSMAX_PASSWORD");
    CU_ASSERT_EQUAL(plan_read_password(p, pw, sizeof pw, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "t.yaml:2:14: environment variable SESSMAX_PASSWORD (password_env) is not set");
    setenv("SESSMAX_PASSWORD", "pw1", 1);
    CU_ASSERT_EQUAL(plan_read_password(p, pw, sizeof pw, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(pw, "pw1");
    plan_free(p);
}

/* Copies workloads/simhost-task-worker.yaml to wl.yaml in the temporary directory, the workload
 * TAIL names for a plan written there. */
static void write_task_worker(void)
{
    size_t n = 0;
    char *text = file_read_all(unit_source_path("workloads/simhost-task-worker.yaml"), FILE_READ_MAX_CONFIG, &n,
                               err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT(n > 0);
    unit_write_file("wl.yaml", text);
    free(text);
}

static void test_plan__check_with_workload_and_thresholds(void)
{
    write_task_worker();

    struct plan_checked pc;
    const char *plan = unit_write_file("p.yaml", HEAD TAIL "thresholds: [\"p95(app_start) < 3000\"]\n");
    CU_ASSERT_EQUAL(plan_check_load(plan, &pc, err, sizeof err), 0);
    CU_ASSERT_PTR_NOT_NULL(pc.wl);
    CU_ASSERT_PTR_NOT_NULL(pc.score_json);
    CU_ASSERT_EQUAL(pc.score.threshold_count, 1);
    plan_check_free(&pc);

    plan = unit_write_file("p.yaml", HEAD TAIL "thresholds: [\"p95(app_strat) < 3000\"]\n");
    CU_ASSERT_EQUAL(plan_check_load(plan, &pc, err, sizeof err), 65);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "p.yaml:7:"));

    plan = unit_write_file("p.yaml", HEAD "workload: missing.yaml\nsessions: 4\nlaunch_window: 10s\n"
                                          "agents: {local: 2}\n");
    CU_ASSERT_EQUAL(plan_check_load(plan, &pc, err, sizeof err), 66);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "p.yaml:3:11: workload file "));
}

/* Plan-level drives (added to the workload's, errors at the plan's line:col, sent in CONFIG),
 * loops (steady_state becomes a cap), focus (a timer of the workload), logon_retries. */
static void test_plan__drives_loops_focus(void)
{
    unit_write_file("wl.yaml", "version: 1\nname: c\nlogon: {change: screen}\nloop:\n"
                               "  - {timer: in, copy: {to: server, size: s/f}, steps: [{key: enter}],\n"
                               "     until: {change: screen}}\n");
    struct plan_checked pc;
    const char *plan = unit_write_file("p2.yaml", HEAD TAIL "loops: 7\nfocus: in\nlogon_retries: 2\n"
                                                            "drives: {s: {files: {f: 5MB}}}\n");
    CU_ASSERT_EQUAL_FATAL(plan_check_load(plan, &pc, err, sizeof err), 0);
    CU_ASSERT_EQUAL(pc.plan->loops, 7);
    CU_ASSERT_EQUAL(pc.plan->steady_state_us, 3600000000ull);
    CU_ASSERT_EQUAL(pc.plan->logon_retries, 2);
    CU_ASSERT_EQUAL(pc.wl->copies[0].bytes, 5242880);
    CU_ASSERT_STRING_EQUAL(pc.drives_text, "{s: {files: {f: 5242880}}}");
    CU_ASSERT_PTR_NOT_NULL(strstr(pc.score_json, "\"focus\":\"in\""));
    struct proto_msg m;
    plan_check_config_msg(&pc, &m);
    CU_ASSERT_EQUAL(m.u.config.max_loops, 7);
    CU_ASSERT_EQUAL(m.u.config.logon_retries, 2);
    CU_ASSERT_STRING_EQUAL(m.u.config.drives, "{s: {files: {f: 5242880}}}");
    plan_check_free(&pc);

    static const struct { const char *extra, *msg; int rc; } bad[] = {
        { "focus: nope\ndrives: {s: {files: {f: 1MB}}}\n", "p2.yaml:7:8: focus 'nope' is not a timer of workload", 65 },
        { "drives: {s: {files: {f: 1XB}}}\n", "p2.yaml:7:25: bad size '1XB'", 65 },
        { "drives: {toolong1: {files: {f: 1MB}}}\n", "p2.yaml:7:10: drive name 'toolong1' must be 1-7", 65 },
        { "drives: {s: {files: {g: 1MB}}}\n", "wl.yaml:5:42: copy size 's/f': no such file in the drives: declared", 65 },
        { "", "wl.yaml:5:42: copy size 's/f': no such file in the drives: none declared", 65 },
        { "loops: 0\ndrives: {s: {files: {f: 1MB}}}\n", "p2.yaml:7:8:", 65 },
        { "logon_retries: 11\ndrives: {s: {files: {f: 1MB}}}\n", "p2.yaml:7:16:", 65 },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char text[1024];
        snprintf(text, sizeof text, HEAD TAIL "%s", bad[k].extra);
        plan = unit_write_file("p2.yaml", text);
        int rc = plan_check_load(plan, &pc, err, sizeof err);
        if (rc != bad[k].rc || !strstr(err, bad[k].msg))
            fprintf(stderr, "\n  want %d '%s'\n  got  %d '%s'\n", bad[k].rc, bad[k].msg, rc, err);
        CU_ASSERT_EQUAL(rc, bad[k].rc);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[k].msg));
    }
}

static void test_plan__client(void)
{
    char label[64];
    struct plan *p = load(HEAD TAIL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->client.x11, 0);
    plan_client_label(&p->client, label, sizeof label);
    CU_ASSERT_STRING_EQUAL(label, "builtin");
    CU_ASSERT_STRING_EQUAL(plan_client_transport(&p->client, "tcp"), "tcp");
    plan_free(p);
    p = load(HEAD TAIL "client: {x11: citrix, transport: edt, resolution: 1280x720}\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->client.x11, 1);
    plan_client_label(&p->client, label, sizeof label);
    CU_ASSERT_STRING_EQUAL(label, "citrix");
    CU_ASSERT_STRING_EQUAL(plan_client_transport(&p->client, "tcp"), "edt");
    char *j = plan_client_json(&p->client);
    CU_ASSERT(j && strstr(j, "\"transport\":\"edt\"") != NULL);
    free(j);
    CU_ASSERT_EQUAL(plan_client_check_program(&p->client, err, sizeof err), -1);   /* no Citrix here */
    CU_ASSERT(strstr(err, "Citrix Workspace app") != NULL);
    plan_free(p);
    CU_ASSERT(refused_with(HEAD TAIL "client: native\n", "t.yaml:7:9: client 'native': expected builtin, a preset "
                           "(xfreerdp, vncviewer, citrix, vmware-view), an entry of 'clients:' or {x11: PRESET or "
                           "command, ...}"));
    CU_ASSERT(refused_with(HEAD TAIL "client: {x11: xfreerdp, transport: edt}\n", "t.yaml:7:9: transport 'edt' "
                           "is not available with xfreerdp (expected one of: tcp)"));
    CU_ASSERT(refused_with(HEAD TAIL "client: {x11: xfreerdp, resolution: big}\n", "t.yaml:7:37: resolution "
                           "'big': expected WIDTHxHEIGHT, 64..8192 each (e.g. 1024x768)"));
    CU_ASSERT(refused_with(HEAD TAIL "client: {transport: tcp}\n", "t.yaml:7:9: client: 'x11' is missing (a "
                           "preset: xfreerdp, vncviewer, citrix, vmware-view; or a command template)"));
}

/* `clients:` names client settings with their own target; `client: NAME` picks one (a matrix
 * cell `client=NAME` does the same); the target keys an entry gives replace the plan's. */
static void test_plan__clients_map(void)
{
    static const char *const clients_fmt =
        "clients:\n"
        "  vncviewer: {resolution: 800x600, target: {host: 127.0.0.2, port: 5901}}\n"
        "  pinned: {x11: xfreerdp, target: {fingerprint: \"sha256:%s\"}}\n"
        "  builtin: {target: {port: 3391}}\n";
    char text[2048], fp[200] = "", label[64], clients[1024];
    for (int i = 0; i < 32; i++)
        strcat(fp, i ? ":AB" : "AB");
    snprintf(clients, sizeof clients, clients_fmt, fp);
    snprintf(text, sizeof text, HEAD TAIL "client: vncviewer\n%s", clients);
    struct plan *p = load(text);
    if (!p)
        fprintf(stderr, "\n  %s\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->nclients, 3);
    CU_ASSERT_EQUAL(p->client.x11, 1);
    plan_client_label(&p->client, label, sizeof label);
    CU_ASSERT_STRING_EQUAL(label, "vncviewer");
    CU_ASSERT_EQUAL(p->client.c.width, 800);
    CU_ASSERT_STRING_EQUAL(p->target.host, "127.0.0.2");
    CU_ASSERT_EQUAL(p->target.port, 5901);
    CU_ASSERT_TRUE(p->target.no_verify);                 /* the plan's verify: false is kept */
    CU_ASSERT_EQUAL(p->client.line, 9);                  /* missing programs point at the entry */
    plan_free(p);
    snprintf(text, sizeof text, HEAD TAIL "client: pinned\n%s", clients);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p = load(text));
    CU_ASSERT_STRING_EQUAL(p->target.host, "127.0.0.1");
    CU_ASSERT_EQUAL(p->target.port, 3390);
    CU_ASSERT_FALSE(p->target.no_verify);                /* fingerprint replaced verify: false */
    plan_free(p);
    snprintf(text, sizeof text, HEAD TAIL "%s", clients);   /* no client: builtin, with its entry */
    CU_ASSERT_PTR_NOT_NULL_FATAL(p = load(text));
    CU_ASSERT_EQUAL(p->client.x11, 0);
    CU_ASSERT_EQUAL(p->target.port, 3391);
    plan_free(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p = load(HEAD TAIL "client: xfreerdp\n"));   /* a preset by name */
    CU_ASSERT_EQUAL(p->client.x11, 1);
    CU_ASSERT_EQUAL(p->target.port, 3390);
    plan_free(p);
    CU_ASSERT(refused_with(HEAD TAIL "clients:\n  vnc: {resolution: 800x600}\n", "t.yaml:8:3: clients.vnc: 'x11' is "
                           "missing and 'vnc' is no preset (xfreerdp, vncviewer, citrix, vmware-view)"));
    CU_ASSERT(refused_with(HEAD TAIL "clients:\n  vncviewer: {target: {prot: 5901}}\n", "t.yaml:8:24: unknown "
                           "key 'prot' in target (did you mean 'port'?)"));
    CU_ASSERT(refused_with(HEAD TAIL "clients:\n  vncviewer: {target: {port: 70000}}\n", "t.yaml:8:30: "
                           "70000 is out of range [1, 65535]"));
    CU_ASSERT(refused_with(HEAD TAIL "clients:\n  builtin: {x11: xfreerdp}\n", "t.yaml:8:12: clients.builtin: "
                           "the built-in engine takes only 'target'"));
    CU_ASSERT(refused_with(HEAD TAIL "clients:\n  \"a b\": {x11: xfreerdp}\n", "t.yaml:8:3: clients: a name is a "
                           "plain word (letters, digits, '.', '_', '-'; at most 63 characters), as `--vary client=` "
                           "takes it"));
    CU_ASSERT(refused_with(HEAD TAIL "clients:\n  vncviewer: {target: {verify: false, fingerprint: x}}\n",
                           "t.yaml:8:32: give either 'fingerprint' or 'verify: false', not both"));
    CU_ASSERT(refused_with(HEAD TAIL "clients: [vncviewer]\n", "t.yaml:7:10: clients must be a map, not a list"));
}

/* The sample estimate: simhost-task-worker's loop takes 28.5 s of thinks, typing and pauses
 * (hand-summed from the file), so 4 sessions over 10 s + 30 s steady give at most 4 loops:
 * not enough for 15 (and that is certain: timers and waits only add time); with loops: 10 the
 * four sessions give 40 samples of the measure and of the focus timer, with time to spare. */
static void test_plan__sample_estimate(void)
{
    write_task_worker();
    struct plan_checked pc;
    struct plan_estimate e;
    const char *plan = unit_write_file("p3.yaml", HEAD TAIL "steady_state: 30s\n");
    CU_ASSERT_EQUAL_FATAL(plan_check_load(plan, &pc, err, sizeof err), 0);
    plan_estimate(&pc, &e);
    CU_ASSERT_DOUBLE_EQUAL(e.loop_min_s, 28.5, 1e-9);
    CU_ASSERT_STRING_EQUAL(e.measure, "vsi");
    CU_ASSERT_EQUAL(e.needed, 15);
    CU_ASSERT_EQUAL(e.samples_max, 4);    /* sessions start at 0, 2.5, 5, 7.5 s; 40 s in all */
    CU_ASSERT(e.slack_s < 0);
    plan_check_free(&pc);
    plan = unit_write_file("p3.yaml", HEAD TAIL "loops: 10\nfocus: cpu\n");
    CU_ASSERT_EQUAL_FATAL(plan_check_load(plan, &pc, err, sizeof err), 0);
    plan_estimate(&pc, &e);
    CU_ASSERT_EQUAL(e.samples_max, 40);
    CU_ASSERT_EQUAL(e.focus_max, 40);
    CU_ASSERT(e.slack_s > 300);
    plan_check_free(&pc);
}

/* A loop of 10^10 one-millisecond thinks (two nested repeats) takes 10^7 s: no loop ends within the
 * run, so no sample; the estimate says so instead of wrapping round to ~2^64 samples. A loop
 * with no fixed time at all has no bound from it, and says that. */
static void test_plan__sample_estimate_does_not_overflow(void)
{
    struct plan_checked pc;
    struct plan_estimate e;
    unit_write_file("wl.yaml", "version: 1\nname: thinks\nregions: {full: [0, 0, 100, 100]}\nlogon: {change: full, timeout: 60s}\n"
                    "loop:\n  - timer: t\n    steps: [{key: enter}]\n    until: {change: full, timeout: 5s}\n"
                    "  - repeat: {count: 100000, steps: [{repeat: {count: 100000, steps: [{think: 1ms}]}}]}\n"
                    "measures: {vsi: {t: 1.0}}\n");
    const char *plan = unit_write_file("p4.yaml", HEAD TAIL "steady_state: 30s\n");
    CU_ASSERT_EQUAL_FATAL(plan_check_load(plan, &pc, err, sizeof err), 0);
    plan_estimate(&pc, &e);
    CU_ASSERT(e.loop_min_s >= 1e7 && e.loop_min_s < 1e7 + 1);   /* and the key's pause */
    CU_ASSERT_EQUAL(e.samples_max, 0);
    CU_ASSERT(e.slack_s < 0);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    plan_estimate_print(&pc, f);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "NOT ENOUGH: at most 0 'vsi' samples"));
    free(out);
    plan_check_free(&pc);
}

/* The plan's name:, platform: and the workload's name: take the timer names' character set. */
static void test_plan__labels_take_the_name_charset(void)
{
    write_task_worker();
    struct plan_checked pc;
    const char *plan = unit_write_file("p5.yaml", HEAD TAIL "name: \"a|b\"\n");
    CU_ASSERT_EQUAL(plan_check_load(plan, &pc, err, sizeof err), 65);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "p5.yaml:7:7: name 'a|b': use letters, digits"));
    plan = unit_write_file("p5.yaml", HEAD TAIL "platform: \"ws<b>\\nx\"\n");
    CU_ASSERT_EQUAL(plan_check_load(plan, &pc, err, sizeof err), 65);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "p5.yaml:7:11: platform 'ws<b>\\nx': use"));
    plan = unit_write_file("p5.yaml", HEAD TAIL "platform: ws2022-8vcpu\nname: nightly.lan_1\n");
    CU_ASSERT_EQUAL(plan_check_load(plan, &pc, err, sizeof err), 0);
    plan_check_free(&pc);
    unit_write_file("wl.yaml", "version: 1\nname: \"my worker\"\nregions: {full: [0, 0, 100, 100]}\nlogon: {change: full, timeout: 60s}\n"
                    "loop:\n  - think: 1s\n");
    plan = unit_write_file("p5.yaml", HEAD TAIL);
    CU_ASSERT_EQUAL(plan_check_load(plan, &pc, err, sizeof err), 65);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "wl.yaml: workload name 'my worker': use letters"));
    /* the default name (the file's) is made to fit, not refused */
    write_task_worker();
    plan = unit_write_file("my plan.yaml", HEAD TAIL);
    CU_ASSERT_EQUAL_FATAL(plan_check_load(plan, &pc, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(pc.plan->name, "my_plan");
    plan_check_free(&pc);
}

/* validate's description escapes what the plan names: a workload path with a newline stays on
 * its line. */
static void test_plan__describe_escapes(void)
{
    write_task_worker();
    size_t n = 0;
    char *wl = file_read_all(unit_source_path("workloads/simhost-task-worker.yaml"), FILE_READ_MAX_CONFIG, &n,
                             err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    unit_write_file("w\n  users      forged.yaml", wl);
    free(wl);
    struct plan_checked pc;
    const char *plan = unit_write_file("p6.yaml", HEAD "workload: \"w\\n  users      forged.yaml\"\n"
                                       "sessions: 4\nlaunch_window: 10s\nagents: {local: 2}\n");
    CU_ASSERT_EQUAL_FATAL(plan_check_load(plan, &pc, err, sizeof err), 0);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    plan_check_describe(&pc, f);
    fclose(f);
    CU_ASSERT_PTR_NULL(strstr(out, "\n  users      forged"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "w\\n  users      forged.yaml, sha256"));
    free(out);
    plan_check_free(&pc);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_plan__valid_with_defaults),
        UNIT_TEST(test_plan__relative_paths_and_labels),
        UNIT_TEST(test_plan__controller_certificate_files),
        UNIT_TEST(test_plan__user_names),
        UNIT_TEST(test_plan__refusals_name_the_position),
        UNIT_TEST(test_plan__password_sources),
        UNIT_TEST(test_plan__check_with_workload_and_thresholds),
        UNIT_TEST(test_plan__drives_loops_focus),
        UNIT_TEST(test_plan__sample_estimate),
        UNIT_TEST(test_plan__sample_estimate_does_not_overflow),
        UNIT_TEST(test_plan__labels_take_the_name_charset),
        UNIT_TEST(test_plan__describe_escapes),
        UNIT_TEST(test_plan__target_local),
        UNIT_TEST(test_plan__client),
        UNIT_TEST(test_plan__clients_map),
        UNIT_END,
    };
    return unit_run("plan", tests, NULL, NULL);
}
