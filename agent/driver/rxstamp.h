/* rxstamp.h -- when a TCP socket's unread data arrived, from the kernel's software receive
 * timestamp (SO_TIMESTAMPNS, read with a one-byte MSG_PEEK that consumes nothing). The kernel
 * stamps each receive buffer when a segment reaches the socket, and re-stamps a buffer with the
 * newest segment it merges into it: so the stamp is the arrival of the newest bytes of the first
 * unread buffer -- after a quiet moment (a screen update and then nothing), the arrival of the
 * update's last byte. Used by the agent to time its own share of a response (docs/scoring.md). */
#ifndef SESSMAX_RXSTAMP_H
#define SESSMAX_RXSTAMP_H

#include <stdint.h>

/* Asks the kernel to stamp what fd receives. 0, or -1 (errno) when it cannot: rxstamp_ready_us
 * then answers now_us. */
int rxstamp_enable(int fd);

/* The monotonic µs (clock_now_us) at which the first unread buffer of fd arrived, given now_us,
 * the monotonic time of the call. now_us when fd has nothing unread, carries no stamp, or the
 * stamp is later than now (a clock step). Never blocks; loop thread or any thread. */
uint64_t rxstamp_ready_us(int fd, uint64_t now_us);

/* The same from the stamp's wall-clock age: now_us - age_us, clamped to [0, now_us]; age_us < 0
 * (a stamp after the wall clock's now) gives now_us. Pure (for tests). */
uint64_t rxstamp_from_age(uint64_t now_us, int64_t age_us);

#endif
