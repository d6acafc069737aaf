/* loop_sleep.c -- WinPR's Sleep() on the loop thread (contract and why: loop_sleep.h). */
#include "compat/loop_sleep.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#include <winpr/synch.h>

#include "common/clock.h"
#include "common/log.h"

#define LOOP_SLEEP_MAX_HANDLES 8

static _Thread_local rdpContext *loop_ctx;
static _Thread_local int loop_ending;
static _Thread_local uint64_t loop_waited_us;     /* in this check, so far */
static _Thread_local void (*loop_on_slept)(uint64_t us);

static VOID (*real_sleep)(DWORD);
static pthread_once_t sleep_once = PTHREAD_ONCE_INIT;

static void sleep_resolve(void)
{
    real_sleep = (VOID(*)(DWORD))dlsym(RTLD_NEXT, "Sleep");
}

void loop_sleep_enter(rdpContext *ctx, int ending, void (*on_slept)(uint64_t us))
{
    loop_ctx = ctx;
    loop_on_slept = on_slept;
    loop_ending = ending;
    loop_waited_us = 0;
}

void loop_sleep_leave(void)
{
    loop_ctx = NULL;
}

int loop_sleep_wait_fds(const int *fds, unsigned n, uint32_t timeout_ms)
{
    struct pollfd p[LOOP_SLEEP_MAX_HANDLES];
    unsigned k = 0;
    for (unsigned i = 0; i < n && k < LOOP_SLEEP_MAX_HANDLES; i++)
        if (fds[i] >= 0)
            p[k++] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
    int r;
    do
        r = poll(p, k, (int)timeout_ms);
    while (r < 0 && errno == EINTR);
    return r < 0 ? -1 : r > 0;
}

/* The loop thread inside a session's check: wait for what FreeRDP waits for, not a fixed time. */
static void loop_sleep(DWORD ms)
{
    HANDLE h[LOOP_SLEEP_MAX_HANDLES];
    int fds[LOOP_SLEEP_MAX_HANDLES];
    DWORD n = freerdp_get_event_handles(loop_ctx, h, LOOP_SLEEP_MAX_HANDLES);
    for (DWORD i = 0; i < n; i++)
        fds[i] = GetEventFileDescriptor(h[i]);
    uint32_t budget = ms;
    if (loop_ending) {
        uint64_t left_us = LOOP_SLEEP_ENDING_MS * 1000u;
        left_us = loop_waited_us < left_us ? left_us - loop_waited_us : 0;
        budget = (uint32_t)((left_us + 999) / 1000) < ms ? (uint32_t)((left_us + 999) / 1000) : ms;
    }
    uint64_t t0 = clock_now_us();
    int ready = budget ? loop_sleep_wait_fds(fds, n, budget) : 0;
    uint64_t took = clock_now_us() - t0;
    loop_waited_us += took;
    if (loop_on_slept)
        loop_on_slept(took);
    if (loop_ending && ready <= 0 && loop_waited_us >= LOOP_SLEEP_ENDING_MS * 1000u) {
        /* Deactivate All while logging off and nothing behind it: the server is ending the
         * session. The abort event (not freerdp_abort_connect, which would record a cancelled
         * connect) makes FreeRDP's nested loop give up and the check report the end. */
        log_debug("Deactivate All while logging off, no PDU within %u ms: taken as the server's end",
                  LOOP_SLEEP_ENDING_MS);
        SetEvent(loop_ctx->abortEvent);
    }
}

VOID Sleep(DWORD dwMilliseconds)
{
    if (loop_ctx) {
        loop_sleep(dwMilliseconds);
        return;
    }
    pthread_once(&sleep_once, sleep_resolve);
    if (real_sleep)
        real_sleep(dwMilliseconds);
    else
        usleep((useconds_t)dwMilliseconds * 1000u);
}
