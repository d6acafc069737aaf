/* drives.c -- shared drive files, per-session drive directories and FreeRDP's drive channel. */
#define _XOPEN_SOURCE 700
#include "agent/rdp/drives.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <freerdp/addin.h>
#include <freerdp/channels/channels.h>
#include <freerdp/client/channels.h>
#include <freerdp/client/cmdline.h>

#include "compat/rdpdr_logon_order.h"
#include "common/drive_gen.h"
#include "common/log.h"

#define DRIVES_PATH 4096

static int mkdir_p(const char *path, char *err, size_t errlen)
{
    char buf[DRIVES_PATH];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            goto fail;
        *p = '/';
    }
    if (mkdir(buf, 0700) == 0 || errno == EEXIST)
        return 0;
fail:
    snprintf(err, errlen, "%s: %s", buf, strerror(errno));
    return -1;
}

/* One writer at a time: connect threads preparing the same files would write one temporary file
 * together; the later ones find the files made and return at once. */
static pthread_mutex_t prepare_lock = PTHREAD_MUTEX_INITIALIZER;

int drives_prepare(const char *config_dir, const struct workload *wl, char *err, size_t errlen)
{
    char dir[DRIVES_PATH], path[DRIVES_PATH + 64];
    int rc = 0;
    pthread_mutex_lock(&prepare_lock);
    for (size_t i = 0; i < wl->ndrives && rc == 0; i++) {
        const struct workload_drive *d = &wl->drives[i];
        snprintf(dir, sizeof dir, "%s/drives/shared/%s", config_dir, d->name);
        rc = mkdir_p(dir, err, errlen);
        for (size_t j = 0; j < d->nfiles && rc == 0; j++) {
            snprintf(path, sizeof path, "%s/%s", dir, d->files[j].name);
            rc = drive_gen_write_file(path, d->files[j].name, d->files[j].size, err, errlen);
        }
    }
    pthread_mutex_unlock(&prepare_lock);
    return rc;
}

/* A hard link to the shared file; a generated copy if the file system refuses links. */
static int link_file(const char *shared, const char *priv, const struct workload_drive_file *f,
                     char *err, size_t errlen)
{
    if (link(shared, priv) == 0 || errno == EEXIST)
        return 0;
    return drive_gen_write_file(priv, f->name, f->size, err, errlen);
}

int drives_session_setup(const char *config_dir, const struct workload *wl, uint32_t index,
                         char *dir, size_t dirlen, char *err, size_t errlen)
{
    char sub[DRIVES_PATH + 16], shared[DRIVES_PATH + 128], priv[DRIVES_PATH + 128];
    if (snprintf(dir, dirlen, "%s/drives/s%u", config_dir, (unsigned)index) >= (int)dirlen) {
        snprintf(err, errlen, "%s: path too long", config_dir);
        return -1;
    }
    for (size_t i = 0; i < wl->ndrives; i++) {
        const struct workload_drive *d = &wl->drives[i];
        snprintf(sub, sizeof sub, "%s/%s", dir, d->name);
        if (mkdir_p(sub, err, errlen) != 0)
            return -1;
        for (size_t j = 0; j < d->nfiles; j++) {
            snprintf(shared, sizeof shared, "%s/drives/shared/%s/%s", config_dir, d->name, d->files[j].name);
            snprintf(priv, sizeof priv, "%s/%s", sub, d->files[j].name);
            if (link_file(shared, priv, &d->files[j], err, errlen) != 0)
                return -1;
        }
    }
    return 0;
}

int drives_apply(rdpSettings *st, const struct workload *wl, const char *dir)
{
    char path[DRIVES_PATH + 16];
    for (size_t i = 0; i < wl->ndrives; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, wl->drives[i].name);
        char *argv[] = { "drive", wl->drives[i].name, path };
        if (!freerdp_client_add_device_channel(st, 3, argv))
            return -1;
    }
    return freerdp_settings_set_bool(st, FreeRDP_DeviceRedirection, TRUE) ? 0 : -1;
}

static pthread_once_t provider_once = PTHREAD_ONCE_INIT;
static void register_provider(void)
{
    freerdp_register_addin_provider(freerdp_channels_load_static_addin_entry, 0);
}

int drives_pre_connect(freerdp *inst)
{
    pthread_once(&provider_once, register_provider);
    PVIRTUALCHANNELENTRYEX ex = (PVIRTUALCHANNELENTRYEX)(void *)freerdp_load_channel_addin_entry(
        "rdpdr", NULL, NULL, FREERDP_ADDIN_CHANNEL_STATIC | FREERDP_ADDIN_CHANNEL_ENTRYEX);
    if (!ex || freerdp_channels_client_load_ex(inst->context->channels, inst->settings, ex,
                                               inst->settings) != 0) {
        log_ratelimited(LOG_ERROR, "rdpdr", "cannot load FreeRDP's rdpdr channel (drive redirection)");
        return -1;
    }
    rdpdr_logon_order_install(inst);
    return 0;
}

static int rm_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void drives_session_cleanup(const char *dir)
{
    if (dir && *dir)
        nftw(dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}
