/* link_opts.c -- options and token of `sessmax-agent connect` (see link_opts.h). */
#include "agent/link/link_opts.h"

#include "common/names.h"
#include "common/numarg.h"
#include "common/proto.h"
#include "common/secret_file.h"
#include "common/tls.h"
#include "common/ydoc.h"

#include <getopt.h>
#include <limits.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#define CAPACITY_MAX 100000
#define THREADS_MAX 256
#define BUFFER_MIB_MAX 65536
#define BUFFER_MIB_DEFAULT 64

static const char *usage_text =
    "usage: sessmax-agent connect HOST:PORT [--name NAME] [--capacity N] [--controller-wait DURATION]\n"
    "                             [--tls [--tls-pin sha256:...|--tls-pin-cert FILE|--tls-insecure]]\n"
    "                             [--shot-dir DIR] [--config-dir DIR] [--connect-threads N]\n"
    "                             [--token-file FILE | --token-fd N] [--buffer-mib N] [--spill-dir DIR]\n"
    "The shared token (16-64 characters) comes from --token-file (mode 0600 or stricter), an inherited\n"
    "descriptor --token-fd, or the environment variable SESSMAX_TOKEN -- never the command line.\n"
    "If the controller link breaks, sessions go on and their results wait (up to --buffer-mib MiB in\n"
    "memory, default 64, then in a 0600 file in --spill-dir, default $TMPDIR or /tmp) until the agent\n"
    "has reconnected and the controller acknowledged them.\n"
    "--controller-wait 2m: while no controller answers yet (refused, unreachable, unknown name), try\n"
    "again with backoff (0.5 s doubling to 5 s) for that long, then exit 69; default 0 (one attempt).\n"
    "--tls-pin-cert FILE pins the certificate in FILE (PEM: the controller's agents.tls_cert).\n";

enum { O_NAME = 256, O_CAPACITY, O_TLS, O_PIN, O_INSECURE, O_SHOTS, O_TOKEN_FILE, O_TOKEN_FD, O_CONFIG_DIR,
       O_THREADS, O_BUFFER, O_SPILL, O_WAIT, O_PIN_CERT };

static const struct option LONGOPTS[] = {
    { "name", required_argument, NULL, O_NAME },
    { "capacity", required_argument, NULL, O_CAPACITY },
    { "tls", no_argument, NULL, O_TLS },
    { "tls-pin", required_argument, NULL, O_PIN },
    { "tls-insecure", no_argument, NULL, O_INSECURE },
    { "shot-dir", required_argument, NULL, O_SHOTS },
    { "token-file", required_argument, NULL, O_TOKEN_FILE },
    { "token-fd", required_argument, NULL, O_TOKEN_FD },
    { "config-dir", required_argument, NULL, O_CONFIG_DIR },
    { "connect-threads", required_argument, NULL, O_THREADS },
    { "buffer-mib", required_argument, NULL, O_BUFFER },
    { "spill-dir", required_argument, NULL, O_SPILL },
    { "controller-wait", required_argument, NULL, O_WAIT },
    { "tls-pin-cert", required_argument, NULL, O_PIN_CERT },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

/* A decimal number in [min, max], or a one-line error naming the option and the value. */
static int number(const char *opt, const char *val, unsigned long min, unsigned long max, unsigned *out)
{
    char err[300];
    unsigned long v;
    if (numarg_ulong(opt, val, min, max, &v, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax-agent connect: %s\n", err);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "sessmax-agent connect: %s%s%s%s (see --help)\n", what, arg ? " '" : "", arg ? arg : "",
            arg ? "'" : "");
    return EX_USAGE;
}

/* --controller-wait: a duration with a unit ("90s", "2m"), at most a day. */
static int wait_option(struct link_opts *o, const char *v)
{
    if (ydoc_parse_duration_us(v, &o->wait_us) < 0 || o->wait_us > 86400000000ull) {
        fprintf(stderr, "sessmax-agent connect: --controller-wait: expected a duration up to 24h (e.g. 120s, 2m), "
                        "got '%s'\n", v);
        return -1;
    }
    return 0;
}

/* --tls-pin-cert: the fingerprint of the certificate in the file becomes the pin. */
static int pin_cert_option(struct link_opts *o, const char *path)
{
    char err[400];
    if (tls_file_fingerprint(path, o->pin_buf, err, sizeof err) < 0) {
        fprintf(stderr, "sessmax-agent connect: --tls-pin-cert: %s\n", err);
        return -1;
    }
    o->pin = o->pin_buf;
    o->tls = 1;
    return 0;
}

static int option(struct link_opts *o, int c, const char *v)
{
    unsigned fd;
    switch (c) {
    case O_NAME:
        if (!name_is_safe(v)) {
            fprintf(stderr, "sessmax-agent connect: --name: use 1 to %d characters, each one of %s\n",
                    RESULTS_NAME_LEN - 1, NAMES_CHARSET_TEXT);
            return -1;
        }
        o->name = v;
        return 0;
    case O_CAPACITY: return number("--capacity", v, 1, CAPACITY_MAX, &o->capacity);
    case O_TLS: o->tls = 1; return 0;
    case O_PIN: o->pin = v; o->tls = 1; return 0;
    case O_INSECURE: o->insecure = 1; o->tls = 1; return 0;
    case O_SHOTS: o->shot_dir = v; return 0;
    case O_TOKEN_FILE: o->token_file = v; return 0;
    case O_TOKEN_FD:
        if (number("--token-fd", v, 0, INT_MAX, &fd) < 0)
            return -1;
        o->token_fd = (int)fd;
        return 0;
    case O_CONFIG_DIR: o->config_dir = v; return 0;
    case O_THREADS: return number("--connect-threads", v, 1, THREADS_MAX, &o->connect_threads);
    case O_BUFFER: return number("--buffer-mib", v, 1, BUFFER_MIB_MAX, &o->buffer_mib);
    case O_SPILL: o->spill_dir = v; return 0;
    case O_WAIT: return wait_option(o, v);
    case O_PIN_CERT: return pin_cert_option(o, v);
    default: return -1;
    }
}

int link_opts_parse(int argc, char **argv, struct link_opts *o)
{
    int c;
    o->token_fd = -1;
    optind = 0;                  /* 0, not 1: re-initialises getopt after main()'s own scan */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", LONGOPTS, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage_text, stdout);
            return -1;
        }
        if (c == '?' || c == ':')
            return usage_error(c == ':' ? "option needs a value:" : "unknown option", argv[optind - 1]);
        if (option(o, c, optarg) < 0)
            return EX_USAGE;
    }
    if (optind < argc)
        o->addr = argv[optind++];
    if (optind < argc)
        return usage_error("unexpected argument", argv[optind]);
    if (!o->addr)
        return usage_error("missing HOST:PORT", NULL);
    if (o->tls && !o->pin && !o->insecure)
        return usage_error("with --tls give --tls-pin sha256:... (printed by the controller) or --tls-insecure",
                           NULL);
    if (!o->capacity)
        o->capacity = 100;
    if (!o->buffer_mib)
        o->buffer_mib = BUFFER_MIB_DEFAULT;
    if (!o->spill_dir)
        o->spill_dir = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
    return 0;
}

/* Reads the token from fd (up to the maximum length, one trailing newline dropped). */
static char *token_from_fd(int fd, const char *what)
{
    char buf[PROTO_TOKEN_MAX_LEN + 4];   /* the token, "\r\n", NUL, and one byte to see "too long" */
    size_t got = 0;
    ssize_t k;
    while (got < sizeof buf - 1 && (k = read(fd, buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)k;
    buf[got] = 0;
    buf[strcspn(buf, "\r\n")] = 0;
    char *t = got < sizeof buf - 1 ? strdup(buf) : NULL;
    if (got >= sizeof buf - 1)
        fprintf(stderr, "sessmax-agent connect: the token in %s is longer than %d characters\n", what,
                PROTO_TOKEN_MAX_LEN);
    OPENSSL_cleanse(buf, sizeof buf);
    return t;
}

/* A token file is a secret file (common/secret_file.h: owner-only, regular, not a link). */
static char *token_from_file(const char *path)
{
    char buf[PROTO_TOKEN_MAX_LEN + 4], err[PATH_MAX + 128];   /* see token_from_fd */
    char *t = NULL;
    if (secret_file_read(path, "token file", buf, sizeof buf, err, sizeof err) < 0)
        fprintf(stderr, "sessmax-agent connect: %s\n", err);
    else if (strlen(buf) > PROTO_TOKEN_MAX_LEN)
        fprintf(stderr, "sessmax-agent connect: the token in %s is longer than %d characters\n", path,
                PROTO_TOKEN_MAX_LEN);
    else
        t = strdup(buf);
    OPENSSL_cleanse(buf, sizeof buf);
    return t;
}

char *link_opts_token(const struct link_opts *o)
{
    char *t = NULL;
    const char *env = getenv("SESSMAX_TOKEN");
    if (o->token_file) {
        t = token_from_file(o->token_file);
    } else if (o->token_fd >= 0) {
        t = token_from_fd(o->token_fd, "--token-fd");
        close(o->token_fd);
    } else if (env && env[0]) {
        t = strdup(env);
    } else {
        fprintf(stderr, "sessmax-agent connect: give the controller's agent token in SESSMAX_TOKEN or "
                        "--token-file FILE\n");
    }
    unsetenv("SESSMAX_TOKEN");
    unsetenv("SESSMAX_PASSWORD");   /* passwords come in START; one inherited (export=ALL) is no use here */
    if (t && (strlen(t) < PROTO_TOKEN_MIN_LEN || strlen(t) > PROTO_TOKEN_MAX_LEN)) {
        fprintf(stderr, "sessmax-agent connect: the token must have %d-%d characters (it has %zu)\n",
                PROTO_TOKEN_MIN_LEN, PROTO_TOKEN_MAX_LEN, strlen(t));
        OPENSSL_cleanse(t, strlen(t));
        free(t);
        t = NULL;
    }
    return t;
}
