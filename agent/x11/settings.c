/* settings.c -- the engine's settings in an external client's words (settings.h): the values of
 * the preset's placeholders for one session, as agent/rdp/settings.c pushes the same settings
 * into FreeRDP's. */
#include "agent/x11/settings.h"

#include <stdio.h>

/* {cert} for xfreerdp: "ignore", or the pinned fingerprint list as /cert:fingerprint: wants. */
static void cert_value(const struct engine_config *cfg, char *out, size_t outlen)
{
    if (cfg->no_verify || !cfg->fingerprint)
        snprintf(out, outlen, "ignore");
    else
        snprintf(out, outlen, "fingerprint:%s", cfg->fingerprint);
}

static const char *security_value(enum engine_security s)
{
    static const char *const names[] = { "", "tls", "nla", "rdp" };
    return names[s];
}

/* The connection type the built-in engine would announce (engine_config connection_type,
 * MS-RDPBCGR values) in the words of FreeRDP 2's /network: option; "" (the word is left out, the
 * client's default) when none is set. FreeRDP 2 has no word for satellite: it takes the number. */
static const char *network_value(uint32_t type)
{
    static const char *const words[] = { "", "modem", "broadband-low", "3", "broadband-high", "wan",
                                         "lan", "auto" };
    return type < sizeof words / sizeof words[0] ? words[type] : "";
}

void x11_settings_vars(const struct x11_launch_ctx *c, struct x11_vars *v, struct x11_settings_buf *b)
{
    const struct engine_config *cfg = c->cfg;
    snprintf(b->port, sizeof b->port, "%u", (unsigned)cfg->port);
    snprintf(b->w, sizeof b->w, "%u", cfg->client->width);
    snprintf(b->h, sizeof b->h, "%u", cfg->client->height);
    cert_value(cfg, b->cert, sizeof b->cert);
    snprintf(b->passfile, sizeof b->passfile, "%s/passwd", c->dir);
    snprintf(b->icafile, sizeof b->icafile, "%s/session.ica", c->dir);
    *v = (struct x11_vars){ .host = cfg->host, .port = b->port, .user = c->user,
                            .domain = cfg->domain, .width = b->w, .height = b->h,
                            .security = security_value(cfg->security), .cert = b->cert,
                            .passfile = b->passfile, .icafile = b->icafile,
                            .display = c->display, .dir = c->dir,
                            .network = network_value(cfg->connection_type) };
}
