/* client.c -- the headless FreeRDP client of client.h: settings for a loopback simhost
 * session (TLS, no NLA, no clipboard, no bitmap cache, frame markers as the agent's), gdi at the session's depth, a frame count
 * on EndPaint. */
#include "simhost/model/client.h"

#include "common/keymap.h"

#include <freerdp/gdi/gdi.h>
#include <freerdp/settings.h>
#include <stdio.h>

static BOOL end_paint(rdpContext *ctx)
{
    struct sim_client *c = (struct sim_client *)ctx;
    BOOL ok = c->orig_end ? c->orig_end(ctx) : TRUE;
    HGDI_WND w = ctx->gdi->primary->hdc->hwnd;
    w->invalid->null = TRUE;
    w->ninvalid = 0;
    c->frames++;
    return ok;
}

static BOOL post_connect(freerdp *inst)
{
    struct sim_client *c = (struct sim_client *)inst->context;
    if (!gdi_init(inst, c->bpp == 16 ? PIXEL_FORMAT_RGB16 : PIXEL_FORMAT_BGRX32))
        return FALSE;
    c->orig_end = inst->context->update->EndPaint;
    inst->context->update->EndPaint = end_paint;
    return TRUE;
}

static void settings(rdpSettings *s, const struct sim_client_cfg *cfg)
{
    freerdp_settings_set_string(s, FreeRDP_ServerHostname, cfg->host);
    freerdp_settings_set_uint32(s, FreeRDP_ServerPort, (UINT32)cfg->port);
    freerdp_settings_set_string(s, FreeRDP_Username, cfg->user);
    freerdp_settings_set_string(s, FreeRDP_Password, cfg->password);
    freerdp_settings_set_string(s, FreeRDP_ConfigPath, cfg->config_dir);
    if (cfg->fingerprint)
        freerdp_settings_set_string(s, FreeRDP_CertificateAcceptedFingerprints, cfg->fingerprint);
    else
        freerdp_settings_set_bool(s, FreeRDP_IgnoreCertificate, TRUE);
    freerdp_settings_set_bool(s, FreeRDP_NlaSecurity, FALSE);
    freerdp_settings_set_uint32(s, FreeRDP_DesktopWidth, 1024);
    freerdp_settings_set_uint32(s, FreeRDP_DesktopHeight, 768);
    freerdp_settings_set_uint32(s, FreeRDP_ColorDepth, (UINT32)cfg->bpp);
    freerdp_settings_set_uint32(s, FreeRDP_KeyboardLayout, 0x409);
    freerdp_settings_set_bool(s, FreeRDP_RedirectClipboard, FALSE);
    freerdp_settings_set_bool(s, FreeRDP_NetworkAutoDetect, FALSE);
    freerdp_settings_set_bool(s, FreeRDP_SupportHeartbeatPdu, FALSE);
    freerdp_settings_set_bool(s, FreeRDP_BitmapCacheEnabled, FALSE);
    /* as the agent's sessions: the server sends frame markers */
    freerdp_settings_set_bool(s, FreeRDP_SurfaceFrameMarkerEnabled, TRUE);
    freerdp_settings_set_bool(s, FreeRDP_FrameMarkerCommandEnabled, TRUE);
    freerdp_settings_set_uint32(s, FreeRDP_TcpAckTimeout, 60000);
}

freerdp *sim_client_new(const struct sim_client_cfg *cfg)
{
    freerdp *inst = freerdp_new();
    if (!inst)
        return NULL;
    inst->ContextSize = sizeof(struct sim_client);
    inst->PostConnect = post_connect;
    if (!freerdp_context_new(inst)) {
        freerdp_free(inst);
        return NULL;
    }
    ((struct sim_client *)inst->context)->bpp = cfg->bpp;
    settings(inst->settings, cfg);
    return inst;
}

void sim_client_free(freerdp *inst)
{
    freerdp_disconnect(inst);
    gdi_free(inst);
    freerdp_context_free(inst);
    freerdp_free(inst);
}

void sim_client_key(freerdp *inst, uint32_t sc, int down)
{
    freerdp_input_send_keyboard_event_ex(inst->input, down, sc);
}

void sim_client_char(freerdp *inst, char c)
{
    int shift;
    uint32_t sc = keymap_scancode_for_char(c, &shift);
    if (shift)
        sim_client_key(inst, KEYMAP_SC_LSHIFT, 1);
    sim_client_key(inst, sc, 1);
    sim_client_key(inst, sc, 0);
    if (shift)
        sim_client_key(inst, KEYMAP_SC_LSHIFT, 0);
}
