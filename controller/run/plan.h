/* plan.h -- a test plan (DESIGN §6) loaded from YAML into a plain struct, validated field by field.
 *
 * plan_load_file() checks every key, type and range and reports the first problem as
 * "file:line:col: what is wrong (fix)". The plan keeps its YAML tree alive so that later stages
 * (the score configuration, a workload error) can still point at positions. A plan never holds a
 * password: only where to read it (an environment variable or a 0600 file); plan_read_password()
 * fetches it at run time. Owned by the caller; free with plan_free(). */
#ifndef SESSMAX_PLAN_H
#define SESSMAX_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "common/netprofile.h"
#include "controller/run/plan_client.h"
#include "controller/run/plan_metrics.h"

struct ydoc;
struct ydoc_node;

#define PLAN_ERR_LEN 512

enum plan_security { PLAN_SEC_NEGOTIATE, PLAN_SEC_TLS, PLAN_SEC_NLA, PLAN_SEC_RDP };
enum plan_transport { PLAN_TRANSPORT_TCP, PLAN_TRANSPORT_GATEWAY };
enum plan_agents_mode { PLAN_AGENTS_LOCAL, PLAN_AGENTS_REMOTE };

struct plan_target {
    char *host;
    uint16_t port;                 /* default 3389 */
    char *fingerprint;             /* "sha256:AA:BB:..."; NULL when verify: false */
    int no_verify;                 /* verify: false */
    enum plan_security security;   /* default negotiate */
    char *domain;                  /* NULL: none */
    struct plan_target_local {     /* target.local: a target on this machine (targetload.h) */
        int set;                   /* the plan has target.local */
        char *cgroup;              /* cgroup v1 cpu group of its processes; NULL: none (demo makes one) */
        char *cpus;                /* its CPUs ("1", "0-1"); NULL: the group's affinity (demo: "1") */
        char *process;             /* without cgroup: its processes by name or pid (targetproc.h); NULL:
                                    * with cpus, the processes pinned within those CPUs */
        uint32_t cpu_percent;      /* demo: cfs quota in % of one CPU; 0: default (100) */
        double simhost_work_scale; /* demo: the --work-scale of the simhost it starts; 0: default (1) */
    } local;
    struct plan_metrics metrics;   /* target.metrics: exporters scraped during the run (plan_metrics.h) */
};

struct plan_gateway {              /* transport: gateway */
    char *host;
    uint16_t port;                 /* default 443 */
};

struct plan_credentials {
    char *user_pattern;            /* "simuser{n:03}": {n} or {n:0W} once */
    uint32_t first;                /* n of session 0; default 1 */
    char *password_env;            /* exactly one of these two */
    char *password_file;           /* resolved relative to the plan file */
    int line, col;                 /* of the credentials map, for run-time errors */
};

struct plan_agents {
    enum plan_agents_mode mode;
    uint32_t count;                /* local: N / expect: N */
    uint32_t capacity;             /* sessions per agent; 0: as each agent declares */
    char *cpus;                    /* local: CPU list to pin agents to ("1", "2-3,5"); NULL: none */
    char *listen;                  /* remote: "ADDR:PORT" (default 127.0.0.1:7400) */
    uint64_t wait_us;              /* how long to wait for the agents; default 30 s local, 5 m remote */
    int tls;                       /* agent link over TLS (default: 1 remote, 0 local) */
    char *tls_cert, *tls_key;      /* TLS: the controller's certificate and key (PEM, resolved relative
                                    * to the plan; the key 0600); NULL: a fresh one per run */
    uint64_t heartbeat_timeout_us; /* agent silent this long = lost; default 15 s */
    uint64_t grace_us;             /* remote agents may resume a broken link within; default 2 min, 0 off */
};

struct plan {
    struct ydoc *doc;              /* owned: keeps positions for later messages */
    char *file;                    /* as given */
    char *dir;                     /* directory of the plan file (relative paths start here) */
    char *text;                    /* the plan file's text (contains no secret by construction) */
    char *name;                    /* default: file name without extension */
    struct plan_target target;
    struct plan_credentials cred;
    enum plan_transport transport;
    struct plan_gateway gateway;
    struct plan_client client;     /* `client:` builtin (default) or an external X11 client */
    struct plan_client_entry clients[PLAN_CLIENTS_MAX];   /* `clients:` (plan_client.h) */
    size_t nclients;
    char *platform;                /* free label; default "unknown" */
    char *network;                 /* the network profile's name (the label); default "lan" */
    struct netprofile net;         /* `network:` -- a built-in name or a mapping (common/netprofile.h) */
    char *workload_path;           /* resolved relative to the plan file */
    const struct ydoc_node *workload_node;
    uint32_t sessions;
    uint64_t launch_window_us;     /* sessions start evenly across it */
    uint64_t steady_state_us;      /* after the last launch */
    uint64_t logoff_deadline_us;   /* default 60 s */
    uint64_t seed;                 /* think-time seed base; default 1 */
    struct plan_agents agents;
    int early_stop;                /* stop `early_stop_margin_us` after the index crosses */
    uint64_t early_stop_margin_us;
    const struct ydoc_node *score_node;      /* `score:` map or NULL (parsed by score_config) */
    const struct ydoc_node *thresholds_node; /* `thresholds:` or NULL */
    char *results;                 /* results database path (default results.db, relative to cwd) */
    const struct ydoc_node *drives_node;     /* `drives:` or NULL (added to the workload's, plan_check) */
    uint32_t loops;                /* each session logs off after this many loops; 0: until the end */
    int preflight;                 /* `preflight:`, default 1: the first session logs on before the
                                      ramp starts, and a refused logon stops the run (phases.c) */
    char *focus;                   /* the timer a single-user diagnosis is about; NULL: none */
    const struct ydoc_node *focus_node;
    uint32_t logon_retries;        /* fresh connections allowed after a logon timeout; default 0 */
};

/* Loads and validates a plan. Returns NULL with err filled ("file:line:col: ..."). */
struct plan *plan_load_file(const char *path, char *err, size_t errlen);
/* The same from memory; `path` names the file in messages and anchors relative paths. */
struct plan *plan_load_string(const char *path, const char *text, size_t len, char *err, size_t errlen);
void plan_free(struct plan *p);

/* User name of session `index` (0-based): the pattern with n = first + index. */
void plan_user_name(const struct plan *p, uint32_t index, char *out, size_t outlen);

/* Reads the password (env var or 0600 file, trailing newline stripped) into out. Returns 0, or
 * -1 with a message naming the variable or file (never the password). Refuses a file readable
 * or writable by group/others. */
int plan_read_password(const struct plan *p, char *out, size_t outlen, char *err, size_t errlen);

/* "tls", "nla", ... */
const char *plan_security_name(enum plan_security s);
const char *plan_transport_name(enum plan_transport t);

/* Fills err with "file:line:col: msg" at the node (NULL node: "file: msg"); returns -1. */
int plan_error_at(const struct plan *p, const struct ydoc_node *at, char *err, size_t errlen,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
