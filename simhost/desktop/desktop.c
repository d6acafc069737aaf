/* desktop.c -- desktop state machine (run box, app window, dialog) and its renderer. */
#include "simhost/desktop/desktop.h"

#include "simhost/desktop/kbd.h"

#include <stdio.h>
#include <string.h>

#define TITLE_H 24
#define TEXT_PAD 8
#define RGB_WHITE 0xFFFFFFu
#define RGB_BLACK 0x000000u
#define RGB_BORDER 0x1A1A1Au
#define RGB_RUN_BODY 0xECECECu
#define RGB_DIALOG_BODY 0xF5F5F5u
#define RGB_START 0x3C8C3Cu

struct sim_rect sim_desktop_taskbar_rect(const struct sim_desktop *d)
{
    return (struct sim_rect){ 0, d->h - 28, d->w, 28 };
}
struct sim_rect sim_desktop_run_rect(const struct sim_desktop *d)
{
    return (struct sim_rect){ 8, d->h - 168, 420, 132 };
}
struct sim_rect sim_desktop_app_rect(const struct sim_desktop *d)
{
    (void)d;
    return (struct sim_rect){ 112, 60, 800, 600 };
}
struct sim_rect sim_desktop_dialog_rect(const struct sim_desktop *d)
{
    (void)d;
    return (struct sim_rect){ 262, 160, 500, 420 };
}

static struct sim_rect run_input_rect(const struct sim_desktop *d)
{
    struct sim_rect r = sim_desktop_run_rect(d);
    return (struct sim_rect){ r.x + 12, r.y + 60, r.w - 24, 24 };
}

/* The editor's cursor line (first body line); only this rectangle changes on input echo. */
static struct sim_rect edit_line_rect(const struct sim_desktop *d)
{
    struct sim_rect r = sim_desktop_app_rect(d);
    return (struct sim_rect){ r.x + 1, r.y + TITLE_H + 2, r.w - 2, 18 };
}

static void dirty(struct sim_desktop *d, struct sim_rect r)
{
    struct sim_rect screen = { 0, 0, d->w, d->h }, c;
    if (sim_rect_intersect(&screen, &r, &c))
        sim_dirty_add(&d->dirty, c);
}

void sim_desktop_invalidate(struct sim_desktop *d, struct sim_rect r) { dirty(d, r); }

void sim_desktop_init(struct sim_desktop *d, const char *user, int w, int h)
{
    memset(d, 0, sizeof *d);
    d->w = w;
    d->h = h;
    snprintf(d->user, sizeof d->user, "%s", user);
    dirty(d, (struct sim_rect){ 0, 0, w, h });
}

static void set_lines(struct sim_window *win, const char *const *lines, int n)
{
    win->nlines = n < SIM_LINES ? n : SIM_LINES;
    for (int i = 0; i < win->nlines; i++)
        snprintf(win->line[i], sizeof win->line[i], "%s", lines[i]);
}

void sim_desktop_show_app(struct sim_desktop *d, const char *title, uint32_t title_rgb, int editor,
                          const char *const *lines, int n)
{
    if (d->dlg.open) {
        d->dlg.open = 0;
        dirty(d, sim_desktop_dialog_rect(d));
    }
    d->app.open = 1;
    d->app.title_rgb = title_rgb;
    snprintf(d->app.title, sizeof d->app.title, "%s", title);
    set_lines(&d->app, lines, n);
    d->editor = editor;
    d->edit_len = 0;
    d->edit_text[0] = '\0';
    dirty(d, sim_desktop_app_rect(d));
}

void sim_desktop_show_dialog(struct sim_desktop *d, const char *const *lines, int n)
{
    d->dlg.open = 1;
    d->dlg.title_rgb = SIM_RGB_DIALOG_TITLE;
    snprintf(d->dlg.title, sizeof d->dlg.title, "Open");
    set_lines(&d->dlg, lines, n);
    dirty(d, sim_desktop_dialog_rect(d));
}

void sim_desktop_close_app(struct sim_desktop *d)
{
    if (d->dlg.open) {
        d->dlg.open = 0;
        dirty(d, sim_desktop_dialog_rect(d));
    }
    if (d->app.open) {
        d->app.open = 0;
        d->editor = 0;
        dirty(d, sim_desktop_app_rect(d));
    }
}

static void open_run_box(struct sim_desktop *d)
{
    d->run_open = 1;
    d->run_len = 0;
    d->run_text[0] = '\0';
    dirty(d, sim_desktop_run_rect(d));
}

static void close_run_box(struct sim_desktop *d)
{
    d->run_open = 0;
    dirty(d, sim_desktop_run_rect(d));
}

/* Esc: the topmost of dialog, run box, app window. */
static void escape(struct sim_desktop *d)
{
    if (d->dlg.open) {
        d->dlg.open = 0;
        dirty(d, sim_desktop_dialog_rect(d));
    } else if (d->run_open) {
        close_run_box(d);
    } else if (d->app.open) {
        sim_desktop_close_app(d);
    }
}

/* Appends or deletes one character of an input line; returns 1 when the text changed. */
static int edit_text(char *text, int *len, char c)
{
    if (c == '\b') {
        if (*len == 0)
            return 0;
        text[--*len] = '\0';
        return 1;
    }
    if ((unsigned char)c < 32 || (unsigned char)c > 126)
        return 0;
    if (*len >= SIM_COLS - 4) {   /* a full line starts over, like a new line */
        *len = 0;
    }
    text[(*len)++] = c;
    text[*len] = '\0';
    return 1;
}

static enum sim_key_result typed(struct sim_desktop *d, char c, struct sim_cmd *cmd)
{
    if (d->run_open) {
        if (c == '\n') {
            sim_cmd_parse(d->run_text, cmd);
            close_run_box(d);
            return SIM_KEY_COMMAND;
        }
        if (edit_text(d->run_text, &d->run_len, c))
            dirty(d, run_input_rect(d));
        return SIM_KEY_NONE;
    }
    if (d->dlg.open || !d->app.open || !d->editor)
        return SIM_KEY_NONE;
    if (c == '\n') {
        d->edit_len = 0;
        d->edit_text[0] = '\0';
        dirty(d, edit_line_rect(d));
    } else if (edit_text(d->edit_text, &d->edit_len, c)) {
        dirty(d, edit_line_rect(d));
    }
    return SIM_KEY_NONE;
}

enum sim_key_result sim_desktop_key(struct sim_desktop *d, uint32_t code, int down, struct sim_cmd *cmd)
{
    const struct sim_kbd_key *k = sim_kbd_decode(code);
    if (!k)
        return SIM_KEY_NONE;
    if (k->mod) {
        d->mods = down ? (d->mods | k->mod) : (d->mods & ~k->mod);
        return SIM_KEY_NONE;
    }
    if (!down)
        return SIM_KEY_NONE;
    if (!strcmp(k->name, "esc")) {
        escape(d);
        return SIM_KEY_NONE;
    }
    if ((d->mods & SIM_MOD_WIN) && !strcmp(k->name, "r")) {
        open_run_box(d);
        return SIM_KEY_NONE;
    }
    if ((d->mods & SIM_MOD_ALT) && !strcmp(k->name, "f4")) {
        sim_desktop_close_app(d);
        return SIM_KEY_NONE;
    }
    if (d->mods & SIM_MOD_CTRL) {
        if (!strcmp(k->name, "o") && d->app.open && d->editor && !d->dlg.open && !d->run_open)
            return SIM_KEY_OPEN_DIALOG;
        return SIM_KEY_NONE;
    }
    char c = sim_kbd_char(k, d->mods);
    return c ? typed(d, c, cmd) : SIM_KEY_NONE;
}

enum sim_key_result sim_desktop_char(struct sim_desktop *d, char c, struct sim_cmd *cmd)
{
    if (c == '\r')
        c = '\n';
    if (c == 27) {
        escape(d);
        return SIM_KEY_NONE;
    }
    return typed(d, c, cmd);
}

/* ---- rendering ---- */

static void render_window(const struct sim_window *win, struct sim_rect r, uint32_t body,
                          const struct sim_font *f, struct sim_canvas *c, int first_line)
{
    sim_canvas_fill(c, r.x, r.y, r.w, TITLE_H, win->title_rgb);
    sim_canvas_text(c, f, r.x + TEXT_PAD, r.y + (TITLE_H - f->line_h) / 2, r.w - 2 * TEXT_PAD,
                    win->title, RGB_WHITE);
    sim_canvas_fill(c, r.x, r.y + TITLE_H, r.w, r.h - TITLE_H, body);
    sim_canvas_frame(c, r.x, r.y, r.w, r.h, RGB_BORDER);
    int y = r.y + TITLE_H + 4 + (first_line ? 18 : 0);
    for (int i = 0; i < win->nlines && y + f->line_h <= r.y + r.h; i++, y += f->line_h) {
        struct sim_rect line = { r.x, y, r.w, f->line_h }, cl = { c->x0, c->y0, c->w, c->h }, tmp;
        if (sim_rect_intersect(&line, &cl, &tmp))
            sim_canvas_text(c, f, r.x + TEXT_PAD, y, r.w - 2 * TEXT_PAD, win->line[i], RGB_BLACK);
    }
}

static void render_taskbar(const struct sim_desktop *d, const struct sim_font *f, struct sim_canvas *c)
{
    struct sim_rect t = sim_desktop_taskbar_rect(d);
    sim_canvas_fill(c, t.x, t.y, t.w, t.h, SIM_RGB_TASKBAR);
    sim_canvas_fill(c, t.x + 2, t.y + 2, 64, t.h - 4, RGB_START);
    int ty = t.y + (t.h - f->line_h) / 2;
    sim_canvas_text(c, f, t.x + 12, ty, 0, "Start", RGB_WHITE);
    int uw = (int)strlen(d->user) * f->advance;
    sim_canvas_text(c, f, t.x + t.w - uw - 12, ty, 0, d->user, RGB_WHITE);
}

static void render_run_box(const struct sim_desktop *d, const struct sim_font *f, struct sim_canvas *c)
{
    struct sim_rect r = sim_desktop_run_rect(d), in = run_input_rect(d);
    struct sim_window title = { .title_rgb = SIM_RGB_RUN_TITLE };
    snprintf(title.title, sizeof title.title, "Run");
    render_window(&title, r, RGB_RUN_BODY, f, c, 0);
    sim_canvas_text(c, f, r.x + 12, r.y + 34, 0, "Type a command and press Enter:", RGB_BLACK);
    sim_canvas_fill(c, in.x, in.y, in.w, in.h, RGB_WHITE);
    sim_canvas_frame(c, in.x, in.y, in.w, in.h, RGB_BORDER);
    char line[SIM_COLS + 2];
    snprintf(line, sizeof line, "%s_", d->run_text);
    sim_canvas_text(c, f, in.x + 4, in.y + (in.h - f->line_h) / 2, in.w - 8, line, RGB_BLACK);
    sim_canvas_text(c, f, r.x + 12, r.y + 96, 0, "edit zip9 zip1 cpu logoff   Esc: close",
                    0x606060u);
}

void sim_desktop_render(const struct sim_desktop *d, const struct sim_font *f, struct sim_canvas *c)
{
    sim_canvas_fill(c, 0, 0, d->w, d->h, SIM_RGB_BACKGROUND);
    render_taskbar(d, f, c);
    if (d->app.open) {
        struct sim_rect a = sim_desktop_app_rect(d);
        render_window(&d->app, a, RGB_WHITE, f, c, d->editor ? 1 : 0);
        if (d->editor) {
            char line[SIM_COLS + 4];
            snprintf(line, sizeof line, "> %s_", d->edit_text);
            struct sim_rect el = edit_line_rect(d);
            sim_canvas_fill(c, el.x, el.y, el.w, el.h, 0xFFF8DCu);
            sim_canvas_text(c, f, a.x + TEXT_PAD, el.y + 1, a.w - 2 * TEXT_PAD, line, RGB_BLACK);
        }
    }
    if (d->dlg.open)
        render_window(&d->dlg, sim_desktop_dialog_rect(d), RGB_DIALOG_BODY, f, c, 0);
    if (d->run_open)
        render_run_box(d, f, c);
}
