/* hostport.c -- "HOST:PORT" split at the last colon; a free loopback port. */
#include "common/hostport.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

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

int hostport_free_loopback(void)
{
    struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof sin;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port = -1;
    if (fd >= 0 && bind(fd, (struct sockaddr *)&sin, sizeof sin) == 0 &&
        getsockname(fd, (struct sockaddr *)&sin, &len) == 0)
        port = ntohs(sin.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}
