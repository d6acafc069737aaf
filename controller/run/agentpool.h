/* agentpool.h -- the controller's agents: a listener (loopback by default, TLS optional), local
 * agent processes it spawns, remote ones it accepts, each an authenticated wire.
 *
 * Local agents (agentspawn.h) run `sessmax-agent connect 127.0.0.1:PORT --name local-N` and get
 * the token through an inherited pipe (never argv or the environment). Remote agents are
 * accepted until `count` are ready; more are refused. Every event is reported through
 * agentpool_events on the loop thread. Agent slots are numbered 0..count-1 in the order they became
 * ready. Connections that have not authenticated give way to newcomers (agentgate.h), so a
 * flood of them cannot lock a real agent out.
 *
 * Resume: a remote agent whose link breaks is `away`, not lost, for the grace period. If it comes
 * back (a new connection that proves the token again and shows the resume ticket of its last
 * WELCOME) it keeps its slot, sessions and numbering: WELCOME tells it the last batch stored,
 * it sends everything after that again, and batches received twice are dropped (by agent and
 * sequence). Past the grace period it is lost, as an agent that never had one. Local agents
 * (children of this process) have no grace period. */
#ifndef SESSMAX_AGENTPOOL_H
#define SESSMAX_AGENTPOOL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/proto.h"

struct event_base;
struct agentpool;

enum agentpool_agent_state { AGENTPOOL_AGENT_READY, AGENTPOOL_AGENT_AWAY, AGENTPOOL_AGENT_DONE, AGENTPOOL_AGENT_LOST };

struct agentpool_agent {
    struct agentpool *pool;
    struct wire *wire;            /* NULL once closed */
    uint32_t slot;
    int64_t store_id;             /* for the owner */
    char name[64], host[128];
    uint32_t capacity;            /* as declared by the agent, capped by the plan; lowered by the
                                   * owner to what the agent's measured costs allow */
    uint32_t declared;            /* capacity as first set: as declared, capped by the plan */
    pid_t pid;                    /* local agents: the child; 0 for remote */
    enum agentpool_agent_state state;
    int64_t clock_offset_us;      /* the agent's wall clock minus ours (handshake probes) */
    uint32_t rtt_us;              /* round trip of the best probe */
    uint64_t last_seq;            /* highest RECORDS batch received */
    uint64_t records;
    uint32_t id;                  /* agent id of WELCOME, kept across resumes */
    uint8_t ticket[PROTO_TICKET_LEN];   /* of the last WELCOME: shows it to resume */
    uint64_t away_since_us;       /* AWAY: when the link broke (clock_now_us) */
    char away_reason[160];
    struct event *grace_ev;       /* AWAY: fires when the grace period is over */
    uint32_t resumes;             /* links resumed */
    uint64_t dup_batches;         /* batches received again after a resume, dropped */
    int resuming;                 /* between admission and ready of a resumed link */
    int broken;                   /* it broke the protocol or was dropped: no grace period */
};

struct agentpool_events {
    void *arg;
    void (*ready)(struct agentpool_agent *a, void *arg);
    void (*records)(struct agentpool_agent *a, const struct proto_records *r, void *arg);
    void (*done)(struct agentpool_agent *a, const struct proto_done *d, void *arg);
    /* The agent died, went silent or broke the protocol (and, with a grace period, did not
     * come back within it). Not called after done. */
    void (*lost)(struct agentpool_agent *a, const char *reason, void *arg);
    /* Optional. The link of a ready agent broke; it may come back within the grace period. */
    void (*away)(struct agentpool_agent *a, const char *reason, void *arg);
    /* Optional. An away agent is back on a new link (what it missed may need sending again). */
    void (*back)(struct agentpool_agent *a, void *arg);
    /* Optional. Commit what was received so far (before a resumed agent is told what is stored);
     * 0 or -1. */
    int (*commit)(void *arg);
};

struct agentpool_config {
    int local;                    /* 1: spawn `count` local agents */
    uint32_t count;
    const char *listen;           /* "ADDR:PORT"; local agents: port 0 on 127.0.0.1 */
    int tls;
    const char *token;            /* shared secret */
    const char *cpus;             /* local pinning list or NULL */
    uint32_t capacity;            /* 0: as declared by each agent */
    uint32_t timeout_ms;          /* heartbeat silence limit */
    const char *agent_bin;        /* path of sessmax-agent; NULL: next to this executable */
    const char *agent_log;        /* local agents' stderr goes here (appended); NULL: inherit */
    const char *shot_dir;         /* local agents save PNGs of timed-out waits here; NULL: none */
    const char *password_env;     /* the plan's password variable: local agents do not inherit it */
    uint32_t grace_ms;            /* a remote agent may resume a broken link within; 0: never */
    const char *tls_cert, *tls_key; /* TLS: the certificate and key files; NULL: a fresh certificate */
};

/* Opens the listener and spawns local agents. NULL with err on failure. */
struct agentpool *agentpool_new(struct event_base *base, const struct agentpool_config *cfg, const struct agentpool_events *ev,
                      char *err, size_t errlen);
/* Closes every link, terminates local agents still running (SIGTERM, then SIGKILL after 3 s)
 * and reaps them. Accepts NULL. */
void agentpool_free(struct agentpool *p);

size_t agentpool_count(const struct agentpool *p);              /* agents that became ready so far */
struct agentpool_agent *agentpool_agent(struct agentpool *p, size_t slot);
/* "sha256:..." of the listener's TLS certificate, or "" without TLS. */
const char *agentpool_tls_fingerprint(const struct agentpool *p);
/* The address agents connect to ("127.0.0.1:40123"). */
const char *agentpool_address(const struct agentpool *p);
/* Stop accepting new agents. */
void agentpool_close_listener(struct agentpool *p);

int agentpool_send(struct agentpool_agent *a, const struct proto_msg *m);
/* Acknowledges every batch received so far (call after the store committed them). */
void agentpool_ack(struct agentpool_agent *a);
/* Closes an agent's link deliberately (it will be reported lost with `reason`, at once). */
void agentpool_drop(struct agentpool_agent *a, const char *reason);

#endif
