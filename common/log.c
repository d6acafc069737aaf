/* log.c -- leveled, rate-limitable logging to stderr. */
#include "common/log.h"

#include "common/clock.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char *log_program = "sessmax";
static volatile int log_threshold = LOG_INFO;
static const char *const level_names[] = { "error", "warn", "info", "debug" };

void log_init(const char *program, enum log_level level)
{
    log_program = program;
    log_threshold = level;
}

void log_set_level(enum log_level level) { log_threshold = level; }
enum log_level log_get_level(void) { return (enum log_level)log_threshold; }

int log_parse_level(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcasecmp(name, level_names[i]) == 0)
            return i;
    if (strcasecmp(name, "warning") == 0)
        return LOG_WARN;
    return -1;
}

size_t log_escape(char *out, size_t outlen, const char *in)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    if (!outlen)
        return 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && o + 1 < outlen; p++) {
        if (*p >= 0x20 && *p != 0x7f) {
            out[o++] = (char)*p;
        } else if (o + 4 < outlen) {
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[*p >> 4];
            out[o++] = hex[*p & 15];
        } else {
            break;
        }
    }
    out[o] = 0;
    return o;
}

/* fmt formatted, then escaped into out; returns the length written. */
static size_t log_vescape(char *out, size_t outlen, const char *fmt, va_list ap)
{
    char msg[2048];
    if (vsnprintf(msg, sizeof msg, fmt, ap) < 0)
        msg[0] = 0;
    return log_escape(out, outlen, msg);
}

int log_escapef(char *out, size_t outlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_vescape(out, outlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* One line: the message's control characters (a peer's text may hold newlines or terminal
 * escapes) are written as \xNN, so nobody can forge or hide log lines. */
static void log_vwrite(enum log_level level, const char *fmt, va_list ap)
{
    char line[2048];
    int n = snprintf(line, sizeof line, "%s: %s: ", log_program, level_names[level]);
    if (n < 0 || (size_t)n >= sizeof line)
        return;
    size_t len = (size_t)n + log_vescape(line + n, sizeof line - 1 - (size_t)n, fmt, ap);
    line[len++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, len);
    (void)w;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
    if ((int)level > log_threshold)
        return;
    va_list ap;
    va_start(ap, fmt);
    log_vwrite(level, fmt, ap);
    va_end(ap);
}

/* A handful of slots is enough: keys are static strings naming message kinds. */
#define RL_SLOTS 32
static struct { const char *key; uint64_t window_start_us; unsigned count, suppressed; } rl[RL_SLOTS];
static pthread_mutex_t rl_lock = PTHREAD_MUTEX_INITIALIZER;

void log_ratelimited(enum log_level level, const char *key, const char *fmt, ...)
{
    enum { BURST = 5 };
    if ((int)level > log_threshold)
        return;
    uint64_t now = clock_now_us();
    unsigned suppressed = 0;
    int emit = 1;
    pthread_mutex_lock(&rl_lock);
    int slot = 0;
    for (int i = 0; i < RL_SLOTS; i++) {
        if (rl[i].key == key || rl[i].key == NULL) { slot = i; break; }
    }
    if (rl[slot].key != key) {
        rl[slot].key = key; rl[slot].window_start_us = now; rl[slot].count = 0; rl[slot].suppressed = 0;
    }
    if (now - rl[slot].window_start_us >= 1000000u) {
        suppressed = rl[slot].suppressed;
        rl[slot].window_start_us = now; rl[slot].count = 0; rl[slot].suppressed = 0;
    }
    if (++rl[slot].count > BURST) {
        rl[slot].suppressed++;
        emit = 0;
    }
    pthread_mutex_unlock(&rl_lock);
    if (suppressed)
        log_msg(level, "(%u similar '%s' messages suppressed)", suppressed, key);
    if (!emit)
        return;
    va_list ap;
    va_start(ap, fmt);
    log_vwrite(level, fmt, ap);
    va_end(ap);
}
