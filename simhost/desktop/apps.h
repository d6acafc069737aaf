/* apps.h -- the "applications" behind the run-box commands: real work on the calling (session)
 * thread, then a text result for the app window.
 *
 *   edit FILE   start-up work (PRNG over SIM_EDIT_START_BYTES x scale), then reads FILE and shows
 *               its first lines
 *   zip9/zip1   zlib level 9/1 over SIM_ZIP9/ZIP1_BYTES x scale of input (FILE's bytes, re-read
 *               from the start as often as needed), compressed output written to FILE.z9/.z1
 *   cpu         CPU-heavy PRNG output over SIM_CPU_BYTES x scale, through a 4 MB buffer
 *   open        readdir() of the session directory (the file-open dialog)
 * The work is linear in scale, which is what the cost model relies on. Thread-safe: no globals. */
#ifndef SIM_APPS_H
#define SIM_APPS_H

#include <stddef.h>
#include <stdint.h>

#include "simhost/desktop/cmd.h"
#include "simhost/desktop/desktop.h"

#define SIM_DOC_COUNT 3
#define SIM_DOC_BYTES (320u * 1024u)
#define SIM_EDIT_START_BYTES (160ull << 20)
#define SIM_ZIP9_BYTES (3584ull << 10)
#define SIM_ZIP1_BYTES (14ull << 20)
#define SIM_CPU_BYTES (560ull << 20)

struct sim_app_out {
    char title[SIM_COLS + 1];
    uint32_t title_rgb;
    int editor;                       /* show as the editor (input echo on) */
    char line[SIM_LINES][SIM_COLS + 1];
    int n;
};

/* Creates dir (0700) and doc1.txt..doc3.txt (SIM_DOC_BYTES of text each) unless they exist with
 * that size. Returns 0, or -1 with err naming the path. */
int sim_apps_prepare_dir(const char *dir, char *err, size_t errlen);

/* Runs cmd in dir with the work multiplied by scale; seq is shown in the result. Fills out (an
 * error window when the work fails, e.g. a missing file) and returns 0 on success, -1 on failure.
 * SIM_CMD_LOGOFF and SIM_CMD_NONE do no work and return 0 with out->n == 0. */
int sim_app_run(const struct sim_cmd *cmd, const char *dir, double scale, unsigned seq,
                struct sim_app_out *out);

/* The PRNG work itself (also the editor's start-up work); returns a digest of the output. */
uint64_t sim_apps_prng(uint64_t bytes, uint64_t seed);
/* Shutdown: from now on the work of every action in progress or to come stops at its next chunk
 * (a few ms; its window may be wrong or an error: the clients are being disconnected), so that
 * exit need not wait for a whole action of each session. */
void sim_apps_cancel(void);

#endif
