/* seed_proto.c -- writes the agent-link fuzzer's seed corpus with the real encoder
 * (common/proto.c): one file per message type, a RECORDS batch with one record of each kind, and
 * a stream of all of them. Seeds follow the encoder whenever the protocol changes.
 * usage: seed_proto DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto.h"

static int count(void *ctx, struct proto_msg *m)
{
    (void)m;
    ++*(size_t *)ctx;
    return 0;
}

/* Writes b to DIR/NAME after checking that the decoder takes all of it (a seed it refused would
 * only teach the fuzzer the refusal). */
static int save(const char *dir, const char *name, const struct proto_buf *b)
{
    char path[4096], err[256];
    size_t n = 0;
    if (proto_parse_stream(b->data, b->len, PROTO_MAX_FRAME, count, &n, err, sizeof err) != (long)b->len || !n) {
        fprintf(stderr, "seed_proto: the decoder refuses %s: %s\n", name, err);
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->data, 1, b->len, f) != b->len || fclose(f) != 0) {
        fprintf(stderr, "seed_proto: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

/* Encodes m into its own file and appends it to the stream. */
static int one(const char *dir, const char *name, const struct proto_msg *m, struct proto_buf *all)
{
    struct proto_buf b = { 0 };
    int rc = proto_encode(&b, m) == 0 && proto_encode(all, m) == 0 ? save(dir, name, &b) : -1;
    if (rc != 0)
        fprintf(stderr, "seed_proto: cannot encode %s\n", name);
    proto_buf_free(&b);
    return rc;
}

/* One RECORDS frame with one record of each kind, appended to b. */
static int add_records(struct proto_buf *b)
{
    struct proto_record r[10];
    memset(r, 0, sizeof r);
    r[0].kind = PROTO_REC_SAMPLE;
    r[0].u.sample = (struct rec_sample){ .session = 3, .loop = 1, .t_us = 1000000000000000ull,
                                         .value_us = 250000, .ok = 1, .is_measure = 1 };
    snprintf(r[0].u.sample.name, sizeof r[0].u.sample.name, "vsi");
    r[1].kind = PROTO_REC_SESSION;
    r[1].u.session = (struct rec_session){ .session = 3, .t_us = 1000000000000000ull,
                                           .kind = SESSION_FAILED, .reason = FAIL_WAIT_TIMEOUT };
    snprintf(r[1].u.session.user, sizeof r[1].u.session.user, "simuser004");
    snprintf(r[1].u.session.detail, sizeof r[1].u.session.detail, "wait timeout");
    r[2].kind = PROTO_REC_TRAFFIC;
    r[2].u.traffic = (struct rec_traffic){ .session = 3, .t_us = 1, .bytes_in = 1, .bytes_out = 2,
                                           .wire_in = 3, .wire_out = 4, .rtt_us = 500, .frames = 9 };
    r[3].kind = PROTO_REC_HEALTH;
    r[3].u.health = (struct rec_health){ .t_us = 1, .sessions_active = 30, .sessions_connecting = 1,
                                         .lag_p50_us = 100, .lag_p99_us = 900, .lag_max_us = 5000,
                                         .cpu_permille = 400, .rss_kb = 65536 };
    r[4].kind = PROTO_REC_HEALTH_EXT;       /* to a controller that set CONFIG ext_costs */
    r[4].u.health = r[3].u.health;
    r[4].u.health.ext.sessions = 4;
    r[4].u.health.ext.cpu_permille = 350;
    r[4].u.health.ext.client_rss_kb = 210000;
    r[4].u.health.ext.client_pss_kb = 150000;
    r[4].u.health.ext.xserver_rss_kb = 90000;
    r[4].u.health.ext.xserver_pss_kb = 60000;
    r[5].kind = PROTO_REC_HEALTH_CAP;       /* to a controller that set CONFIG ext_capacity */
    r[5].u.health = r[4].u.health;
    r[5].u.health.ext_capacity = 12;
    r[6].kind = PROTO_REC_LOGON;            /* to a controller that set CONFIG logon_phases */
    r[6].u.logon = (struct rec_logon){ .session = 3, .t_us = 1000000000000000ull,
                                       .phase_us = { 1200, 80, 9000, 600000, 3000, -1 } };
    r[7].kind = PROTO_REC_TRAFFIC_RTT;      /* to a controller that set CONFIG min_rtt */
    r[7].u.traffic = r[2].u.traffic;
    r[7].u.traffic.min_rtt_us = 40;
    r[8].kind = PROTO_REC_SAMPLE_AGENT;     /* to a controller that set CONFIG agent_share */
    r[8].u.sample = r[0].u.sample;
    r[8].u.sample.has_agent = 1;
    r[8].u.sample.agent_us = 1800;
    r[9].kind = PROTO_REC_HEALTH_SCHED;     /* likewise */
    r[9].u.health = r[5].u.health;
    r[9].u.health.has_sched = 1;
    r[9].u.health.loop_cpu_permille = 420;
    r[9].u.health.loop_delay_permille = 35;
    r[9].u.health.delay_permille = 60;
    r[9].u.health.loop_wakeups = 900;
    int rc = proto_records_begin(b, 7);
    for (int i = 0; i < 10 && rc == 0; i++)
        rc = proto_records_add(b, &r[i]);
    proto_records_end(b);
    return rc == 0 && !b->oom ? 0 : -1;
}

static int records(const char *dir, struct proto_buf *all)
{
    struct proto_buf b = { 0 };
    int rc = add_records(&b) == 0 && add_records(all) == 0 ? save(dir, "records", &b) : -1;
    proto_buf_free(&b);
    return rc;
}

/* One seed per message type (RECORDS is added by records()); byte fields are filled by
 * fill_bytes so that every field of every message is non-zero. */
static const struct seed {
    const char *name;
    struct proto_msg m;
} SEEDS[] = {
    { "hello", { PROTO_HELLO, .u.hello = { .version = PROTO_VERSION, .name = "agent-1", .capacity = 30, .pid = 99 } } },
    { "challenge", { PROTO_CHALLENGE, .u.challenge = { .version = PROTO_VERSION } } },
    { "auth", { PROTO_AUTH, .u.auth_proof = { 'A' } } },
    { "welcome", { PROTO_WELCOME, .u.welcome = { .agent_id = 1, .heartbeat_ms = 1000, .timeout_ms = 5000,
                                                 .grace_ms = 30000, .resumed = 1, .acked_seq = 6 } } },
    { "config", { PROTO_CONFIG, .u.config = { .host = "127.0.0.1", .port = 3389, .fingerprint = "sha256:AA:BB",
                                              .security = "tls", .domain = "", .gateway_host = "",
                                              .workload_name = "w",
                                              .workload_text = "version: 1\nname: w\nlogon: {change: screen}\n"
                                                               "loop: [{think: 1s}]\n",
                                              .connect_timeout_ms = 30000, .traffic_interval_ms = 5000,
                                              .health_interval_ms = 2000 } } },
    { "config-client", { PROTO_CONFIG, .u.config = { .host = "127.0.0.1", .port = 3389, .security = "tls",
                                                     .workload_name = "w", .workload_text = "version: 1\n",
                                                     .network_profile = "{\"name\":\"wan\",\"rtt_ms\":50}",
                                                     .drives = "{share: {files: {f: 1048576}}}",
                                                     .client = "{\"x11\":\"xfreerdp\",\"transport\":\"udp\"}",
                                                     .no_verify = 1, .domain = "CORP", .gateway_host = "gw",
                                                     .gateway_port = 443, .max_loops = 3, .logon_retries = 2,
                                                     .shot_timers = 1, .ext_costs = 1, .ext_capacity = 1,
                                                     .logon_phases = 1, .min_rtt = 1 } } },
    { "start", { PROTO_START, .u.start = { .index = 4, .user = "simuser005", .password = "pw", .seed = 42 } } },
    { "stop", { PROTO_STOP, .u.stop_deadline_ms = 60000 } },
    { "heartbeat", { PROTO_HEARTBEAT, .u.heartbeat_t_us = 1000000000000000ull } },
    { "ping", { PROTO_PING, .u.ping = { .id = 3, .ctl_us = 1000000000000000ull } } },
    { "pong", { PROTO_PONG, .u.ping = { .id = 3, .ctl_us = 1000000000000000ull, .agent_us = 1000000000000100ull } } },
    { "ack", { PROTO_ACK, .u.ack_seq = 7 } },
    { "done", { PROTO_DONE, .u.done = { .ended = 9, .failed = 1 } } },
    { "error", { PROTO_ERROR, .u.error = "bad token" } },
};

static void fill_bytes(struct proto_msg *m)
{
    switch (m->type) {
    case PROTO_HELLO: memset(m->u.hello.nonce, 'N', sizeof m->u.hello.nonce); break;
    case PROTO_CHALLENGE:
        memset(m->u.challenge.nonce, 'C', sizeof m->u.challenge.nonce);
        memset(m->u.challenge.proof, 'P', sizeof m->u.challenge.proof);
        break;
    case PROTO_AUTH: memset(m->u.auth_proof, 'A', sizeof m->u.auth_proof); break;
    case PROTO_WELCOME: memset(m->u.welcome.ticket, 'T', sizeof m->u.welcome.ticket); break;
    default: break;
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seed_proto DIR\n");
        return 64;
    }
    const char *dir = argv[1];
    struct proto_buf all = { 0 };
    int rc = 0;
    for (size_t i = 0; i < sizeof SEEDS / sizeof *SEEDS; i++) {
        struct proto_msg m = SEEDS[i].m;
        fill_bytes(&m);
        rc |= one(dir, SEEDS[i].name, &m, &all);
        if (m.type == PROTO_PONG)
            rc |= records(dir, &all);   /* the stream keeps the protocol's order */
    }
    rc |= save(dir, "stream", &all);
    proto_buf_free(&all);
    return rc ? 1 : 0;
}
