/* desktop.h -- one session's emulated desktop (the layout of docs/simhost.md): state,
 * keyboard handling and rendering of any rectangle on demand.
 *
 * Layout at 1024x768 (other sizes keep the offsets; the taskbar and run box follow the bottom):
 *   taskbar   0,740 1024x28     "Start" left, user name right
 *   run box   8,600 420x132     title "Run", one input line
 *   app       112,60 800x600    24 px title bar, body text
 *   dialog    262,160 500x420   title "Open", a directory listing
 * Z-order from the bottom: background, taskbar, app, dialog, run box. Every state change adds
 * the rectangles it affects to `dirty`; the peer renders and sends only those. No I/O here. */
#ifndef SIM_DESKTOP_H
#define SIM_DESKTOP_H

#include <stdint.h>

#include "simhost/desktop/canvas.h"
#include "simhost/desktop/cmd.h"
#include "simhost/desktop/kbd.h"

#define SIM_LINES 34
#define SIM_COLS 96

#define SIM_RGB_BACKGROUND 0x2D6A8Eu
#define SIM_RGB_TASKBAR    0x202830u
#define SIM_RGB_RUN_TITLE  0x3465A4u
#define SIM_RGB_DIALOG_TITLE 0x555555u
#define SIM_RGB_EDIT_TITLE 0x2E7D32u
#define SIM_RGB_ZIP9_TITLE 0xC62828u
#define SIM_RGB_ZIP1_TITLE 0xEF6C00u
#define SIM_RGB_CPU_TITLE  0x6A1B9Au
#define SIM_RGB_ERROR_TITLE 0x6D4C41u

struct sim_window {
    int open;
    uint32_t title_rgb;
    char title[SIM_COLS + 1];
    char line[SIM_LINES][SIM_COLS + 1];
    int nlines;
};

struct sim_desktop {
    int w, h;
    char user[64];
    int run_open;
    char run_text[SIM_COLS + 1];
    int run_len;
    struct sim_window app;
    int editor;                      /* the app window is the editor: typing echoes */
    char edit_text[SIM_COLS + 1];
    int edit_len;
    struct sim_window dlg;
    unsigned mods;                   /* SIM_MOD_* bits held */
    unsigned seq;                    /* action sequence number (the session layer bumps it) */
    struct sim_dirty dirty;
};

/* What a key asks the session to do. */
enum sim_key_result {
    SIM_KEY_NONE = 0,     /* handled (or ignored) inside the desktop */
    SIM_KEY_COMMAND,      /* enter in the run box: run `cmd` (SIM_CMD_NONE for an empty line) */
    SIM_KEY_OPEN_DIALOG,  /* ctrl+o in the editor: list the directory, then sim_desktop_show_dialog */
};

/* Initial state; the whole screen is dirty. */
void sim_desktop_init(struct sim_desktop *d, const char *user, int w, int h);
/* A key event: code = scancode set 1 make code | SIM_KBD_EXT (kbd.h), down != 0 for press. */
enum sim_key_result sim_desktop_key(struct sim_desktop *d, uint32_t scancode, int down,
                                    struct sim_cmd *cmd);
/* A typed character (Unicode keyboard events): same effect as its key with the current state. */
enum sim_key_result sim_desktop_char(struct sim_desktop *d, char c, struct sim_cmd *cmd);

/* Replaces the app window (a new app replaces the old; closes the dialog). `editor` turns input
 * echo on. lines may be NULL when n == 0. */
void sim_desktop_show_app(struct sim_desktop *d, const char *title, uint32_t title_rgb, int editor,
                          const char *const *lines, int n);
void sim_desktop_show_dialog(struct sim_desktop *d, const char *const *lines, int n);
void sim_desktop_close_app(struct sim_desktop *d);
/* Marks the whole screen (or a rectangle, clipped) dirty: RefreshRect, SuppressOutput(allow). */
void sim_desktop_invalidate(struct sim_desktop *d, struct sim_rect r);

/* Renders the desktop into c (any window of desktop coordinates). */
void sim_desktop_render(const struct sim_desktop *d, const struct sim_font *f, struct sim_canvas *c);

/* Geometry of the elements for this desktop size. */
struct sim_rect sim_desktop_taskbar_rect(const struct sim_desktop *d);
struct sim_rect sim_desktop_run_rect(const struct sim_desktop *d);
struct sim_rect sim_desktop_app_rect(const struct sim_desktop *d);
struct sim_rect sim_desktop_dialog_rect(const struct sim_desktop *d);

#endif
