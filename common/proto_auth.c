/* proto_auth.c -- the agent link's cryptography: handshake transcript, HMAC proofs bound to the
 * TLS channel (RFC 9266 exporter, concatenated into the MAC input), per-frame tags after AUTH,
 * random nonces and tokens. Pure: OpenSSL only, no I/O. */
#include "common/proto_auth.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <string.h>

void proto_transcript(const struct proto_hello *hello, uint32_t version, const uint8_t nonce_c[PROTO_NONCE_LEN],
                      uint8_t th[PROTO_MAC_LEN])
{
    struct proto_buf b = { 0 };
    struct proto_msg m = { .type = PROTO_HELLO };
    m.u.hello = *hello;
    uint8_t v[4] = { (uint8_t)(version >> 24), (uint8_t)(version >> 16), (uint8_t)(version >> 8), (uint8_t)version };
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    unsigned n = 0;
    if (c && EVP_DigestInit_ex(c, EVP_sha256(), NULL) && proto_encode(&b, &m) == 0 &&
        EVP_DigestUpdate(c, b.data + 4, b.len - 4) && EVP_DigestUpdate(c, v, 4) &&
        EVP_DigestUpdate(c, nonce_c, PROTO_NONCE_LEN))
        EVP_DigestFinal_ex(c, th, &n);
    if (n != PROTO_MAC_LEN)
        proto_random(th, PROTO_MAC_LEN);   /* no agreement possible: the handshake fails */
    EVP_MD_CTX_free(c);
    proto_buf_free(&b);
}

static void hmac_parts(const void *key, size_t keylen, const void *p1, size_t l1, const void *p2, size_t l2,
                       const void *p3, size_t l3, uint8_t out[PROTO_MAC_LEN])
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
    OSSL_PARAM params[] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0), OSSL_PARAM_END };
    size_t n = 0;
    memset(out, 0, PROTO_MAC_LEN);
    if (ctx && EVP_MAC_init(ctx, key, keylen, params) && EVP_MAC_update(ctx, p1, l1) && EVP_MAC_update(ctx, p2, l2) &&
        EVP_MAC_update(ctx, p3, l3))
        EVP_MAC_final(ctx, out, &n, PROTO_MAC_LEN);
    if (n != PROTO_MAC_LEN)
        proto_random(out, PROTO_MAC_LEN);   /* a failed MAC must not be predictable */
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
}

void proto_auth_mac(const char *token, const char *label, const uint8_t th[PROTO_MAC_LEN],
                    const uint8_t binding[PROTO_NONCE_LEN], uint8_t mac[PROTO_MAC_LEN])
{
    hmac_parts(token, strlen(token), label, strlen(label), th, PROTO_MAC_LEN, binding, PROTO_NONCE_LEN, mac);
}

void proto_frame_tag(const uint8_t key[PROTO_MAC_LEN], uint64_t seq, const uint8_t *frame, size_t len,
                     uint8_t tag[PROTO_TAG_LEN])
{
    uint8_t s[8], full[PROTO_MAC_LEN];
    for (int i = 0; i < 8; i++)
        s[i] = (uint8_t)(seq >> (56 - 8 * i));
    hmac_parts(key, PROTO_MAC_LEN, s, 8, frame, len, "", 0, full);
    memcpy(tag, full, PROTO_TAG_LEN);
}

int proto_tag_equal(const uint8_t a[PROTO_TAG_LEN], const uint8_t b[PROTO_TAG_LEN])
{
    return CRYPTO_memcmp(a, b, PROTO_TAG_LEN) == 0;
}

int proto_mac_equal(const uint8_t a[PROTO_MAC_LEN], const uint8_t b[PROTO_MAC_LEN])
{
    return CRYPTO_memcmp(a, b, PROTO_MAC_LEN) == 0;
}

int proto_random(uint8_t *buf, size_t len)
{
    return RAND_bytes(buf, (int)len) == 1 ? 0 : -1;
}

int proto_new_token(char out[65])
{
    uint8_t raw[32];
    if (proto_random(raw, sizeof raw) < 0)
        return -1;
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
    OPENSSL_cleanse(raw, sizeof raw);
    return 0;
}
