/* rdpdr_logon_order.c -- the User Logged On ordering fix for FreeRDP 2.11 against xrdp
 * (rdpdr_logon_order.h). */
#include "compat/rdpdr_logon_order.h"

#include <pthread.h>
#include <stdlib.h>

#include <freerdp/channels/channels.h>
#include <freerdp/channels/rdpdr.h>

#include "common/log.h"

#define FIX_EARLY_LOGON 1u     /* User Logged On arrived before the server capabilities */
#define FIX_CAPS 2u            /* Server Capability seen */
#define FIX_DONE 4u            /* injected (once) */

struct fix_entry {
    freerdp *inst;
    pReceiveChannelData orig;
    unsigned st;
};

static pthread_mutex_t fix_mu = PTHREAD_MUTEX_INITIALIZER;
static struct fix_entry *fix_tab;
static size_t fix_n, fix_cap;

int rdpdr_logon_order_observe(unsigned *st, const uint8_t *data, size_t size)
{
    if (size < 4 || (data[0] | data[1] << 8) != RDPDR_CTYP_CORE)
        return 0;
    unsigned pkt = (unsigned)(data[2] | data[3] << 8);
    if (pkt == PAKID_CORE_USER_LOGGEDON && !(*st & FIX_CAPS))
        *st |= FIX_EARLY_LOGON;
    else if (pkt == PAKID_CORE_SERVER_CAPABILITY)
        *st |= FIX_CAPS;
    else if (pkt == PAKID_CORE_CLIENTID_CONFIRM && (*st & FIX_EARLY_LOGON) && (*st & FIX_CAPS) &&
             !(*st & FIX_DONE)) {
        *st |= FIX_DONE;
        return 1;
    }
    return 0;
}

static struct fix_entry *find(freerdp *inst)
{
    for (size_t i = 0; i < fix_n; i++)
        if (fix_tab[i].inst == inst)
            return &fix_tab[i];
    return NULL;
}

static BOOL fix_receive(freerdp *inst, UINT16 id, const BYTE *data, size_t size, UINT32 flags, size_t total)
{
    pthread_mutex_lock(&fix_mu);
    struct fix_entry *e = find(inst);
    pReceiveChannelData orig = e ? e->orig : freerdp_channels_data;
    int inject = 0;
    if (e && (flags & CHANNEL_FLAG_FIRST) && (flags & CHANNEL_FLAG_LAST) &&
        id == freerdp_channels_get_id_by_name(inst, "rdpdr"))
        inject = rdpdr_logon_order_observe(&e->st, data, size);
    pthread_mutex_unlock(&fix_mu);
    BOOL ok = orig(inst, id, data, size, flags, total);
    if (ok && inject) {
        static const BYTE logged_on[4] = { RDPDR_CTYP_CORE & 0xff, RDPDR_CTYP_CORE >> 8,
                                           PAKID_CORE_USER_LOGGEDON & 0xff, PAKID_CORE_USER_LOGGEDON >> 8 };
        log_info("rdpdr: the server sent User Logged On before its capabilities (xrdp); repeating it "
                 "so FreeRDP announces the drives");
        ok = orig(inst, id, logged_on, sizeof logged_on, CHANNEL_FLAG_FIRST | CHANNEL_FLAG_LAST,
                  sizeof logged_on);
    }
    return ok;
}

void rdpdr_logon_order_install(freerdp *inst)
{
    pthread_mutex_lock(&fix_mu);
    if (!find(inst)) {
        if (fix_n == fix_cap) {
            size_t cap = fix_cap ? fix_cap * 2 : 16;
            struct fix_entry *t = realloc(fix_tab, cap * sizeof *t);
            if (!t) {
                pthread_mutex_unlock(&fix_mu);
                return;
            }
            fix_tab = t;
            fix_cap = cap;
        }
        fix_tab[fix_n++] = (struct fix_entry){ inst, inst->ReceiveChannelData, 0 };
        inst->ReceiveChannelData = fix_receive;
    }
    pthread_mutex_unlock(&fix_mu);
}

void rdpdr_logon_order_forget(freerdp *inst)
{
    pthread_mutex_lock(&fix_mu);
    struct fix_entry *e = find(inst);
    if (e)
        *e = fix_tab[--fix_n];
    pthread_mutex_unlock(&fix_mu);
}
