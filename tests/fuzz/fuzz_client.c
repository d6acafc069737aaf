/* fuzz_client.c -- libFuzzer harness for the external client of a CONFIG (field 19, `client`):
 * the JSON (or bare preset name) the agent turns into a struct x11_client with
 * x11_client_from_json. Any text either parses or is refused with one non-empty line; nothing
 * may crash, leak or read out of bounds. What parses is used as the agent uses it (label,
 * transport, program, argv with every placeholder filled, the ICA file) and must survive a
 * round trip: to_json, from_json again, to_json gives the same text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/x11_preset.h"

static void one_line(const char *err)
{
    if (!err[0] || strchr(err, '\n')) {
        fprintf(stderr, "not one line: '%s'\n", err);
        abort();
    }
}

static void use(const struct x11_client *c)
{
    static const struct x11_vars v = { "host.example", "3389", "user\"'{x}", "DOM", "1024", "768", "tls",
                                       "/tmp/cert", "/tmp/pass", "/tmp/ica", ":99", "/tmp/dir", "wan" };
    char buf[X11_CMD_LEN], err[512];
    char *argv[X11_ARGV_MAX + 1];
    x11_client_label(c, buf, sizeof buf);
    x11_client_program(c, buf, sizeof buf);
    (void)x11_client_transport(c);
    (void)x11_client_source(c);
    err[0] = '\0';
    if (x11_client_argv(c, &v, argv, X11_ARGV_MAX, err, sizeof err) >= 0)
        x11_argv_free(argv);
    else
        one_line(err);
    char ica[4096];
    (void)x11_ica_file(c, &v, "pass\nword", ica, sizeof ica);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), err[512];
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct x11_client c, again;
    err[0] = '\0';
    if (x11_client_from_json(&c, text, err, sizeof err) != 0) {
        one_line(err);
        free(text);
        return 0;
    }
    use(&c);
    char *json = x11_client_to_json(&c), *json2 = NULL;
    if (json) {
        if (x11_client_from_json(&again, json, err, sizeof err) != 0) {
            fprintf(stderr, "'%s' does not parse back: %s\n", json, err);
            abort();
        }
        json2 = x11_client_to_json(&again);
        if (json2 && strcmp(json, json2)) {
            fprintf(stderr, "round trip changed '%s' into '%s'\n", json, json2);
            abort();
        }
    }
    free(json);
    free(json2);
    free(text);
    return 0;
}
