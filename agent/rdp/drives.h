/* drives.h -- client drives of a workload (`drives:`) on the agent side.
 *
 * Layout under the engine's private config directory:
 *   drives/shared/NAME/FILE   generated once per agent (drive_gen content, mode 0444)
 *   drives/s<INDEX>/NAME/     one session's drive NAME: hard links to the shared files (a copy
 *                             only if links are impossible) plus whatever the server writes there
 * The session directory is removed when the session ends, so what the server wrote is deleted
 * while the shared files stay for the next sessions. Files are written in 1 MiB chunks: memory
 * does not grow with file size. */
#ifndef SESSMAX_DRIVES_H
#define SESSMAX_DRIVES_H

#include <stddef.h>
#include <stdint.h>

#include <freerdp/freerdp.h>

#include "common/workload.h"

/* Generates the shared files of wl's drives unless they exist with the right size. Blocking
 * (about 1 s per 300 MB here): a session's connect calls it on a connect thread, never the
 * loop, so only the first connect pays; callers on several threads take turns. Returns 0, or -1
 * with err naming the file. */
int drives_prepare(const char *config_dir, const struct workload *wl, char *err, size_t errlen);

/* Creates session `index`'s private drive directories; dir receives their parent
 * (config_dir/drives/s<index>). Returns 0, or -1 with err. */
int drives_session_setup(const char *config_dir, const struct workload *wl, uint32_t index,
                         char *dir, size_t dirlen, char *err, size_t errlen);

/* Adds one FreeRDP drive device per drive (NAME -> dir/NAME) and turns device redirection on.
 * Call after rdp_settings_push. Returns 0, or -1. */
int drives_apply(rdpSettings *st, const struct workload *wl, const char *dir);

/* PreConnect: loads FreeRDP's built-in rdpdr channel (it loads the drive devices itself) and
 * installs the rdpdr logon-order fix (compat/rdpdr_logon_order.h). Returns 0, or -1. */
int drives_pre_connect(freerdp *inst);

/* Removes a session's drive directories (what the server wrote included). File-system work of
 * tens of ms for a large copy: the session's end runs it on a connect thread. */
void drives_session_cleanup(const char *dir);

#endif
