/* netcap.h -- can this process shape a network profile here? The controller asks before it starts
 * local agents (they inherit its privileges); agents ask before they build the emulator. */
#ifndef SESSMAX_NETCAP_H
#define SESSMAX_NETCAP_H

#include <stddef.h>

/* 0 when the process has CAP_NET_ADMIN, /dev/net/tun is usable and the ip and iptables commands
 * are installed; else -1 with err saying what is needed. */
int netcap_check(char *err, size_t errlen);

#endif
