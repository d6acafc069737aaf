/* agentpool.h -- the controller's agents: a listener (loopback by default, TLS optional), local
 * agent processes it spawns, remote ones it accepts, each an authenticated wire.
 *
 * Local agents run `sessmax-agent connect 127.0.0.1:PORT --name local-N` with the token in the
 * environment (SESSMAX_TOKEN, never argv), optionally pinned to a CPU list. Remote agents are
 * accepted until `count` are ready; more are refused. Every event is reported through
 * pool_events on the loop thread. Agent slots are numbered 0..count-1 in the order they became
 * ready. */
#ifndef SESSMAX_AGENTPOOL_H
#define SESSMAX_AGENTPOOL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/proto.h"

struct event_base;
struct pool;

enum pool_agent_state { POOL_AGENT_READY, POOL_AGENT_DONE, POOL_AGENT_LOST };

struct pool_agent {
    struct pool *pool;
    struct wire *wire;            /* NULL once closed */
    uint32_t slot;
    int64_t store_id;             /* for the owner */
    char name[64], host[128];
    uint32_t capacity;            /* as declared by the agent, capped by the plan */
    pid_t pid;                    /* local agents: the child; 0 for remote */
    enum pool_agent_state state;
    uint64_t last_seq;            /* highest RECORDS batch received */
    uint64_t records;
};

struct pool_events {
    void *arg;
    void (*ready)(struct pool_agent *a, void *arg);
    void (*records)(struct pool_agent *a, const struct proto_records *r, void *arg);
    void (*done)(struct pool_agent *a, const struct proto_done *d, void *arg);
    /* The agent died, went silent or broke the protocol. Not called after done. */
    void (*lost)(struct pool_agent *a, const char *reason, void *arg);
};

struct pool_config {
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
};

/* Opens the listener and spawns local agents. NULL with err on failure. */
struct pool *pool_new(struct event_base *base, const struct pool_config *cfg, const struct pool_events *ev,
                      char *err, size_t errlen);
/* Closes every link, terminates local agents still running (SIGTERM, then SIGKILL after 3 s)
 * and reaps them. Accepts NULL. */
void pool_free(struct pool *p);

size_t pool_count(const struct pool *p);              /* agents that became ready so far */
struct pool_agent *pool_agent(struct pool *p, size_t slot);
/* "sha256:..." of the listener's TLS certificate, or "" without TLS. */
const char *pool_tls_fingerprint(const struct pool *p);
/* The address agents connect to ("127.0.0.1:40123"). */
const char *pool_address(const struct pool *p);
/* Stop accepting new agents. */
void pool_close_listener(struct pool *p);

int pool_send(struct pool_agent *a, const struct proto_msg *m);
/* Acknowledges every batch received so far (call after the store committed them). */
void pool_ack(struct pool_agent *a);
/* Closes an agent's link deliberately (it will be reported lost with `reason`). */
void pool_drop(struct pool_agent *a, const char *reason);

/* Parses "1", "0-3,6" into a cpu bitmask array; -1 on bad text. */
int pool_parse_cpus(const char *text, unsigned char *mask, size_t masklen);

#endif
