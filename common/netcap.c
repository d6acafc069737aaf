/* netcap.c -- the privileges and tools the link emulator needs (see netcap.h). */
#include "common/netcap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char NEED[] = "a shaped network profile needs CAP_NET_ADMIN (run as root, or give the binaries "
                           "cap_net_admin with setcap), /dev/net/tun, and the ip and iptables commands "
                           "(iproute2, iptables)";

static int have_net_admin(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    char line[256];
    unsigned long long eff = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "CapEff: %llx", &eff) == 1)
            break;
    fclose(f);
    return (eff >> 12) & 1;   /* CAP_NET_ADMIN = 12 */
}

static int in_path(const char *cmd)
{
    const char *path = getenv("PATH");
    char dir[4096], full[4200];
    if (!path)
        path = "/usr/sbin:/usr/bin:/sbin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s", (int)(n < sizeof dir ? n : sizeof dir - 1), path);
        snprintf(full, sizeof full, "%s/%s", n ? dir : ".", cmd);
        if (access(full, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

int netcap_check(char *err, size_t errlen)
{
    if (!have_net_admin()) {
        snprintf(err, errlen, "%s: this process lacks CAP_NET_ADMIN", NEED);
        return -1;
    }
    if (access("/dev/net/tun", R_OK | W_OK) != 0) {
        snprintf(err, errlen, "%s: /dev/net/tun: %s", NEED, strerror(errno));
        return -1;
    }
    if (!in_path("ip") || !in_path("iptables")) {
        snprintf(err, errlen, "%s: %s is not installed", NEED, in_path("ip") ? "iptables" : "ip");
        return -1;
    }
    return 0;
}
