/* metrics.c -- simhost's own node_exporter-style metrics (metrics.h). */
#include "simhost/server/metrics.h"

#include "common/clock.h"
#include "common/hostport.h"
#include "common/log.h"
#include "simhost/server/server_state.h"

#include <event2/buffer.h>
#include <fcntl.h>
#include <event2/event.h>
#include <event2/http.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

struct sim_metrics {
    struct sim_server *srv;
    struct event_base *base;
    struct evhttp *http;
    pthread_t th;
    int th_started;
    int stop_fd[2];                /* a byte on [1] ends the loop from its own thread */
    struct event *stop_ev;
    uint64_t t0_us;
    int cpus;
    double idle_floor;
};

void sim_metrics_write(FILE *o, const struct sim_metrics_figures *f, double *idle_floor)
{
    int n = f->cpus > 0 ? f->cpus : 1;
    double user = f->user_s / n, sys = f->system_s / n, idle = f->wall_s - user - sys;
    idle = idle > *idle_floor ? idle : *idle_floor;
    *idle_floor = idle;
    fprintf(o, "# HELP node_cpu_seconds_total Seconds the CPUs of sessmax-simhost's budget spent in each mode.\n"
               "# TYPE node_cpu_seconds_total counter\n");
    for (int c = 0; c < n; c++)
        fprintf(o, "node_cpu_seconds_total{cpu=\"%d\",mode=\"idle\"} %.3f\n"
                   "node_cpu_seconds_total{cpu=\"%d\",mode=\"system\"} %.3f\n"
                   "node_cpu_seconds_total{cpu=\"%d\",mode=\"user\"} %.3f\n", c, idle, c, sys, c, user);
    fprintf(o, "# HELP node_memory_MemTotal_bytes Memory of the machine.\n# TYPE node_memory_MemTotal_bytes gauge\n"
               "node_memory_MemTotal_bytes %.0f\n"
               "# HELP node_memory_MemAvailable_bytes The machine's memory less sessmax-simhost's resident set.\n"
               "# TYPE node_memory_MemAvailable_bytes gauge\nnode_memory_MemAvailable_bytes %.0f\n",
            f->mem_total, f->mem_total > f->rss ? f->mem_total - f->rss : 0);
    fprintf(o, "# HELP node_logind_sessions Sessions logged on to sessmax-simhost.\n# TYPE node_logind_sessions gauge\n"
               "node_logind_sessions{class=\"user\",remote=\"true\",seat=\"\",type=\"rdp\"} %d\n", f->sessions);
}

static double rss_bytes(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "re");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return (double)resident * (double)sysconf(_SC_PAGESIZE);
}

static void figures(struct sim_metrics *m, struct sim_metrics_figures *f)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    f->cpus = m->cpus;
    f->user_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
    f->system_s = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    f->wall_s = (double)(clock_now_us() - m->t0_us) / 1e6;
    f->mem_total = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    f->rss = rss_bytes();
    pthread_mutex_lock(&m->srv->mu);
    f->sessions = m->srv->sessions;
    pthread_mutex_unlock(&m->srv->mu);
}

static void request_cb(struct evhttp_request *req, void *arg)
{
    struct sim_metrics *m = arg;
    const char *uri = evhttp_request_get_uri(req);
    if (evhttp_request_get_command(req) != EVHTTP_REQ_GET || !uri || strncmp(uri, "/metrics", 8) != 0 ||
        (uri[8] && uri[8] != '?')) {
        evhttp_send_error(req, 404, "Not Found");
        return;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&text, &len);
    if (!o) {
        evhttp_send_error(req, 500, "Internal Server Error");
        return;
    }
    struct sim_metrics_figures f;
    figures(m, &f);
    sim_metrics_write(o, &f, &m->idle_floor);
    fclose(o);
    struct evbuffer *b = evbuffer_new();
    if (b && evbuffer_add(b, text, len) == 0) {
        evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type", "text/plain; version=0.0.4");
        evhttp_send_reply(req, 200, "OK", b);
    } else {
        evhttp_send_error(req, 500, "Internal Server Error");
    }
    if (b)
        evbuffer_free(b);
    free(text);
}

static void stop_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    event_base_loopbreak(((struct sim_metrics *)arg)->base);
}

static void *serve(void *arg)
{
    struct sim_metrics *m = arg;
    event_base_loop(m->base, EVLOOP_NO_EXIT_ON_EMPTY);
    return NULL;
}

struct sim_metrics *sim_metrics_start(struct sim_server *srv, const char *listen)
{
    char host[256];
    uint16_t port;
    if (hostport_split(listen, 0, host, sizeof host, &port) != 0 || !port) {
        log_error("--metrics-listen: expected HOST:PORT, got '%s'", listen);
        return NULL;
    }
    struct sim_metrics *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->srv = srv;
    m->t0_us = clock_now_us();
    m->stop_fd[0] = m->stop_fd[1] = -1;
    cpu_set_t set;
    m->cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    if (pipe2(m->stop_fd, O_CLOEXEC) != 0 || !(m->base = event_base_new()) ||
        !(m->stop_ev = event_new(m->base, m->stop_fd[0], EV_READ, stop_cb, m)) || event_add(m->stop_ev, NULL) != 0 ||
        !(m->http = evhttp_new(m->base)) || evhttp_bind_socket(m->http, host, port) != 0) {
        log_error("--metrics-listen %s: cannot listen (port in use, or not a local address?)", listen);
        sim_metrics_stop(m);
        return NULL;
    }
    evhttp_set_allowed_methods(m->http, EVHTTP_REQ_GET);
    evhttp_set_gencb(m->http, request_cb, m);
    if (pthread_create(&m->th, NULL, serve, m) != 0) {
        sim_metrics_stop(m);
        return NULL;
    }
    m->th_started = 1;
    printf("sessmax-simhost: metrics on http://%s:%u/metrics (node_exporter names, %d CPU budget)\n", host, port,
           m->cpus);
    fflush(stdout);
    return m;
}

void sim_metrics_stop(struct sim_metrics *m)
{
    if (!m)
        return;
    if (m->th_started) {
        ssize_t n = write(m->stop_fd[1], "x", 1);
        (void)n;
        pthread_join(m->th, NULL);
    }
    if (m->http)
        evhttp_free(m->http);
    if (m->stop_ev)
        event_free(m->stop_ev);
    for (int i = 0; i < 2; i++)
        if (m->stop_fd[i] >= 0)
            close(m->stop_fd[i]);
    if (m->base)
        event_base_free(m->base);
    free(m);
}
