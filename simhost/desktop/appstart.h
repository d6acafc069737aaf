/* appstart.h -- the `appstart` run-box command (a file-intensive application start: reads
 * SIM_APPSTART_FILES small files of the session's directory) and the per-session disk fair-share
 * throttle that `--io-fairshare on` puts in front of its file I/O: every read waits for a
 * scheduling slot (SIM_FAIRSHARE_OP_US of overhead per I/O) and for its bytes at
 * SIM_FAIRSHARE_BYTES_PER_S, like a host that shares disk bandwidth between sessions. */
#ifndef SIM_APPSTART_H
#define SIM_APPSTART_H

#include <stddef.h>
#include <stdint.h>

#include "simhost/desktop/apps.h"

#define SIM_APPSTART_FILES 300
#define SIM_APPSTART_FILE_BYTES 8192u
#define SIM_FAIRSHARE_OP_US 2000u              /* per I/O operation */
#define SIM_FAIRSHARE_BYTES_PER_S (8u << 20)   /* per session */

struct sim_fairshare {
    int on;
    uint64_t next_us;            /* when the session's next I/O may start */
};

/* Waits as the throttle demands before an I/O of `bytes` (no-op when off). */
void sim_fairshare_io(struct sim_fairshare *fs, size_t bytes);

/* Creates dir/app/ with the files unless present. Returns 0, or -1 with err. */
int sim_appstart_prepare(const char *dir, char *err, size_t errlen);

/* Reads every file through the throttle; fills out (window "appstart #N: K files, B bytes").
 * Returns 0, or -1 with an error window. */
int sim_appstart_run(const char *dir, int fairshare, unsigned seq, struct sim_app_out *out);

#endif
