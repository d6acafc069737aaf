/* proto.h -- the controller<->agent wire protocol: frames, messages, and the authentication MAC.
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
#define PROTO_VERSION 1
#define PROTO_MAX_FRAME (1u << 20)     /* 1 MiB: a workload text plus headroom */
#define PROTO_NONCE_LEN 32
#define PROTO_MAC_LEN 32
#define PROTO_TEXT_MAX 4096            /* names, hosts, error texts */

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
    PROTO__COUNT
};
const char *proto_type_name(int type);

struct proto_hello {
    uint32_t version;
    char *name;
    uint32_t capacity;
    uint32_t pid;
    uint8_t nonce[PROTO_NONCE_LEN];
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
};

struct proto_config {
    char *host;
    uint16_t port;
    char *fingerprint;           /* "" when no_verify */
    uint8_t no_verify;
    char *security;              /* negotiate | tls | nla | rdp */
    char *domain;                /* "" when none */
    char *gateway_host;          /* "" unless transport gateway */
    uint16_t gateway_port;
    char *workload_name;         /* for messages */
    char *workload_text;         /* the YAML, loaded by the agent */
    uint32_t connect_timeout_ms;
    uint32_t traffic_interval_ms;
    uint32_t health_interval_ms;
};

struct proto_start {
    uint32_t index;
    char *user;
    char *password;              /* wiped by proto_msg_clear */
    uint64_t seed;
};

enum proto_record_kind { PROTO_REC_SAMPLE = 1, PROTO_REC_SESSION, PROTO_REC_TRAFFIC, PROTO_REC_HEALTH };

struct proto_record {
    enum proto_record_kind kind;
    union {
        struct rec_sample sample;
        struct rec_session session;
        struct rec_traffic traffic;
        struct rec_health health;
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

/* --- authentication ------------------------------------------------------------------------ */

/* HMAC-SHA256(token, label || nonce_a || nonce_b) into mac. label is "sessmax-ctl-v1" for the
 * controller's proof (nonce_a = agent nonce) and "sessmax-agent-v1" for the agent's. */
void proto_auth_mac(const char *token, const char *label, const uint8_t nonce_a[PROTO_NONCE_LEN],
                    const uint8_t nonce_b[PROTO_NONCE_LEN], uint8_t mac[PROTO_MAC_LEN]);
/* Constant-time comparison of two MACs; 1 when equal. */
int proto_mac_equal(const uint8_t a[PROTO_MAC_LEN], const uint8_t b[PROTO_MAC_LEN]);
/* Fills buf with cryptographically random bytes; 0 or -1. */
int proto_random(uint8_t *buf, size_t len);
/* A fresh random token as 64 hex characters (+ NUL) for local agents. */
int proto_new_token(char out[65]);

#endif
