/* connect_marks.h -- when FreeRDP 2.11's TCP connect starts and ends, which no callback of its
 * tells. The agent's own _connect() (WinPR's, called only by FreeRDP's freerdp_tcp_connect) and
 * getsockname() (FreeRDP's first look at the connected socket, freerdp_tcp_get_ip_address, right
 * after its wait for the connect) come first in symbol lookup, as loop_sleep.c's Sleep() does:
 * they tell the callback armed on the calling thread, then call the real functions. A thread
 * that armed nothing pays one thread-local test per call. */
#ifndef SESSMAX_CONNECT_MARKS_H
#define SESSMAX_CONNECT_MARKS_H

/* On this thread, until connect_marks_disarm(): on_tcp(arg, 0) at each _connect(), before it
 * runs; on_tcp(arg, 1) at the first getsockname() of that socket after it. Around
 * freerdp_connect() on a connect worker. */
void connect_marks_arm(void (*on_tcp)(void *arg, int connected), void *arg);
void connect_marks_disarm(void);

#endif
