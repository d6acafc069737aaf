/* proto_auth.h -- the agent link's cryptography: handshake transcript, HMAC proofs bound to the
 * TLS channel, per-frame tags after AUTH, random nonces and tokens. Pure: OpenSSL only, no I/O.
 * The handshake that uses them is in wire.h; docs/protocol.md describes it. */
#ifndef SESSMAX_PROTO_AUTH_H
#define SESSMAX_PROTO_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include "common/proto.h"

/* The handshake transcript th = SHA-256(HELLO payload as encoded | u32 version | controller
 * nonce): both proofs and both frame keys cover it, so nothing of HELLO or CHALLENGE can be
 * changed in transit. */
void proto_transcript(const struct proto_hello *hello, uint32_t version, const uint8_t nonce_c[PROTO_NONCE_LEN],
                      uint8_t th[PROTO_MAC_LEN]);
/* HMAC-SHA256(token, label || th || binding) into mac. binding is the TLS channel binding (RFC
 * 9266 tls-exporter, 32 bytes) or zeros on plain TCP; it is concatenated, never mixed into data
 * the peer chose. Labels: PROTO_LABEL_* below. */
void proto_auth_mac(const char *token, const char *label, const uint8_t th[PROTO_MAC_LEN],
                    const uint8_t binding[PROTO_NONCE_LEN], uint8_t mac[PROTO_MAC_LEN]);
#define PROTO_LABEL_CTL "sessmax-ctl-v2"        /* the controller's proof (CHALLENGE) */
#define PROTO_LABEL_AGENT "sessmax-agent-v2"    /* the agent's proof (AUTH) */
#define PROTO_LABEL_KEY_C2A "sessmax-key-c2a-v2" /* frame key, controller -> agent */
#define PROTO_LABEL_KEY_A2C "sessmax-key-a2c-v2" /* frame key, agent -> controller */
/* The tag of one frame after AUTH: HMAC-SHA256(key, u64 seq || frame) truncated to
 * PROTO_TAG_LEN, where frame is the 4-byte header (its length counting the tag) and payload. */
void proto_frame_tag(const uint8_t key[PROTO_MAC_LEN], uint64_t seq, const uint8_t *frame, size_t len,
                     uint8_t tag[PROTO_TAG_LEN]);
int proto_tag_equal(const uint8_t a[PROTO_TAG_LEN], const uint8_t b[PROTO_TAG_LEN]);
/* Constant-time comparison of two MACs; 1 when equal. */
int proto_mac_equal(const uint8_t a[PROTO_MAC_LEN], const uint8_t b[PROTO_MAC_LEN]);
/* Fills buf with cryptographically random bytes; 0 or -1. */
int proto_random(uint8_t *buf, size_t len);
/* A fresh random token as 64 hex characters (+ NUL) for local agents. */
int proto_new_token(char out[65]);

#endif
