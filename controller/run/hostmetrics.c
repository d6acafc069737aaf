/* hostmetrics.c -- node_exporter's and windows_exporter's metrics to the figures sessmax stores
 * (hostmetrics.h). */
#include "controller/run/hostmetrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum field { F_A, F_B, F_BUSY, F_SPEED };

void hostmetrics_begin(struct hostmetrics_reading *r, double t_s)
{
    memset(r, 0, sizeof *r);
    r->t_s = t_s;
    r->mem_total = r->mem_avail = r->sessions = NAN;
}

static int prefixed(const char *s, const char *const *prefixes)
{
    for (size_t i = 0; prefixes[i]; i++)
        if (!strncmp(s, prefixes[i], strlen(prefixes[i])))
            return 1;
    return 0;
}

/* Block devices that are not disks of their own: RAM, loop, optical, floppy, and the
 * device-mapper and md devices whose I/O their member disks already count. */
static int skip_disk(const char *dev)
{
    static const char *const skip[] = { "loop", "ram", "zram", "sr", "fd", "dm-", "md", NULL };
    return !dev || !dev[0] || prefixed(dev, skip) || !strcmp(dev, "_Total");
}

static int skip_nic(const char *nic)
{
    return !nic || !nic[0] || !strcmp(nic, "lo") || !strcmp(nic, "_Total") || strcasestr(nic, "loopback") ||
           strcasestr(nic, "isatap");
}

static void dev_set(struct hostmetrics_dev *devs, size_t *n, const char *name, enum field f, double v)
{
    size_t i = 0;
    while (i < *n && strcmp(devs[i].name, name) != 0)
        i++;
    if (i == *n) {
        if (*n == HOSTMETRICS_DEVS || strlen(name) >= sizeof devs[0].name)
            return;
        memset(&devs[i], 0, sizeof devs[i]);
        snprintf(devs[i].name, sizeof devs[i].name, "%s", name);
        devs[i].a = devs[i].b = devs[i].busy_s = devs[i].speed = NAN;
        (*n)++;
    }
    double *slot = f == F_A ? &devs[i].a : f == F_B ? &devs[i].b : f == F_BUSY ? &devs[i].busy_s : &devs[i].speed;
    *slot = isfinite(*slot) ? *slot + v : v;
}

static void add_sum(double *slot, double v)
{
    *slot = isfinite(*slot) ? *slot + v : v;
}

static int cpu(struct hostmetrics_reading *r, const struct promtext_sample *s)
{
    const char *mode = promtext_label(s, "mode");
    int node = !strcmp(s->name, "node_cpu_seconds_total");
    if (!node && strcmp(s->name, "windows_cpu_time_total") != 0)
        return 0;
    r->kind = node ? HOSTMETRICS_NODE : HOSTMETRICS_WINDOWS;
    if (r->cpus) {   /* node: cpu="3"; windows: core="0,3" (processor group, core) */
        const char *id = promtext_label(s, node ? "cpu" : "core");
        const char *comma = id ? strchr(id, ',') : NULL;
        long c = id ? strtol(comma ? comma + 1 : id, NULL, 10) : -1;
        if (c < 0 || c >= CPU_SETSIZE || !CPU_ISSET((int)c, r->cpus))
            return 1;
    }
    r->cpu_total_s += s->value;
    if (mode && (!strcmp(mode, "idle") || !strcmp(mode, "iowait")))
        r->cpu_idle_s += s->value;
    return 1;
}

static int memory(struct hostmetrics_reading *r, const struct promtext_sample *s)
{
    const char *n = s->name;
    if (!strcmp(n, "node_memory_MemTotal_bytes") || !strcmp(n, "windows_memory_physical_total_bytes") ||
        (!strcmp(n, "windows_cs_physical_memory_bytes") && !isfinite(r->mem_total)))
        r->mem_total = s->value;
    else if (!strcmp(n, "node_memory_MemAvailable_bytes") || !strcmp(n, "windows_memory_available_bytes"))
        r->mem_avail = s->value;
    else
        return 0;
    r->kind = !strncmp(n, "node_", 5) ? HOSTMETRICS_NODE : HOSTMETRICS_WINDOWS;
    return 1;
}

static int disk(struct hostmetrics_reading *r, const struct promtext_sample *s)
{
    static const struct { const char *name; enum field f; enum hostmetrics_kind kind; } m[] = {
        { "node_disk_read_bytes_total", F_A, HOSTMETRICS_NODE },
        { "node_disk_written_bytes_total", F_B, HOSTMETRICS_NODE },
        { "node_disk_io_time_seconds_total", F_BUSY, HOSTMETRICS_NODE },
        { "windows_logical_disk_read_bytes_total", F_A, HOSTMETRICS_WINDOWS },
        { "windows_logical_disk_write_bytes_total", F_B, HOSTMETRICS_WINDOWS },
        { "windows_logical_disk_idle_seconds_total", F_BUSY, HOSTMETRICS_WINDOWS },
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        if (strcmp(s->name, m[i].name) != 0)
            continue;
        const char *dev = promtext_label(s, m[i].kind == HOSTMETRICS_NODE ? "device" : "volume");
        r->kind = m[i].kind;
        if (!skip_disk(dev))
            dev_set(r->disk, &r->ndisk, dev, m[i].f, s->value);
        return 1;
    }
    return 0;
}

static int network(struct hostmetrics_reading *r, const struct promtext_sample *s)
{
    static const struct { const char *name; enum field f; enum hostmetrics_kind kind; } m[] = {
        { "node_network_receive_bytes_total", F_A, HOSTMETRICS_NODE },
        { "node_network_transmit_bytes_total", F_B, HOSTMETRICS_NODE },
        { "node_network_speed_bytes", F_SPEED, HOSTMETRICS_NODE },
        { "windows_net_bytes_received_total", F_A, HOSTMETRICS_WINDOWS },
        { "windows_net_bytes_sent_total", F_B, HOSTMETRICS_WINDOWS },
        { "windows_net_current_bandwidth_bytes", F_SPEED, HOSTMETRICS_WINDOWS },
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        if (strcmp(s->name, m[i].name) != 0)
            continue;
        const char *nic = promtext_label(s, m[i].kind == HOSTMETRICS_NODE ? "device" : "nic");
        r->kind = m[i].kind;
        if (!skip_nic(nic))
            dev_set(r->nic, &r->nnic, nic, m[i].f, s->value);
        return 1;
    }
    return 0;
}

static int sessions(struct hostmetrics_reading *r, const struct promtext_sample *s)
{
    if (!strcmp(s->name, "node_logind_sessions")) {
        r->kind = HOSTMETRICS_NODE;
    } else if (!strcmp(s->name, "windows_terminal_services_sessions")) {
        const char *state = promtext_label(s, "session_state");
        r->kind = HOSTMETRICS_WINDOWS;
        if (!state || strcmp(state, "active") != 0)
            return 1;
    } else {
        return 0;
    }
    add_sum(&r->sessions, s->value);
    return 1;
}

void hostmetrics_add(struct hostmetrics_reading *r, const struct promtext_sample *s)
{
    if (!isfinite(s->value) || s->value < 0)
        return;
    if (!cpu(r, s) && !memory(r, s) && !disk(r, s) && !network(r, s) && !sessions(r, s))
        return;
    r->samples++;
    if (s->has_ts) {
        double t = (double)s->ts_ms / 1000.0;
        if (!r->own_time || t > r->t_s)
            r->t_s = t;
        r->own_time = 1;
    }
}

static int add_cb(void *ctx, const struct promtext_sample *s)
{
    hostmetrics_add(ctx, s);
    return 0;
}

void hostmetrics_read(struct hostmetrics_reading *r, const char *text, size_t len, double t_s, const cpu_set_t *cpus,
                      struct promtext_stats *stats)
{
    hostmetrics_begin(r, t_s);
    r->cpus = cpus;
    promtext_parse(text, len, add_cb, r, stats);
}

static double clamp_pct(double v)
{
    return v < 0 ? 0 : v > 100 ? 100 : v;
}

static const struct hostmetrics_dev *find(const struct hostmetrics_dev *devs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(devs[i].name, name))
            return &devs[i];
    return NULL;
}

/* Bytes/s of field a and b summed over the devices both readings have (a counter that went back,
 * a restarted device, counts nothing); *busiest the highest per-device figure of `pct`. */
struct dev_rates { double a, b, busiest; };

static double dev_pct(enum hostmetrics_kind kind, int is_disk, const struct hostmetrics_dev *p,
                      const struct hostmetrics_dev *c, double dt)
{
    if (is_disk) {
        double d = c->busy_s - p->busy_s;
        if (!isfinite(d) || d < 0)
            return NAN;
        return clamp_pct(kind == HOSTMETRICS_WINDOWS ? 100 - d / dt * 100 : d / dt * 100);
    }
    double da = c->a - p->a, db = c->b - p->b, top = fmax(isfinite(da) ? da : 0, isfinite(db) ? db : 0);
    return isfinite(c->speed) && c->speed > 0 ? clamp_pct(top / dt / c->speed * 100) : NAN;
}

static struct dev_rates dev_rates(enum hostmetrics_kind kind, int is_disk, const struct hostmetrics_dev *prev,
                                  size_t nprev, const struct hostmetrics_dev *cur, size_t ncur, double dt)
{
    struct dev_rates r = { NAN, NAN, NAN };
    for (size_t i = 0; i < ncur; i++) {
        const struct hostmetrics_dev *p = find(prev, nprev, cur[i].name);
        if (!p)
            continue;
        double da = cur[i].a - p->a, db = cur[i].b - p->b, pct = dev_pct(kind, is_disk, p, &cur[i], dt);
        if (isfinite(da) && da >= 0)
            add_sum(&r.a, da / dt);
        if (isfinite(db) && db >= 0)
            add_sum(&r.b, db / dt);
        if (isfinite(pct) && !(pct <= r.busiest))
            r.busiest = pct;
    }
    return r;
}

int hostmetrics_rates(const struct hostmetrics_reading *prev, const struct hostmetrics_reading *cur,
                      struct store_target_metrics *out)
{
    out->cpu_pct = out->disk_read_bps = out->disk_write_bps = out->disk_busy_pct = NAN;
    out->net_rx_bps = out->net_tx_bps = out->net_pct = NAN;
    out->mem_avail_bytes = cur->mem_avail;
    out->mem_used_bytes = isfinite(cur->mem_total) && isfinite(cur->mem_avail) && cur->mem_total >= cur->mem_avail
                              ? cur->mem_total - cur->mem_avail : NAN;
    out->sessions = cur->sessions;
    double dt = cur->t_s - prev->t_s;
    if (!(dt > 0))
        return 0;
    double dtotal = cur->cpu_total_s - prev->cpu_total_s, didle = cur->cpu_idle_s - prev->cpu_idle_s;
    if (dtotal > 0 && didle >= 0)
        out->cpu_pct = clamp_pct((1 - didle / dtotal) * 100);
    struct dev_rates d = dev_rates(cur->kind, 1, prev->disk, prev->ndisk, cur->disk, cur->ndisk, dt);
    struct dev_rates n = dev_rates(cur->kind, 0, prev->nic, prev->nnic, cur->nic, cur->nnic, dt);
    out->disk_read_bps = d.a;
    out->disk_write_bps = d.b;
    out->disk_busy_pct = d.busiest;
    out->net_rx_bps = n.a;
    out->net_tx_bps = n.b;
    out->net_pct = n.busiest;
    return 1;
}
