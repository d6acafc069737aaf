/* x11_preset.h -- external X11 clients as a session's screen: the presets (xfreerdp, vncviewer,
 * citrix, vmware-view), their options, and the command line of one session.
 *
 * A plan says `client: builtin` (the FreeRDP engine) or `client: {x11: PRESET-or-command, ...}`;
 * the controller checks it with these functions and sends it to the agent as JSON (CONFIG
 * field `client`), where the same functions turn it into one command line per session. The run's
 * transport label comes from the preset and its options (x11_client_transport), never from free
 * text. Placeholders in a command template are {name}; a word whose placeholders all expand to
 * "" is left out (so `/d:{domain}` disappears without a domain). Secrets never reach argv: the
 * password goes to the client's stdin, or into a 0600 file named by {passfile} / {icafile}. */
#ifndef SESSMAX_X11_PRESET_H
#define SESSMAX_X11_PRESET_H

#include <stddef.h>
#include <stdint.h>

#define X11_CMD_LEN 1024
#define X11_ARGV_MAX 64

/* How the client gets the password. */
enum x11_secret {
    X11_SECRET_NONE = 0,    /* it does not need one */
    X11_SECRET_STDIN,       /* one line on its stdin (xfreerdp /from-stdin:force) */
    X11_SECRET_VNCPASSWD,   /* {passfile}: 0600, written by `vncpasswd -f` (VNC's DES obfuscation) */
    X11_SECRET_ICA,         /* inside the generated 0600 ICA file {icafile} (Citrix) */
};

struct x11_client {
    char preset[24];            /* "xfreerdp", "vncviewer", "citrix", "vmware-view"; "" = command */
    char command[X11_CMD_LEN];  /* the template: the preset's, or the plan's own command */
    char args[256];             /* extra words appended to the command (plan option `args`) */
    char transport[16];         /* the run's transport label: tcp | edt | udp */
    enum x11_secret secret;
    uint32_t width, height;     /* the X server's screen; 0: the engine's desktop size */
    uint32_t window_timeout_ms; /* launch -> first window mapped, else client_timeout; 30 s */
};

/* Values the template may name: {host} {port} {user} {domain} {width} {height} {security}
 * {cert} {passfile} {icafile} {display} {dir} {network}. NULL members expand to "", and a word
 * whose every placeholder is empty is left out. */
struct x11_vars {
    const char *host, *port, *user, *domain, *width, *height, *security, *cert;
    const char *passfile, *icafile, *display, *dir;
    const char *network;        /* the link type the client announces, in FreeRDP's /network: words */
};

/* Empties c and fills defaults. */
void x11_client_init(struct x11_client *c);
/* Sets one option: x11 (preset name or command template), transport, resolution ("WxH"),
 * args, password (stdin | vncpasswd | none; command templates only), window_timeout (a duration
 * "30s", "500ms"). Returns 0, or -1 with err saying what is wrong. */
int x11_client_set(struct x11_client *c, const char *key, const char *value, char *err, size_t errlen);
/* After the last set: checks the whole (x11 given, transport allowed by the preset, every
 * placeholder known). 0 or -1 with err. */
int x11_client_finish(struct x11_client *c, char *err, size_t errlen);

/* The label of the client for reports: the preset's name, or "x11:" and the command's first word. */
void x11_client_label(const struct x11_client *c, char *out, size_t outlen);
/* The transport label of the run. */
const char *x11_client_transport(const struct x11_client *c);
/* The words the preset adds for the run's transport (vmware-view: "--enableUDP=FALSE" for tcp,
 * "--enableUDP=TRUE" for udp); "" for a command template or a preset with one transport. */
void x11_client_transport_words(const struct x11_client *c, char *out, size_t outlen);
/* The program the command starts (first word of the template). */
void x11_client_program(const struct x11_client *c, char *out, size_t outlen);
/* Where a missing program comes from ("Debian package freerdp2-x11", a download URL, ...). */
const char *x11_client_source(const struct x11_client *c);

/* Full path of a program as exec would find it (PATH lookup unless it holds '/'); 0, or -1 when
 * it is not executable. */
int x11_which(const char *prog, char *out, size_t outlen);

/* JSON text of the options (for CONFIG), malloc'd; NULL on allocation failure. */
char *x11_client_to_json(const struct x11_client *c);
/* Parses that JSON (or a bare preset name) into c; 0 or -1 with err. */
int x11_client_from_json(struct x11_client *c, const char *text, char *err, size_t errlen);

/* Expands the command (plus args) into argv[0..n-1] (NULL-terminated, malloc'd strings; free
 * with x11_argv_free). Returns n, or -1 with err (unknown placeholder, unbalanced quote, too
 * many words). Words are split at blanks; '...' and "..." quote. */
int x11_client_argv(const struct x11_client *c, const struct x11_vars *v, char **argv, size_t max,
                    char *err, size_t errlen);
void x11_argv_free(char **argv);

/* The Citrix ICA file for one session (the password inside: write it 0600). Returns the
 * length written (< outlen), -1 when it does not fit, or -2 when a value (user, password,
 * domain, host...) holds a CR or LF, which would add lines of its own to the file. */
int x11_ica_file(const struct x11_client *c, const struct x11_vars *v, const char *password,
                 char *out, size_t outlen);

#endif
