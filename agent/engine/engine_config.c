/* engine_config.c -- defaults and names of the engine's configuration; see engine_config.h. */
#include "agent/engine/engine_config.h"

#include <string.h>

int engine_security_parse(const char *name, enum engine_security *out)
{
    static const char *const names[] = { "negotiate", "tls", "nla", "rdp" };
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (enum engine_security)i;
            return 0;
        }
    return -1;
}

void engine_config_defaults(struct engine_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->port = 3389;
    cfg->width = 1024;
    cfg->height = 768;
    cfg->bpp = 16;
    cfg->connect_threads = 4;
    cfg->connect_timeout_ms = 30000;
    cfg->max_attempts = 2;
    cfg->retry_delay_ms = 2000;
    cfg->traffic_interval_ms = 5000;
    cfg->health_interval_ms = 2000;
}
