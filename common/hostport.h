/* hostport.h -- splits "HOST:PORT" the one way every sessmax command line and plan does: at the
 * last colon, host non-empty, port decimal 0..65535. Callers add their own rules (port > 0,
 * brackets around IPv6 literals) on top. Also finds a free loopback port for a local listener. */
#ifndef SESSMAX_HOSTPORT_H
#define SESSMAX_HOSTPORT_H

#include <stddef.h>
#include <stdint.h>

/* Copies the host into host[hostlen] and the port into *port. Without a colon, the port is
 * default_port when it is non-zero, else the text is refused. Returns 0, or -1 on bad text. */
int hostport_split(const char *s, uint16_t default_port, char *host, size_t hostlen, uint16_t *port);

/* A TCP port free on 127.0.0.1 at the time of the call (bound to port 0, read back, released),
 * for a local listener started next. Returns it, or -1. */
int hostport_free_loopback(void);

#endif
