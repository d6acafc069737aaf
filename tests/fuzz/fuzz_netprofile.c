/* fuzz_netprofile.c -- libFuzzer harness for the network profile decoders (common/netprofile.c,
 * netprofile_json.c): the JSON object an agent gets from its controller in CONFIG, and the plan's
 * `network:` YAML value. The first input byte picks the form, the rest is the text. Any bytes
 * either decode or give a one-line error; what decodes must re-encode to JSON that decodes to the
 * same profile (the agent's view equals the controller's). Nothing may crash, leak or hang. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/netprofile.h"
#include "common/ydoc.h"

static void one_line(const char *err)
{
    if (!err[0] || strchr(err, '\n')) {
        fprintf(stderr, "not one line: '%s'\n", err);
        abort();
    }
}

/* The profile must survive JSON both ways unchanged. */
static void round_trip(const struct netprofile *p)
{
    char err[512];
    struct netprofile q;
    char *js = netprofile_to_json(p), *again;
    if (!js)
        abort();
    if (netprofile_from_json(js, &q, err, sizeof err) != 0) {
        fprintf(stderr, "own JSON refused: %s (%s)\n", err, js);
        abort();
    }
    again = netprofile_to_json(&q);
    if (!again || strcmp(js, again) != 0) {
        fprintf(stderr, "round trip changed: %s -> %s\n", js, again ? again : "(null)");
        abort();
    }
    free(js);
    free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    struct netprofile p;
    if (size < 1)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    err[0] = '\0';
    if (data[0] & 1) {                       /* the CONFIG field: a JSON object */
        if (netprofile_from_json(text, &p, err, sizeof err) == 0)
            round_trip(&p);
        else
            one_line(err);
    } else {                                 /* the plan's value: "network: <text>" */
        size_t n = size - 1 + 16;
        char *doc = malloc(n);
        if (doc) {
            int len = snprintf(doc, n, "network: %s", text);
            struct ydoc *d = ydoc_load_string("fuzz.yaml", doc, (size_t)len, err, sizeof err);
            if (d) {
                err[0] = '\0';
                if (netprofile_from_node(d, ydoc_get(d->root, "network"), &p, err, sizeof err) == 0)
                    round_trip(&p);
                else
                    one_line(err);
                ydoc_free(d);
            }
            free(doc);
        }
    }
    free(text);
    return 0;
}
