/* bulk.c -- server-side bulk compression off (bulk.h). */
#include "simhost/server/bulk.h"

#include <freerdp/settings.h>

void sim_bulk_off(rdpSettings *st)
{
    freerdp_settings_set_bool(st, FreeRDP_CompressionEnabled, FALSE);
}
