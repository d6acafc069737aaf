/* failure.h -- the one place that turns FreeRDP's last error, the server's Set Error Info code,
 * a Save Session Info logon error, socket errno and the connect watchdog into sessmax's
 * enum failure_reason (common/results.h). No other file knows FreeRDP's error lists. */
#ifndef SESSMAX_FAILURE_H
#define SESSMAX_FAILURE_H

#include <stddef.h>
#include <stdint.h>

#include "common/results.h"

/* What a session knows when it fails or ends. Zero-initialise, then fill what is known. */
struct failure_facts {
    uint32_t last_error;     /* freerdp_get_last_error(); 0 = none */
    uint32_t error_info;     /* freerdp_error_info(): server Set Error Info PDU; 0 = none */
    int have_logon_error;    /* a Save Session Info logon error arrived */
    uint32_t logon_error_type, logon_error_data;   /* LOGON_MSG_* / LOGON_FAILED_* */
    int sys_errno;           /* errno from the session's socket, 0 = none */
    int cert_rejected;       /* our certificate check refused the server's certificate */
    int watchdog;            /* the connect watchdog fired for this attempt */
    int connected;           /* freerdp_connect() had succeeded (failure while logging on/running) */
    int logoff_requested;    /* the engine had asked this session to log off */
    int desktop_ready;       /* the workload's logon (desktop-ready) condition had held */
    uint32_t relogged_by;    /* 1 + index of a newer live session of the same user; 0 = none */
    const char *peer;        /* "HOST:PORT" the attempt connected to, named in the detail; NULL none */
    int peer_errno;          /* errno of a plain TCP connect to the peer after a transport failure
                                (failure_wants_peer_errno); 0 = not probed or it connected */
};

/* Classifies; FAIL_NONE means a clean end (e.g. the server logged us off after we asked).
 * A server logoff (ERRINFO_LOGOFF_BY_USER) that was not asked for means, in this order:
 * `replaced` when a newer session of the same user exists (xrdp and Windows hand the desktop
 * to the newer logon and log the older client off), `auth` when the desktop was never ready
 * (xrdp with require_credentials answers a wrong password so, ~2 s after connect), else
 * `disconnect`.
 * Writes a one-line, secret-free detail naming the underlying code into detail (may be NULL);
 * a failure to connect starts with the peer and, when known, its errno: "10.0.0.5:3389: connection
 * refused (ERRCONNECT_CONNECT_TRANSPORT_FAILED, last_error 0x0002000d, errinfo 0x0)"; an `auth`
 * failure starts with "authentication failed: " and the code: "authentication failed:
 * LOGON_FAILED_BAD_PASSWORD in the server's logon error info (last_error 0x00010009, errinfo 0x9)".
 * A Save Session Info logon error is read as MS-RDPBCGR 2.2.10.1.1.4.1.1 defines it: a LOGON_MSG_*
 * type carries a session id (only LOGON_MSG_NO_PERMISSION refuses the logon), ERROR_CODE_ACCESS_DENIED
 * refuses it, and any other type is an NTSTATUS (STATUS_LOGON_FAILURE, ..._ACCOUNT_LOCKED_OUT, ...)
 * with a LOGON_FAILED_* code in the data (LOGON_WARNING is no failure). */
enum failure_reason failure_classify(const struct failure_facts *f, char *detail, size_t len);

/* 1 when the attempt failed to reach the peer at all (FreeRDP's connect or transport error,
 * before connecting, no watchdog): FreeRDP 2.11 keeps no errno for it (errno after
 * freerdp_connect() is its teardown's ENOTCONN), so the caller learns it with a plain TCP
 * connect to the peer and sets peer_errno. */
int failure_wants_peer_errno(const struct failure_facts *f);

/* 1 if the engine's retry policy may try again after this reason (connect and connect timeout
 * only; never auth, TLS, refused). */
int failure_retryable(enum failure_reason r);

#endif
