/* appstart.c -- file-intensive application start and the disk fair-share throttle. */
#include "simhost/desktop/appstart.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"

#define APP_RGB 0x00695Cu

static void sleep_until(uint64_t t_us)
{
    uint64_t now = clock_now_us();
    if (t_us <= now)
        return;
    struct timespec ts = { (time_t)((t_us - now) / 1000000u), (long)((t_us - now) % 1000000u) * 1000 };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

void sim_fairshare_io(struct sim_fairshare *fs, size_t bytes)
{
    if (!fs->on)
        return;
    uint64_t now = clock_now_us();
    uint64_t start = fs->next_us > now ? fs->next_us : now;
    uint64_t cost = SIM_FAIRSHARE_OP_US + (uint64_t)bytes * 1000000u / SIM_FAIRSHARE_BYTES_PER_S;
    fs->next_us = start + cost;
    sleep_until(fs->next_us);
}

int sim_appstart_prepare(const char *dir, char *err, size_t errlen)
{
    char path[4200], buf[SIM_APPSTART_FILE_BYTES];
    snprintf(path, sizeof path, "%s/app", dir);
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        goto fail;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (char)('a' + i % 26);
    for (int i = 0; i < SIM_APPSTART_FILES; i++) {
        struct stat st;
        snprintf(path, sizeof path, "%s/app/lib%03d.dat", dir, i);
        if (stat(path, &st) == 0 && st.st_size == SIM_APPSTART_FILE_BYTES)
            continue;
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0 || write(fd, buf, sizeof buf) != (ssize_t)sizeof buf || close(fd) != 0)
            goto fail;
    }
    return 0;
fail:
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return -1;
}

int sim_appstart_run(const char *dir, int fairshare, unsigned seq, struct sim_app_out *out)
{
    struct sim_fairshare fs = { .on = fairshare };
    char path[4200], buf[SIM_APPSTART_FILE_BYTES];
    uint64_t bytes = 0, sum = 0;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < SIM_APPSTART_FILES; i++) {
        snprintf(path, sizeof path, "%s/app/lib%03d.dat", dir, i);
        sim_fairshare_io(&fs, sizeof buf);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf);
        if (fd >= 0)
            close(fd);
        if (n < 0) {
            snprintf(out->title, sizeof out->title, "Error");
            out->title_rgb = SIM_RGB_ERROR_TITLE;
            snprintf(out->line[out->n++], SIM_COLS + 1, "appstart #%u: %.60s: %s", seq, path, strerror(errno));
            return -1;
        }
        bytes += (uint64_t)n;
        for (ssize_t k = 0; k < n; k += 512)
            sum += (unsigned char)buf[k];
    }
    snprintf(out->title, sizeof out->title, "Application");
    out->title_rgb = APP_RGB;
    snprintf(out->line[out->n++], SIM_COLS + 1, "appstart #%u: %d files, %llu bytes read (sum %llu)%s", seq,
             SIM_APPSTART_FILES, (unsigned long long)bytes, (unsigned long long)sum,
             fairshare ? ", disk fair share on" : "");
    return 0;
}
