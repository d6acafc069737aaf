/* failure.c -- an external-client session's process exits as failure reasons (failure.h). */
#include "agent/x11/failure.h"

#include <stdio.h>

#include "agent/x11/proc.h"

enum failure_reason x11_failure_client_exit(int status, int logging_off, int xserver_gone,
                                            const char *stderr_tail, char *detail, size_t len)
{
    char how[64];
    if (logging_off) {
        snprintf(detail, len, "client exited after logoff");
        return FAIL_NONE;
    }
    if (xserver_gone) {
        snprintf(detail, len, "X server (Xvfb) died; the client exited after it");
        return FAIL_XSERVER;
    }
    x11_proc_describe(status, how, sizeof how);
    snprintf(detail, len, "client %.60s%s%.90s", how, stderr_tail[0] ? ": " : "", stderr_tail);
    return FAIL_CLIENT_EXIT;
}

enum failure_reason x11_failure_xserver_exit(int status, char *detail, size_t len)
{
    char how[64];
    x11_proc_describe(status, how, sizeof how);
    snprintf(detail, len, "X server (Xvfb) %s", how);
    return FAIL_XSERVER;
}
