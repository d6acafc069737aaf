/* fuzz_x224.c -- libFuzzer harness for the probe's parse of a server's first answer
 * (agent/pin/x224.c): any bytes are a TPKT header and a Connection Confirm or a one-line reason,
 * never a read past the input; what parses is consistent with its bytes (the TPKT length is the
 * input's, a negotiation answer carries its 8-byte structure). The first four bytes also make a
 * request, which must have the fixed layout with those protocols. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/pin/x224.h"

static void one_line(const char *err)
{
    if (!err[0] || strchr(err, '\n')) {
        fprintf(stderr, "not one line: '%s'\n", err);
        abort();
    }
}

static void check_request(const uint8_t *data, size_t size)
{
    uint8_t req[X224_REQUEST_LEN];
    uint32_t p = 0;
    for (size_t i = 0; i < 4 && i < size; i++)
        p |= (uint32_t)data[i] << (8 * i);
    if (x224_build_request(p, req, sizeof req) != X224_REQUEST_LEN || req[0] != 3 || req[3] != X224_REQUEST_LEN ||
        req[5] != 0xe0 || req[11] != 1 ||
        (uint32_t)(req[15] | req[16] << 8 | req[17] << 16 | (uint32_t)req[18] << 24) != p)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    struct x224_confirm cc;
    uint8_t *copy = malloc(size ? size : 1);   /* exactly size bytes: ASan sees any overread */
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    err[0] = '\0';
    int n = x224_tpkt_length(copy, size, err, sizeof err);
    if (n < 0)
        one_line(err);
    else if (n > 0 && (n < 11 || n > X224_CONFIRM_MAX))
        abort();
    err[0] = '\0';
    if (x224_parse_confirm(copy, size, &cc, err, sizeof err) != 0) {
        one_line(err);
    } else {
        if (n != (int)size || size < 11)
            abort();
        if (cc.answer != X224_NO_NEGOTIATION && (copy[4] < 14 || size < 19))
            abort();
        if (cc.answer == X224_NO_NEGOTIATION && (cc.value || cc.flags))
            abort();
        if (cc.answer == X224_FAILURE && !x224_failure_text(cc.value)[0])
            abort();
    }
    check_request(copy, size);
    free(copy);
    return 0;
}
