/* launch.h -- what an external-client session starts, in order: its Xvfb (display number
 * chosen by Xvfb itself through -displayfd, framebuffer in a file), the password helper
 * (`vncpasswd -f` for the vncviewer preset) and the client with its command line expanded from
 * the preset (common/x11_preset.h). Secrets go to stdin or to 0600 files in the session's own
 * 0700 directory, never to argv or the environment. Nothing here touches the loop: the
 * processes are started by a connector worker (start.h) and watched by the session. */
#ifndef SESSMAX_X11_LAUNCH_H
#define SESSMAX_X11_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "agent/x11/proc.h"
#include "agent/x11/settings.h"

#define X11_COOKIE_LEN 16

/* Writes a fresh cookie to DIR/xauth (0600; also the client's XAUTHORITY) and starts
 * `Xvfb -displayfd 3 -screen 0 WxHx24 -auth DIR/xauth -nocursor -nolisten tcp -noreset
 * -extension GLX` (without GLX: Mesa is never loaded, 55 MB less per X server): only a holder
 * of the cookie connects. *ready_fd receives the read end of the display-number pipe (the
 * caller reads and closes it). NULL with err on failure. */
struct x11_proc *x11_launch_xserver(const char *dir, uint32_t width, uint32_t height,
                                    uint8_t cookie[X11_COOKIE_LEN], int *ready_fd,
                                    char *err, size_t errlen);

/* Reads what Xvfb wrote on the display-number pipe so far into buf (*len bytes); returns the
 * display number once a full line arrived, -1 while not yet, -2 on EOF or a bad line. */
int x11_launch_read_display(int fd, char *buf, size_t cap, size_t *len);

/* Starts the password helper when the preset needs one (vncpasswd: writes DIR/passwd);
 * returns NULL with *needed = 0 when none is needed, NULL with *needed = 1 and err on failure. */
struct x11_proc *x11_launch_helper(const struct x11_launch_ctx *c, int *needed, char *err, size_t errlen);

/* Starts the client (stderr to DIR/client.stderr); NULL with err on failure. */
struct x11_proc *x11_launch_client(const struct x11_launch_ctx *c, char *err, size_t errlen);

/* Removes the secret files of a session directory (passwd, session.ica, xauth). */
void x11_launch_forget_secrets(const char *dir);

/* The last line of DIR/client.stderr (for a failure detail); "" when empty. */
void x11_launch_stderr_tail(const char *dir, char *out, size_t outlen);

/* Copies the last 4 KiB of DIR/client.stderr to path; 0 or -1. */
int x11_launch_save_stderr(const char *dir, const char *path);

#endif
