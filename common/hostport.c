/* hostport.c -- "HOST:PORT" split at the last colon. */
#include "common/hostport.h"

#include <stdlib.h>
#include <string.h>

int hostport_split(const char *s, uint16_t default_port, char *host, size_t hostlen, uint16_t *port)
{
    const char *colon = s ? strrchr(s, ':') : NULL;
    size_t hl = colon ? (size_t)(colon - s) : (s ? strlen(s) : 0);
    long v = default_port;
    if (!s || (!colon && !default_port) || hl == 0 || hl >= hostlen)
        return -1;
    if (colon) {
        char *end;
        v = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || *end || v < 0 || v > 65535)
            return -1;
    }
    memcpy(host, s, hl);
    host[hl] = '\0';
    *port = (uint16_t)v;
    return 0;
}
