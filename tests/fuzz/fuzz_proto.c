/* fuzz_proto.c -- libFuzzer harness for the agent-link frame splitter and message decoder.
 *
 * Any byte string must either decode or be refused with a reason; nothing may crash, leak or
 * read out of bounds (ASan/UBSan). Every message that decodes is re-encoded and decoded again,
 * and the second decode must succeed and give the same re-encoding (a round-trip oracle). A CONFIG
 * that decodes has its client (field 19) and network profile parsed as the agent does
 * (agent/link/link.c); fuzz_client and fuzz_netprofile go deeper into each.
 * Built by tests/integration/fuzz.sh with clang -fsanitize=fuzzer,address,undefined. */
#include "common/netprofile.h"
#include "common/proto.h"
#include "common/x11_preset.h"

#include <stdlib.h>
#include <string.h>

/* What the agent does with a CONFIG's texts before it starts anything. */
static void use_config(const struct proto_config *c)
{
    char err[512];
    if (c->client && c->client[0]) {
        struct x11_client x;
        x11_client_from_json(&x, c->client, err, sizeof err);
    }
    if (c->network_profile && c->network_profile[0]) {
        struct netprofile net;
        netprofile_lan(&net);
        netprofile_from_json(c->network_profile, &net, err, sizeof err);
    }
}

static int check_roundtrip(void *ctx, struct proto_msg *m)
{
    (void)ctx;
    if (m->type == PROTO_CONFIG)
        use_config(&m->u.config);
    struct proto_buf a = { 0 }, b = { 0 };
    char err[256];
    if (proto_encode(&a, m) == 0) {
        struct proto_msg again;
        if (proto_decode(a.data + 4, a.len - 4, &again, err, sizeof err) != 0)
            abort();
        if (proto_encode(&b, &again) != 0 || a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
            abort();
        proto_msg_clear(&again);
    }
    proto_buf_free(&a);
    proto_buf_free(&b);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    struct proto_msg m;
    /* as a stream of frames (the limit small, so oversized headers are exercised too) */
    proto_parse_stream(data, size, 1u << 16, check_roundtrip, NULL, err, sizeof err);
    /* as one payload */
    if (proto_decode(data, size, &m, err, sizeof err) == 0) {
        check_roundtrip(NULL, &m);
        proto_msg_clear(&m);
    }
    return 0;
}
