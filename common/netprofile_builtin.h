/* netprofile_builtin.h -- what a network profile is (struct netprofile, the RDP connection type
 * a client announces) and the built-in profiles, with the plain lookups on them that both of its
 * encodings (the plan's YAML, netprofile.h; JSON, netprofile_json.h) use. netprofile.h includes
 * it, so callers keep including netprofile.h. */
#ifndef SESSMAX_NETPROFILE_BUILTIN_H
#define SESSMAX_NETPROFILE_BUILTIN_H

#include <stddef.h>
#include <stdint.h>

#define NETPROFILE_NAME_LEN 48
#define NETPROFILE_QUEUE_DEFAULT 1000   /* packets, as netem's default limit */
#define NETPROFILE_QUEUE_MAX 100000

/* RDP connection type the client announces (MS-RDPBCGR 2.2.1.3.2 connectionType; same values as
 * FreeRDP's CONNECTION_TYPE_*). */
enum netprofile_conn {
    NETPROFILE_CONN_MODEM = 1,
    NETPROFILE_CONN_BROADBAND_LOW = 2,
    NETPROFILE_CONN_SATELLITE = 3,
    NETPROFILE_CONN_BROADBAND_HIGH = 4,
    NETPROFILE_CONN_WAN = 5,
    NETPROFILE_CONN_LAN = 6,
    NETPROFILE_CONN_AUTODETECT = 7,
};

/* One profile. The RTT is split evenly between the two directions; loss applies to each direction
 * independently; rate 0 means unlimited. "down" is server -> client. */
struct netprofile {
    char name[NETPROFILE_NAME_LEN];
    uint32_t rtt_us;
    uint32_t jitter_us;           /* each direction: delay uniform in [rtt/2 - jitter, rtt/2 + jitter] */
    double loss;                  /* fraction per direction, 0 <= loss < 0.5 */
    uint64_t rate_down_bps;       /* bits per second; 0: unlimited */
    uint64_t rate_up_bps;
    uint32_t queue_pkts;          /* bottleneck queue per direction (packets) before tail drop */
    enum netprofile_conn conn;    /* what the client announces to the server */
};

/* The profile that shapes nothing ("lan"). */
void netprofile_lan(struct netprofile *p);

/* Built-in profile by name: 0, or -1 if unknown. */
int netprofile_builtin(const char *name, struct netprofile *out);
/* The built-in names, comma-separated, for messages ("lan, wan-50ms, ..."). */
const char *netprofile_builtin_list(void);
/* i-th built-in (0-based); NULL past the end. */
const struct netprofile *netprofile_builtin_at(size_t i);

/* 1 if the profile changes anything on the wire (delay, jitter, loss or a rate). */
int netprofile_is_shaped(const struct netprofile *p);

const char *netprofile_conn_name(enum netprofile_conn c);
/* Name -> value; -1 if unknown. */
int netprofile_conn_parse(const char *name, enum netprofile_conn *out);
/* The type a client on this link announces, when the profile does not say: by rate and RTT,
 * following the bands of MS-RDPBCGR (modem <= 256 kbit/s, broadband-low < 2 Mbit/s, satellite
 * RTT >= 500 ms, broadband-high < 10 Mbit/s, wan RTT >= 20 ms, else lan). */
enum netprofile_conn netprofile_conn_derive(const struct netprofile *p);

#endif
