/* settings.c -- pushes a trimmed client configuration into FreeRDP, in one function.
 *
 * Economies (see the FreeRDP 2.11 notes §8): no bitmap cache, no GFX/H.264, no sound, no
 * clipboard, no network auto-detect (unless the link is announced as autodetect) or heartbeat, no dynamic
 * channels, 16 bpp by default. Certificates: pinned fingerprint or IgnoreCertificate, never a
 * known_hosts entry (AutoAccept off, our VerifyCertificateEx never returns 1). */
#include "agent/rdp/settings.h"

#include <freerdp/client/cmdline.h>
#include <freerdp/codec/color.h>
#include <freerdp/locale/keyboard.h>

#include "common/log.h"

#define SET_BOOL(id, v) ok &= freerdp_settings_set_bool(s, FreeRDP_##id, (v))
#define SET_U32(id, v) ok &= freerdp_settings_set_uint32(s, FreeRDP_##id, (v))
#define SET_STR(id, v) ok &= freerdp_settings_set_string(s, FreeRDP_##id, (v))

int rdp_settings_push(rdpSettings *s, const struct engine_config *cfg, const char *user,
                      const char *password)
{
    BOOL ok = TRUE;

    SET_STR(ServerHostname, cfg->host);
    SET_U32(ServerPort, cfg->port);
    SET_STR(Username, user);
    SET_STR(Password, password);
    if (cfg->domain)
        SET_STR(Domain, cfg->domain);
    SET_STR(ConfigPath, cfg->config_dir);

    /* certificate policy */
    SET_BOOL(AutoAcceptCertificate, FALSE);
    SET_BOOL(AutoDenyCertificate, TRUE);
    SET_BOOL(ExternalCertificateManagement, FALSE);
    if (cfg->no_verify)
        SET_BOOL(IgnoreCertificate, TRUE);
    else if (cfg->fingerprint)
        SET_STR(CertificateAcceptedFingerprints, cfg->fingerprint);

    /* security layer: offer only the one asked for, or all of them for the server to pick */
    if (cfg->security != ENGINE_SEC_NEGOTIATE) {
        SET_BOOL(NlaSecurity, cfg->security == ENGINE_SEC_NLA);
        SET_BOOL(TlsSecurity, cfg->security == ENGINE_SEC_TLS);
        SET_BOOL(RdpSecurity, cfg->security == ENGINE_SEC_RDP);
        SET_BOOL(ExtSecurity, FALSE);
    }

    /* desktop */
    SET_U32(DesktopWidth, cfg->width);
    SET_U32(DesktopHeight, cfg->height);
    SET_U32(ColorDepth, cfg->bpp == 32 ? 32 : 16);
    SET_U32(KeyboardLayout, 0x409);
    SET_BOOL(SoftwareGdi, TRUE);

    /* frames: the server may mark them (conditions are judged at a frame's end), and a logon
     * that shows nothing may ask for a repaint like a real client */
    SET_BOOL(SurfaceFrameMarkerEnabled, TRUE);
    SET_BOOL(FrameMarkerCommandEnabled, TRUE);
    SET_BOOL(RefreshRect, TRUE);
    SET_BOOL(SuppressOutput, TRUE);

    /* the link the client is on, as a real client would announce it (connectionType and the
     * performance flags FreeRDP derives from it); the economies below still win */
    if (cfg->connection_type && !freerdp_set_connection_type(s, cfg->connection_type))
        ok = FALSE;

    /* economies */
    SET_BOOL(BitmapCacheEnabled, FALSE);
    SET_BOOL(SupportGraphicsPipeline, FALSE);
    SET_BOOL(GfxH264, FALSE);
    SET_BOOL(GfxAVC444, FALSE);
    SET_BOOL(AudioPlayback, FALSE);
    SET_BOOL(AudioCapture, FALSE);
    SET_BOOL(RedirectClipboard, FALSE);
    SET_BOOL(DeviceRedirection, FALSE);
    /* announcing the autodetect type requires the autodetect flag (MS-RDPBCGR 2.2.1.3.2); FreeRDP's
     * core answers the server's RTT and bandwidth requests, no channel needed */
    SET_BOOL(NetworkAutoDetect, cfg->connection_type == CONNECTION_TYPE_AUTODETECT);
    SET_BOOL(RemoteFxCodec, FALSE);   /* the autodetect type turns it on */
    SET_BOOL(SupportHeartbeatPdu, FALSE);
    SET_BOOL(SupportMultitransport, FALSE);
    SET_BOOL(SupportDynamicChannels, FALSE);
    SET_BOOL(AsyncUpdate, FALSE);
    SET_BOOL(AsyncChannels, FALSE);
    SET_BOOL(AsyncInput, FALSE);
    SET_BOOL(AllowFontSmoothing, FALSE);

    /* one session's burst yields the loop after 5 ms (FreeRDP then sets its reread event, which
     * the loop watches), instead of the default 100 ms that would stall every other session */
    SET_U32(MaxTimeInCheckLoop, 5);

    /* no reconnect of our own behind the engine's retry policy */
    SET_BOOL(AutoReconnectionEnabled, FALSE);
    /* TCP connect bounded by the watchdog; allow slow logons in the connection sequence */
    SET_U32(TcpConnectTimeout, cfg->connect_timeout_ms ? cfg->connect_timeout_ms : 15000);
    SET_U32(TcpAckTimeout, cfg->connect_timeout_ms > 9000 ? cfg->connect_timeout_ms : 9000);

    if (!ok) {
        log_error("FreeRDP refused a setting for %s:%u", cfg->host, (unsigned)cfg->port);
        return -1;
    }
    return 0;
}

uint32_t rdp_settings_pixel_format(const struct engine_config *cfg)
{
    return cfg->bpp == 32 ? PIXEL_FORMAT_BGRX32 : PIXEL_FORMAT_RGB16;
}
