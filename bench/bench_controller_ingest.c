/* bench_controller_ingest.c -- samples per second the controller accepts from agents over the
 * real link and commits to the results store.
 *
 * The controller side is the real one (agentpool: listener, local spawn with the token through an
 * inherited pipe (--token-fd, as real local agents get it), authenticated wires, frame decoding; db/store: batched inserts), with the same
 * calls as run.c's record path: store_add_sample per sample, store_flush + ACK every 250 ms. The
 * two agents are this program re-executed as `connect ...` (agentpool_config.agent_bin): synthetic
 * agents that stream RECORDS batches of samples as fast as the ACKs allow (at most 16 batches
 * unacknowledged). Printed side by side with direct store inserts of the same samples (no
 * network), as a ratio. Target: >= 50,000 samples/s end to end. */
#include "common/clock.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/proto_auth.h"
#include "common/wire.h"
#include "controller/run/agentpool.h"
#include "db/store.h"

#include <event2/bufferevent.h>
#include <event2/event.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#define AGENTS 2
#define PER_AGENT 400000u
#define BATCH 2000u
#define WINDOW 64u

/* --- the synthetic agent (child process) ----------------------------------------------------- */

struct synth {
    struct event_base *base;
    struct wire *w;
    uint64_t sent_batches, acked, total_batches;
    uint32_t session_base;
};

static void synth_fill(struct synth *s)
{
    struct proto_buf b = { 0 };
    while (s->sent_batches < s->total_batches && s->sent_batches - s->acked < WINDOW) {
        b.len = 0;
        proto_records_begin(&b, ++s->sent_batches);
        for (uint32_t i = 0; i < BATCH; i++) {
            struct proto_record r = { .kind = PROTO_REC_SAMPLE };
            r.u.sample = (struct rec_sample){ .session = s->session_base + i % 30, .loop = i / 30,
                                              .t_us = clock_wall_us(), .value_us = 200000 + i, .ok = 1,
                                              .is_measure = i % 6 == 0 };
            snprintf(r.u.sample.name, sizeof r.u.sample.name, "%s", i % 6 == 0 ? "vsi" : "app_start");
            proto_records_add(&b, &r);
        }
        proto_records_end(&b);
        wire_send_raw(s->w, b.data, b.len);
    }
    proto_buf_free(&b);
}

static void synth_ready(struct wire *w, void *arg)
{
    (void)w;
    synth_fill(arg);
}

static void synth_msg(struct wire *w, struct proto_msg *m, void *arg)
{
    struct synth *s = arg;
    if (m->type != PROTO_ACK)
        return;
    s->acked = m->u.ack_seq;
    if (s->acked >= s->total_batches) {
        struct proto_msg d = { .type = PROTO_DONE };
        wire_send(w, &d);
        return;
    }
    synth_fill(s);
}

static void synth_close(struct wire *w, const char *reason, void *arg)
{
    struct synth *s = arg;
    (void)reason;
    wire_free(w);
    s->w = NULL;
    event_base_loopexit(s->base, NULL);
}

/* The token from the inherited pipe the controller hands local agents (--token-fd N). */
static int read_token(int fd, char *out, size_t len)
{
    size_t got = 0;
    ssize_t k;
    while (got < len - 1 && (k = read(fd, out + got, len - 1 - got)) > 0)
        got += (size_t)k;
    out[got] = 0;
    out[strcspn(out, "\r\n")] = 0;
    close(fd);
    return got >= PROTO_TOKEN_MIN_LEN ? 0 : -1;
}

static int synthetic_agent(int argc, char **argv)
{
    struct synth s = { 0 };
    const char *addr = argv[1], *name = "synthetic";
    char token[PROTO_TOKEN_MAX_LEN + 2] = "";
    /* the options agentspawn passes to `connect`; the name and the token pipe matter here */
    static const struct option LONGOPTS[] = {
        { "name", required_argument, NULL, 'n' }, { "capacity", required_argument, NULL, 'c' },
        { "token-fd", required_argument, NULL, 't' }, { "tls-pin", required_argument, NULL, 'p' },
        { "shot-dir", required_argument, NULL, 's' }, { NULL, 0, NULL, 0 },
    };
    int c;
    optind = 2;
    while ((c = getopt_long(argc, argv, "", LONGOPTS, NULL)) != -1)
        if (c == 'n')
            name = optarg;
        else if (c == 't' && read_token(atoi(optarg), token, sizeof token) < 0)
            return EX_CONFIG;
        else if (c == '?')
            return EX_USAGE;
    s.total_batches = PER_AGENT / BATCH;
    s.session_base = name[strlen(name) - 1] == '2' ? 30 : 0;
    struct sockaddr_storage ss;
    int sslen = sizeof ss;
    s.base = event_base_new();
    if (evutil_parse_sockaddr_port(addr, (struct sockaddr *)&ss, &sslen) < 0)
        return EX_USAGE;
    struct bufferevent *bev = bufferevent_socket_new(s.base, -1, BEV_OPT_CLOSE_ON_FREE);
    struct wire_params wp = { .role = WIRE_AGENT, .token = token, .peer = addr, .name = name,
                              .capacity = 30 };
    struct wire_callbacks cb = { &s, synth_ready, synth_msg, synth_close };
    s.w = wire_new(s.base, bev, &wp, &cb);
    if (!s.w || bufferevent_socket_connect(bev, (struct sockaddr *)&ss, sslen) < 0)
        return EX_UNAVAILABLE;
    event_base_dispatch(s.base);
    wire_free(s.w);
    event_base_free(s.base);
    return 0;
}

/* --- the controller side --------------------------------------------------------------------- */

struct ctl {
    struct event_base *base;
    struct store *st;
    int64_t run;
    struct agentpool *pool;
    uint64_t samples, first_us, done_agents;
    int errors;
};

static void on_records(struct agentpool_agent *a, const struct proto_records *r, void *arg)
{
    struct ctl *c = arg;
    (void)a;
    if (!c->first_us)
        c->first_us = clock_now_us();
    for (uint32_t i = 0; i < r->count; i++)
        if (r->recs[i].kind == PROTO_REC_SAMPLE) {
            c->errors += store_add_sample(c->st, c->run, &r->recs[i].u.sample, 60) < 0;
            c->samples++;
        }
}

static void on_done(struct agentpool_agent *a, const struct proto_done *d, void *arg)
{
    struct ctl *c = arg;
    (void)a;
    (void)d;
    if (++c->done_agents == AGENTS)
        event_base_loopexit(c->base, NULL);
}

static void on_lost(struct agentpool_agent *a, const char *reason, void *arg)
{
    struct ctl *c = arg;
    fprintf(stderr, "bench: agent %s lost: %s\n", a->name, reason);
    c->errors++;
    event_base_loopexit(c->base, NULL);
}

static void tick(evutil_socket_t fd, short what, void *arg)
{
    struct ctl *c = arg;
    (void)fd;
    (void)what;
    if (store_flush(c->st) < 0)
        c->errors++;
    for (size_t i = 0; i < agentpool_count(c->pool); i++)
        agentpool_ack(agentpool_agent(c->pool, i));
}

static int64_t begin_run(struct store *st, const char *name)
{
    struct store_run_info info = { .name = name, .transport = "tcp", .platform = "bench", .network = "lo",
                                   .target = "none", .workload_name = "synthetic", .workload_hash = "",
                                   .plan_text = "", .score_params = "", .sessions_planned = 60,
                                   .started_us = clock_wall_us() };
    return store_run_begin(st, &info);
}

static double direct_rate(const char *path)
{
    char err[512];
    struct store *st = store_open(path, STORE_WRITE, err, sizeof err);
    if (!st)
        return 0;
    int64_t run = begin_run(st, "direct");
    store_set_batch(st, 20000, 1000000);
    uint64_t n = (uint64_t)AGENTS * PER_AGENT, t0 = clock_now_us();
    for (uint64_t i = 0; i < n; i++) {
        struct rec_sample s = { .session = (uint32_t)(i % 60), .loop = (uint32_t)(i / 60), .t_us = clock_wall_us(),
                                .value_us = 200000, .ok = 1, .is_measure = i % 6 == 0 };
        snprintf(s.name, sizeof s.name, "%s", i % 6 == 0 ? "vsi" : "app_start");
        store_add_sample(st, run, &s, 60);
    }
    store_flush(st);
    double secs = (clock_now_us() - t0) / 1e6;
    store_close(st);
    return n / secs;
}

int main(int argc, char **argv)
{
    log_init("bench_controller_ingest", LOG_WARN);
    if (argc > 1 && !strcmp(argv[1], "connect"))
        return synthetic_agent(argc - 1, argv + 1);
    char dir[] = "/tmp/bench_ctl_XXXXXX", db1[64], db2[64], self[4096], err[512], token[65];
    if (!mkdtemp(dir))
        return 1;
    snprintf(db1, sizeof db1, "%s/direct.db", dir);
    snprintf(db2, sizeof db2, "%s/link.db", dir);
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = 0;
    double direct = direct_rate(db1);

    struct ctl c = { 0 };
    c.base = event_base_new();
    c.st = store_open(db2, STORE_WRITE, err, sizeof err);
    if (!c.st || proto_new_token(token) < 0) {
        fprintf(stderr, "bench: %s\n", err);
        return 1;
    }
    c.run = begin_run(c.st, "link");
    store_set_batch(c.st, 20000, 1000000);
    struct agentpool_config pc = { .local = 1, .count = AGENTS, .token = token, .capacity = 30, .timeout_ms = 15000,
                              .agent_bin = self };
    struct agentpool_events ev = { .arg = &c, .records = on_records, .done = on_done, .lost = on_lost };
    c.pool = agentpool_new(c.base, &pc, &ev, err, sizeof err);
    if (!c.pool) {
        fprintf(stderr, "bench: %s\n", err);
        return 1;
    }
    struct event *t = event_new(c.base, -1, EV_PERSIST, tick, &c);
    struct timeval tv = { 0, 250000 };
    event_add(t, &tv);
    event_base_dispatch(c.base);
    store_flush(c.st);
    double secs = (clock_now_us() - c.first_us) / 1e6;
    double link = c.samples / secs;
    event_free(t);
    agentpool_free(c.pool);
    store_close(c.st);
    event_base_free(c.base);
    unlink(db1);
    unlink(db2);
    char path[128];
    snprintf(path, sizeof path, "%s/direct.db-wal", dir); unlink(path);
    snprintf(path, sizeof path, "%s/direct.db-shm", dir); unlink(path);
    snprintf(path, sizeof path, "%s/link.db-wal", dir); unlink(path);
    snprintf(path, sizeof path, "%s/link.db-shm", dir); unlink(path);
    rmdir(dir);

    printf("controller ingest: %d synthetic agents x %u samples over the agent link (batches of %u, <= %u unacked)\n",
           AGENTS, PER_AGENT, BATCH, WINDOW);
    printf("  %-44s %12.0f samples/s\n", "direct store inserts (no network, baseline)", direct);
    printf("  %-44s %12.0f samples/s  (%.2fx of direct)\n", "agents -> link -> store, committed + acked", link,
           direct > 0 ? link / direct : 0);
    printf("  target >= 50000 samples/s: %s (%.2fx the target)%s\n", link >= 50000 ? "met" : "NOT met", link / 50000,
           c.errors ? "  [errors occurred]" : "");
    return c.errors || c.samples != (uint64_t)AGENTS * PER_AGENT ? 1 : 0;
}
