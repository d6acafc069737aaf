/* cost.c -- calibration of per-action CPU costs and the capacity formula. */
#include "simhost/desktop/cost.h"

#include "simhost/desktop/apps.h"
#include "simhost/desktop/codec.h"
#include "simhost/desktop/desktop.h"
#include "simhost/desktop/frame.h"

#include <freerdp/settings.h>
#include <freerdp/update.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Fraction of the full work the calibration runs (at most scale 1 x this). */
#define CALIB_FRACTION 0.125

double sim_cost_thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* AES-128-GCM over 1 MB: the per-byte cost of the TLS records every painted byte travels in. */
static double measure_tls_byte(void)
{
    size_t n = 1u << 20;
    unsigned char key[16] = { 1 }, iv[12] = { 2 }, tag[16];
    unsigned char *in = calloc(1, n), *out = malloc(n + 32);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    double t = 0;
    int len;
    if (!in || !out || !ctx)
        goto done;
    double t0 = sim_cost_thread_cpu_s();
    if (EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, key, iv) == 1 &&
        EVP_EncryptUpdate(ctx, out, &len, in, (int)n) == 1 && EVP_EncryptFinal_ex(ctx, out + len, &len) == 1)
        EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag);
    t = (sim_cost_thread_cpu_s() - t0) / (double)n;
done:
    EVP_CIPHER_CTX_free(ctx);
    free(in);
    free(out);
    return t;
}

/* The session's paint path without a peer: the encoder a 16-bpp session gets (sim_codec_choose:
 * interleaved RLE) behind a context whose BitmapUpdate keeps no bytes. FreeRDP's own work on the
 * update (copying the compressed tiles into fast-path PDUs) is left out; TLS is counted per byte. */
struct paint_path {
    rdpSettings *st;
    struct sim_codec *codec;
    rdpContext ctx;
    rdpUpdate update;
};

static BOOL drop_bitmap_update(rdpContext *ctx, const BITMAP_UPDATE *u)
{
    (void)ctx;
    (void)u;
    return TRUE;
}

static void paint_path_free(struct paint_path *p)
{
    sim_codec_free(p->codec);
    freerdp_settings_free(p->st);
    free(p);
}

static struct paint_path *paint_path_new(void)
{
    struct paint_path *p = calloc(1, sizeof *p);
    if (!p || !(p->st = freerdp_settings_new(0))) {
        free(p);
        return NULL;
    }
    freerdp_settings_set_uint32(p->st, FreeRDP_MultifragMaxRequestSize, 0xFFFF);
    enum sim_codec_id id = sim_codec_choose(SIM_CODEC_AUTO, SIM_COST_BPP, p->st);
    if (sim_codec_open(id, p->st, &p->codec) != 0 || !p->codec) {
        paint_path_free(p);
        return NULL;
    }
    p->update.BitmapUpdate = drop_bitmap_update;
    p->ctx.update = &p->update;
    return p;
}

/* CPU of rendering rect r of d and encoding it as the session does; returns seconds and the
 * bytes of bitmap data that would be sent. */
static double measure_paint(const struct sim_desktop *d, const struct sim_font *f, struct sim_rect r,
                            struct sim_frame_buf *b, struct paint_path *p, long long *bytes)
{
    double t0 = sim_cost_thread_cpu_s();
    *bytes = sim_codec_emit(p->codec, d, f, r, b, &p->ctx);
    return sim_cost_thread_cpu_s() - t0;
}

/* One measurement of every figure into c (c->scale set). */
static int calibrate_once(struct sim_costs *c, const char *dir, const struct sim_font *f, struct sim_desktop *d,
                          struct sim_app_out *out, struct sim_frame_buf *fb, struct paint_path *p, char *err,
                          size_t errlen)
{
    static const enum sim_cmd_kind kinds[] = { SIM_CMD_EDIT, SIM_CMD_ZIP9, SIM_CMD_ZIP1, SIM_CMD_CPU,
                                               SIM_CMD_OPEN };
    double scale = c->scale, frac = CALIB_FRACTION * (scale < 1 ? scale : 1);
    c->tls_byte_s = measure_tls_byte();
    sim_desktop_init(d, "simuser000", 1024, 768);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        struct sim_cmd cmd = { .kind = kinds[i] };
        snprintf(cmd.arg, sizeof cmd.arg, "doc1.txt");
        double t0 = sim_cost_thread_cpu_s();
        if (sim_app_run(&cmd, dir, frac, (unsigned)i, out) != 0) {
            snprintf(err, errlen, "%s: calibration of %s failed: %s", dir, sim_cmd_name(kinds[i]),
                     out->n ? out->line[0] : "?");
            return -1;
        }
        double work = sim_cost_thread_cpu_s() - t0;
        c->work_s[kinds[i]] = kinds[i] == SIM_CMD_OPEN ? work : work * scale / frac;
        const char *lines[SIM_LINES];
        for (int k = 0; k < out->n; k++)
            lines[k] = out->line[k];
        long long bytes = 0;
        struct sim_rect r;
        if (kinds[i] == SIM_CMD_OPEN) {
            sim_desktop_show_dialog(d, lines, out->n);
            r = sim_desktop_dialog_rect(d);
        } else {
            sim_desktop_show_app(d, out->title, out->title_rgb, out->editor, lines, out->n);
            r = sim_desktop_app_rect(d);
        }
        uint64_t raw0, raw1, sent;
        sim_codec_totals(p->codec, &raw0, &sent);
        double paint = measure_paint(d, f, r, fb, p, &bytes);
        sim_codec_totals(p->codec, &raw1, &sent);
        c->paint_s[kinds[i]] = paint + (double)bytes * c->tls_byte_s;
        c->paint_bytes[kinds[i]] = bytes;
        c->paint_raw[kinds[i]] = (long long)(raw1 - raw0);
    }
    /* a keystroke: the editor's echo line, averaged over 8 */
    static const char *const one[] = { "text" };
    struct sim_cmd none;
    sim_desktop_show_app(d, "Editor", SIM_RGB_EDIT_TITLE, 1, one, 1);
    sim_dirty_clear(&d->dirty);
    long long kb = 0, b1 = 0;
    double kt = 0;
    for (int i = 0; i < 8; i++) {
        sim_desktop_key(d, 0x1E, 1, &none);
        for (int k = 0; k < d->dirty.n; k++) {
            kt += measure_paint(d, f, d->dirty.r[k], fb, p, &b1);
            kb += b1;
        }
        sim_dirty_clear(&d->dirty);
    }
    c->key_s = (kt + (double)kb * c->tls_byte_s) / 8;
    c->paint_s[SIM_CMD_UNKNOWN] = c->paint_s[SIM_CMD_CPU];
    return 0;
}

void sim_cost_keep_min(struct sim_costs *best, const struct sim_costs *c)
{
    for (int k = 0; k < SIM_CMD_KIND_COUNT; k++) {
        best->work_s[k] = c->work_s[k] < best->work_s[k] ? c->work_s[k] : best->work_s[k];
        best->paint_s[k] = c->paint_s[k] < best->paint_s[k] ? c->paint_s[k] : best->paint_s[k];
    }
    best->key_s = c->key_s < best->key_s ? c->key_s : best->key_s;
    best->tls_byte_s = c->tls_byte_s < best->tls_byte_s ? c->tls_byte_s : best->tls_byte_s;
}

int sim_cost_calibrate_reps(struct sim_costs *c, const char *dir, double scale, const struct sim_font *f,
                            unsigned reps, char *err, size_t errlen)
{
    struct sim_frame_buf fb = { 0 };
    struct sim_desktop *d = calloc(1, sizeof *d);
    struct sim_app_out *out = calloc(1, sizeof *out);
    struct paint_path *p = paint_path_new();
    int rc = -1;
    double t_start = sim_cost_thread_cpu_s();
    memset(c, 0, sizeof *c);
    c->scale = scale;
    if (!d || !out || !p || sim_frame_buf_init(&fb, SIM_FRAME_STRIP_BYTES) != 0) {
        snprintf(err, errlen, "calibration: out of memory");
        goto done;
    }
    if (sim_apps_prepare_dir(dir, err, errlen) != 0)
        goto done;
    for (unsigned r = 0; r < (reps ? reps : 1); r++) {
        struct sim_costs one = { .scale = scale };
        if (calibrate_once(&one, dir, f, d, out, &fb, p, err, errlen) != 0)
            goto done;
        if (r == 0)
            *c = one;
        else
            sim_cost_keep_min(c, &one);
    }
    c->reps = reps ? reps : 1;
    rc = 0;
done:
    c->calib_s = sim_cost_thread_cpu_s() - t_start;
    sim_frame_buf_free(&fb);
    if (p)
        paint_path_free(p);
    free(d);
    free(out);
    return rc;
}

int sim_cost_calibrate(struct sim_costs *c, const char *dir, double scale, const struct sim_font *f,
                       char *err, size_t errlen)
{
    return sim_cost_calibrate_reps(c, dir, scale, f, 1, err, errlen);
}

double sim_cost_action_s(const struct sim_costs *c, enum sim_cmd_kind k)
{
    if (k <= SIM_CMD_NONE || k >= SIM_CMD_KIND_COUNT)
        return 0;
    return c->work_s[k] + c->paint_s[k];
}

void sim_cost_print(const struct sim_costs *c, FILE *out)
{
    static const enum sim_cmd_kind kinds[] = { SIM_CMD_EDIT, SIM_CMD_ZIP9, SIM_CMD_ZIP1, SIM_CMD_CPU,
                                               SIM_CMD_OPEN };
    fprintf(out, "sessmax-simhost: cost model at work-scale %g (thread CPU, this machine; "
            "calibration took %.0f ms, least of %u measurements):\n", c->scale, c->calib_s * 1e3, c->reps);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        fprintf(out, "sessmax-simhost:   %-6s work %8.2f ms + paint %6.2f ms = %8.2f ms\n",
                sim_cmd_name(kinds[i]), c->work_s[kinds[i]] * 1e3, c->paint_s[kinds[i]] * 1e3,
                sim_cost_action_s(c, kinds[i]) * 1e3);
    fprintf(out, "sessmax-simhost:   key    echo %8.3f ms per keystroke\n", c->key_s * 1e3);
    fflush(out);
}

static double cpu_of(const struct sim_costs *c, const unsigned *actions, uint64_t keystrokes)
{
    double s = (double)keystrokes * c->key_s;
    for (int k = SIM_CMD_NONE + 1; k < SIM_CMD_KIND_COUNT; k++)
        s += actions[k] * sim_cost_action_s(c, (enum sim_cmd_kind)k);
    return s;
}

double sim_cost_loop_cpu_s(const struct sim_costs *c, const struct sim_loop *l)
{
    return cpu_of(c, l->actions, l->keystrokes);
}

double sim_cost_timer_cpu_s(const struct sim_costs *c, const struct sim_loop_timer *t)
{
    return t->count ? cpu_of(c, t->actions, t->keystrokes) / t->count : 0;
}

double sim_cost_loop_user_s(const struct sim_loop *l) { return l->think_s + l->typing_s + l->settle_s; }

double sim_cost_loop_len_s(const struct sim_costs *c, const struct sim_loop *l)
{
    return sim_cost_loop_user_s(l) + sim_cost_loop_cpu_s(c, l);
}

double sim_cost_capacity(const struct sim_costs *c, const struct sim_loop *l, double cpus)
{
    double cpu = sim_cost_loop_cpu_s(c, l), len = sim_cost_loop_len_s(c, l);
    if (cpu <= 0 || len <= 0)
        return 0;
    return cpus * len / cpu;
}

void sim_cost_scale(struct sim_costs *c, double f)
{
    for (int k = 0; k < SIM_CMD_KIND_COUNT; k++) {
        c->work_s[k] *= f;
        c->paint_s[k] *= f;
    }
    c->key_s *= f;
}

double sim_cost_scale_to(struct sim_costs *c, const struct sim_loop *l, double loop_s)
{
    double model = sim_cost_loop_cpu_s(c, l);
    if (model <= 0 || loop_s <= 0)
        return 1;
    sim_cost_scale(c, loop_s / model);
    return loop_s / model;
}
