/* log.h -- leveled logging to stderr, one line per message, prefixed with the program name.
 *
 * Thread-safe (one write(2) per line). log_ratelimited() lets hot paths report a storm of
 * failures without turning it into a storm of I/O on the loop being measured: at most `burst`
 * lines per key per second, then a count of what was suppressed. Control characters in a
 * message are written as \xNN (a peer's text cannot forge a line). Never log secrets. */
#ifndef SESSMAX_LOG_H
#define SESSMAX_LOG_H

enum log_level { LOG_ERROR = 0, LOG_WARN = 1, LOG_INFO = 2, LOG_DEBUG = 3 };

/* Sets the program name shown in each line ("sessmax-agent") and the threshold. */
void log_init(const char *program, enum log_level level);
void log_set_level(enum log_level level);
enum log_level log_get_level(void);
/* Parses "error", "warn", "info", "debug"; returns -1 on anything else. */
int log_parse_level(const char *name);

void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Rate-limited variant for hot paths; `key` is a static string naming the kind of message. */
void log_ratelimited(enum log_level level, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Copies in to out with bytes below 0x20 and 0x7f as \xNN (truncated to fit); returns the length. */
#include <stddef.h>
size_t log_escape(char *out, size_t outlen, const char *in);
/* Formats like snprintf (up to 2 KiB) and copies the result to out as log_escape does: an error
 * message that quotes outside text stays one printable line. Returns -1, so an error path can
 * `return log_escapef(err, errlen, ...)`. */
int log_escapef(char *out, size_t outlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)
#define log_warn(...)  log_msg(LOG_WARN, __VA_ARGS__)
#define log_info(...)  log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif
