/* failure.h -- what an external-client session's process exits mean, as agent/rdp/failure.h is
 * for FreeRDP's errors: the reason (common/results.h) and a one-line detail. */
#ifndef SESSMAX_X11_FAILURE_H
#define SESSMAX_X11_FAILURE_H

#include <stddef.h>

#include "common/results.h"

/* The client exited with wait status `status`: a clean end while logging off (the workload's
 * logoff ended the remote session, FAIL_NONE), `xserver` when it only followed its X server,
 * else `client_exit` with how it exited and the last line of its stderr (stderr_tail, may be
 * ""). */
enum failure_reason x11_failure_client_exit(int status, int logging_off, int xserver_gone,
                                            const char *stderr_tail, char *detail, size_t len);

/* The X server (Xvfb) exited with wait status `status`: always `xserver`. */
enum failure_reason x11_failure_xserver_exit(int status, char *detail, size_t len);

#endif
