/* wlog_loggers.h -- works around WinPR 2.11's logger creation race: WLog_Get looks a name up and
 * inserts it under two separate takes of the root's lock, so connect threads asking for the same
 * new logger at once each create one and all but one leak. Creating every logger the connect path
 * uses once, on one thread, before the first connect, leaves the workers only lookups. */
#ifndef SESSMAX_COMPAT_WLOG_LOGGERS_H
#define SESSMAX_COMPAT_WLOG_LOGGERS_H

/* Creates the loggers; idempotent, not thread-safe (call before any connect thread works). */
void wlog_loggers_create(void);

#endif
