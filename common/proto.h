/* proto.h -- the controller<->agent wire protocol: frames and messages (the handshake MACs and frame
 * tags are in proto_auth.h).
 *
 * A frame is a 4-byte big-endian payload length followed by the payload; the payload starts with
 * one type byte. Frames larger than PROTO_MAX_FRAME are refused before any byte of them is
 * buffered. Integers are big-endian, strings are u32 length + bytes (no NUL inside). Every
 * decoder checks every length against what is left, so any byte string either decodes into a
 * message or yields a one-line reason; nothing here allocates more than the frame's own size.
 * docs/protocol.md describes the conversation. Pure code: no I/O, no libevent (see wire.h). */
#ifndef SESSMAX_PROTO_H
#define SESSMAX_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"

#define PROTO_MAGIC 0x534d4158u        /* "SMAX" */
#define PROTO_VERSION 2
#define PROTO_MAX_FRAME (1u << 20)     /* 1 MiB: a workload text plus headroom */
#define PROTO_NONCE_LEN 32
#define PROTO_MAC_LEN 32
#define PROTO_TAG_LEN 16             /* per-frame MAC after AUTH (HMAC-SHA256, truncated) */
#define PROTO_TICKET_LEN 16          /* resume ticket: WELCOME gives it, a reconnecting HELLO shows it */
#define PROTO_TEXT_MAX 4096            /* names, hosts, error texts */
#define PROTO_TOKEN_MIN_LEN 16         /* the shared token, enforced by controller and agent */
#define PROTO_TOKEN_MAX_LEN 64

enum proto_type {
    PROTO_HELLO = 1,       /* agent -> ctl: magic, version, name, capacity, pid, agent nonce */
    PROTO_CHALLENGE,       /* ctl -> agent: version, ctl nonce, ctl proof (MAC over both nonces) */
    PROTO_AUTH,            /* agent -> ctl: agent proof */
    PROTO_WELCOME,         /* ctl -> agent: agent id, heartbeat interval, silence timeout */
    PROTO_CONFIG,          /* ctl -> agent: target, workload text, engine settings */
    PROTO_START,           /* ctl -> agent: one session (index, user, password, seed) */
    PROTO_STOP,            /* ctl -> agent: log every session off within deadline_ms */
    PROTO_HEARTBEAT,       /* both ways */
    PROTO_RECORDS,         /* agent -> ctl: a numbered batch of results */
    PROTO_ACK,             /* ctl -> agent: every batch up to seq is committed to the store */
    PROTO_DONE,            /* agent -> ctl: every session ended after STOP */
    PROTO_ERROR,           /* both ways: one line, then the sender closes */
    PROTO_PING,            /* ctl -> agent: clock probe (id, controller wall clock) */
    PROTO_PONG,            /* agent -> ctl: the probe echoed with the agent's wall clock */
    PROTO__COUNT
};
const char *proto_type_name(int type);

struct proto_hello {
    uint32_t version;
    char *name;
    uint32_t capacity;
    uint32_t pid;
    uint8_t nonce[PROTO_NONCE_LEN];
    uint8_t ticket[PROTO_TICKET_LEN];   /* zeros: a new agent; else the ticket of the link it resumes */
};

struct proto_challenge {
    uint32_t version;
    uint8_t nonce[PROTO_NONCE_LEN];
    uint8_t proof[PROTO_MAC_LEN];
};

struct proto_welcome {
    uint32_t agent_id;
    uint32_t heartbeat_ms;
    uint32_t timeout_ms;
    uint32_t grace_ms;                  /* a lost link may be resumed within this long (0: never) */
    uint8_t resumed;                    /* 1: this link continues the agent named by the ticket */
    uint64_t acked_seq;                 /* resumed: every RECORDS batch up to this one is stored */
    uint8_t ticket[PROTO_TICKET_LEN];   /* show it in HELLO to resume after a lost link */
};

struct proto_ping {
    uint32_t id;
    uint64_t ctl_us;                    /* controller wall clock when sent (echoed in PONG) */
    uint64_t agent_us;                  /* PONG: agent wall clock when answered */
};

/* CONFIG is a list of tagged fields: (u16 tag, value) in ascending tag order, a field left out
 * takes its zero value ("" for strings), an unknown tag is an error (an agent older than its
 * controller says so instead of ignoring a setting). To add a setting, add one line here with
 * the next free tag: S(tag, name, max length) for a string, N(tag, name, max value) for a u32. */
#define PROTO_CONFIG_FIELDS(S, N)                                                                     \
    S(1, host, PROTO_TEXT_MAX)                                                                        \
    N(2, port, 65535)                                                                                 \
    S(3, fingerprint, PROTO_TEXT_MAX)   /* "" when no_verify */                                       \
    N(4, no_verify, 1)                                                                                \
    S(5, security, 32)                  /* negotiate | tls | nla | rdp */                             \
    S(6, domain, PROTO_TEXT_MAX)        /* "" when none */                                            \
    S(7, gateway_host, PROTO_TEXT_MAX)  /* "" unless transport gateway */                             \
    N(8, gateway_port, 65535)                                                                         \
    S(9, workload_name, PROTO_TEXT_MAX) /* for messages */                                            \
    S(10, workload_text, PROTO_MAX_FRAME) /* the YAML, loaded by the agent */                         \
    N(11, connect_timeout_ms, UINT32_MAX)                                                             \
    N(12, traffic_interval_ms, UINT32_MAX)                                                            \
    N(13, health_interval_ms, UINT32_MAX)                                                             \
    S(14, network_profile, PROTO_TEXT_MAX) /* JSON (common/netprofile.h); "" = lan, not shaped */    \
    S(15, drives, PROTO_TEXT_MAX)       /* the plan's drives: {NAME: {files: {FILE: BYTES}}}; "" none */ \
    N(16, max_loops, UINT32_MAX)        /* log each session off after this many loops; 0: never */    \
    N(17, logon_retries, 10)            /* fresh connections after a logon timeout */                  \
    N(18, shot_timers, 1)               /* with --shot-dir: a PNG at the end of each first-loop timer */ \
    S(19, client, PROTO_TEXT_MAX)       /* external client: JSON (common/x11_preset.h); "" = builtin */ \
    N(20, ext_costs, 1)                 /* 1: send health as kind health_ext (external clients' costs) */ \
    N(21, ext_capacity, 1)              /* 1: send it as health_cap (plus the capacity they allow) */ \
    N(22, logon_phases, 1)              /* 1: send each logon's phases (record kind logon) */          \
    N(23, min_rtt, 1)                   /* 1: send traffic as traffic_rtt (plus the minimum RTT) */ \
    N(24, agent_share, 1)               /* 1: samples with the agent's share as sample_agent, health as health_sched */

#define PROTO_CFG_STR_MEMBER(tag, name, max) char *name;
#define PROTO_CFG_NUM_MEMBER(tag, name, max) uint32_t name;
struct proto_config {
    PROTO_CONFIG_FIELDS(PROTO_CFG_STR_MEMBER, PROTO_CFG_NUM_MEMBER)
};

struct proto_start {
    uint32_t index;
    char *user;
    char *password;              /* wiped by proto_msg_clear */
    uint64_t seed;
};

/* PROTO_REC_HEALTH_EXT: a health record with the external clients' costs (the ext_ fields of
 * rec_health), sent instead of PROTO_REC_HEALTH only to a controller that set CONFIG ext_costs.
 * PROTO_REC_HEALTH_CAP: the same plus ext_capacity, instead of it when CONFIG ext_capacity is set.
 * PROTO_REC_LOGON: a logon's phases (rec_logon), only to a controller that set CONFIG logon_phases.
 * PROTO_REC_TRAFFIC_RTT: a traffic record plus min_rtt_us, instead of PROTO_REC_TRAFFIC only to a
 * controller that set CONFIG min_rtt.
 * PROTO_REC_SAMPLE_AGENT: a sample with its agent share (rec_sample.has_agent); PROTO_REC_HEALTH_SCHED:
 * the fields of health_cap plus the scheduler figures (rec_health.has_sched). Both only to a
 * controller that set CONFIG agent_share. */
enum proto_record_kind { PROTO_REC_SAMPLE = 1, PROTO_REC_SESSION, PROTO_REC_TRAFFIC, PROTO_REC_HEALTH,
                         PROTO_REC_HEALTH_EXT, PROTO_REC_HEALTH_CAP, PROTO_REC_LOGON,
                         PROTO_REC_TRAFFIC_RTT, PROTO_REC_SAMPLE_AGENT, PROTO_REC_HEALTH_SCHED };

struct proto_record {
    enum proto_record_kind kind;
    union {
        struct rec_sample sample;
        struct rec_session session;
        struct rec_traffic traffic;
        struct rec_health health;
        struct rec_logon logon;
    } u;
};

struct proto_records {
    uint64_t seq;
    uint32_t count;
    struct proto_record *recs;   /* count entries */
};

struct proto_done {
    uint32_t ended, failed;
};

/* A decoded message; strings and arrays are owned (proto_msg_clear frees them). */
struct proto_msg {
    enum proto_type type;
    union {
        struct proto_hello hello;
        struct proto_challenge challenge;
        uint8_t auth_proof[PROTO_MAC_LEN];
        struct proto_welcome welcome;
        struct proto_config config;
        struct proto_start start;
        uint32_t stop_deadline_ms;
        uint64_t heartbeat_t_us;
        struct proto_ping ping;         /* PING and PONG */
        struct proto_records records;
        uint64_t ack_seq;
        struct proto_done done;
        char *error;
    } u;
};

/* --- encoding ------------------------------------------------------------------------------ */

/* A growable output buffer; after an allocation failure `oom` is set and writes are ignored. */
struct proto_buf {
    uint8_t *data;
    size_t len, cap;
    int oom;
    size_t records_start;        /* the open RECORDS frame (proto_records_begin) */
    uint32_t records_count;
    int records_open;
};
void proto_buf_free(struct proto_buf *b);

/* Appends one complete frame holding msg. Returns 0, or -1 if it would exceed PROTO_MAX_FRAME or
 * memory ran out (the buffer is left as before). */
int proto_encode(struct proto_buf *b, const struct proto_msg *msg);

/* Incremental RECORDS frame: begin, add records (each returns -1 when the frame is full: end it
 * and start another), end. No other frame may be appended while one is open. */
int proto_records_begin(struct proto_buf *b, uint64_t seq);
int proto_records_add(struct proto_buf *b, const struct proto_record *r);
void proto_records_end(struct proto_buf *b);
/* Records in the open frame (0 after begin). */
uint32_t proto_records_open_count(const struct proto_buf *b);

/* --- decoding ------------------------------------------------------------------------------ */

/* Reads the 4-byte header: 0 and *payload_len when the frame is acceptable, -1 (with err) when
 * it is empty or larger than max_frame. */
int proto_frame_header(const uint8_t hdr[4], uint32_t max_frame, uint32_t *payload_len, char *err, size_t errlen);

/* Decodes one payload (type byte + body). Returns 0, or -1 with err and *msg cleared. The whole
 * payload must be consumed: trailing bytes are an error. */
int proto_decode(const uint8_t *payload, size_t len, struct proto_msg *msg, char *err, size_t errlen);

/* Frees what a decoded (or hand-built) message owns, wiping the password, and zeroes it. */
void proto_msg_clear(struct proto_msg *msg);

/* Splits a byte stream into frames and decodes them one after another (the fuzz target and the
 * test helpers use this). Calls fn for each message; stops at the first error. Returns the
 * number of bytes consumed (a trailing partial frame stays unconsumed), or -1 on a bad frame. */
long proto_parse_stream(const uint8_t *data, size_t len, uint32_t max_frame,
                        int (*fn)(void *ctx, struct proto_msg *msg), void *ctx, char *err, size_t errlen);

#endif
