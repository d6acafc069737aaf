/* test_hostmetrics.c -- exporters' metrics to stored figures: windows_exporter on the recorded
 * sample (fixture_windows_exporter.h), node_exporter (loopback, partitions' device-mapper twins
 * left out), a Prometheus /federate reply timed by its own timestamps, counters that go back. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "controller/run/hostmetrics.h"
#include "fixture_windows_exporter.h"

static void rates_of(const char *a, const char *b, double dt, struct store_target_metrics *m, int *rc)
{
    struct hostmetrics_reading r0, r1;
    struct promtext_stats st;
    hostmetrics_read(&r0, a, strlen(a), 100, NULL, &st);
    CU_ASSERT_EQUAL(st.malformed, 0);
    hostmetrics_read(&r1, b, strlen(b), 100 + dt, NULL, &st);
    CU_ASSERT_EQUAL(st.malformed, 0);
    store_target_metrics_clear(m);
    *rc = hostmetrics_rates(&r0, &r1, m);
}

static void test_hostmetrics__windows_exporter(void)
{
    struct store_target_metrics m;
    int rc;
    struct hostmetrics_reading r;
    hostmetrics_read(&r, WINDOWS_EXPORTER_T0, strlen(WINDOWS_EXPORTER_T0), 0, NULL, NULL);
    CU_ASSERT_EQUAL(r.kind, HOSTMETRICS_WINDOWS);
    CU_ASSERT_EQUAL(r.ndisk, 2);
    CU_ASSERT_EQUAL(r.nnic, 1);
    rates_of(WINDOWS_EXPORTER_T0, WINDOWS_EXPORTER_T1, 10, &m, &rc);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_DOUBLE_EQUAL(m.cpu_pct, 90, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(m.mem_used_bytes, 12884901888.0, 1);
    CU_ASSERT_DOUBLE_EQUAL(m.mem_avail_bytes, 4294967296.0, 1);
    CU_ASSERT_DOUBLE_EQUAL(m.disk_read_bps, 500000, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(m.disk_write_bps, 2000000, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(m.disk_busy_pct, 30, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(m.net_rx_bps, 1250000, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(m.net_tx_bps, 25000000, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(m.net_pct, 20, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(m.sessions, 84, 0);
    /* the target's CPUs only (core "0,1": 7 user + 2 privileged of its 10 s) */
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(1, &one);
    struct hostmetrics_reading a, b;
    hostmetrics_read(&a, WINDOWS_EXPORTER_T0, strlen(WINDOWS_EXPORTER_T0), 0, &one, NULL);
    hostmetrics_read(&b, WINDOWS_EXPORTER_T1, strlen(WINDOWS_EXPORTER_T1), 10, &one, NULL);
    CU_ASSERT_EQUAL(hostmetrics_rates(&a, &b, &m), 1);
    CU_ASSERT_DOUBLE_EQUAL(m.cpu_pct, 90, 1e-9);
    CPU_ZERO(&one);
    CPU_SET(5, &one);   /* no such core: no CPU figure */
    hostmetrics_read(&a, WINDOWS_EXPORTER_T0, strlen(WINDOWS_EXPORTER_T0), 0, &one, NULL);
    hostmetrics_read(&b, WINDOWS_EXPORTER_T1, strlen(WINDOWS_EXPORTER_T1), 10, &one, NULL);
    hostmetrics_rates(&a, &b, &m);
    CU_ASSERT(isnan(m.cpu_pct));
}

#define NODE(idle, user, iowait, sda_rd, sda_io, dm_rd, lo_rx, eth_rx) \
    "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} " idle "\n" \
    "node_cpu_seconds_total{cpu=\"0\",mode=\"iowait\"} " iowait "\n" \
    "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"} " user "\n" \
    "node_cpu_seconds_total{cpu=\"0\",mode=\"system\"} 10\n" \
    "node_memory_MemTotal_bytes 8e+09\nnode_memory_MemAvailable_bytes 2e+09\n" \
    "node_disk_read_bytes_total{device=\"sda\"} " sda_rd "\n" \
    "node_disk_written_bytes_total{device=\"sda\"} 0\n" \
    "node_disk_io_time_seconds_total{device=\"sda\"} " sda_io "\n" \
    "node_disk_read_bytes_total{device=\"dm-0\"} " dm_rd "\n" \
    "node_disk_io_time_seconds_total{device=\"loop0\"} 0\n" \
    "node_network_receive_bytes_total{device=\"lo\"} " lo_rx "\n" \
    "node_network_receive_bytes_total{device=\"eth0\"} " eth_rx "\n" \
    "node_network_transmit_bytes_total{device=\"eth0\"} 0\n"

static void test_hostmetrics__node_exporter(void)
{
    struct store_target_metrics m;
    int rc;
    /* 4 s: idle+iowait 1 of 4 CPU seconds; sda read 4 MB, busy 2 s; dm-0 and lo not counted */
    rates_of(NODE("100", "50", "5", "1e6", "10", "1e6", "0", "1000"),
             NODE("100.5", "53", "5.5", "5e6", "12", "9e6", "1e9", "5000"), 4, &m, &rc);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_DOUBLE_EQUAL(m.cpu_pct, 75, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(m.mem_used_bytes, 6e9, 1);
    CU_ASSERT_DOUBLE_EQUAL(m.disk_read_bps, 1e6, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(m.disk_busy_pct, 50, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(m.net_rx_bps, 1000, 1e-9);
    CU_ASSERT(isnan(m.net_pct));    /* no node_network_speed_bytes */
    CU_ASSERT(isnan(m.sessions));   /* no logind collector */
    /* a counter that went back (a restarted exporter, a replaced disk) counts nothing */
    rates_of(NODE("100", "50", "5", "5e6", "12", "0", "0", "9000"),
             NODE("101", "51", "5", "1e6", "13", "0", "0", "5000"), 2, &m, &rc);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT(isnan(m.disk_read_bps));
    CU_ASSERT(isnan(m.net_rx_bps));
    CU_ASSERT_DOUBLE_EQUAL(m.disk_busy_pct, 50, 1e-9);
}

static void test_hostmetrics__federate_timestamps(void)
{
    static const char a[] = "node_cpu_seconds_total{cpu=\"0\",instance=\"h:9100\",job=\"node\",mode=\"idle\"} 10 1700000000000\n"
                            "node_cpu_seconds_total{cpu=\"0\",instance=\"h:9100\",job=\"node\",mode=\"user\"} 10 1700000000000\n";
    static const char b[] = "node_cpu_seconds_total{cpu=\"0\",instance=\"h:9100\",job=\"node\",mode=\"idle\"} 13 1700000015000\n"
                            "node_cpu_seconds_total{cpu=\"0\",instance=\"h:9100\",job=\"node\",mode=\"user\"} 22 1700000015000\n";
    struct hostmetrics_reading r0, r1, r2;
    struct store_target_metrics m;
    hostmetrics_read(&r0, a, strlen(a), 5, NULL, NULL);
    CU_ASSERT_TRUE(r0.own_time);
    CU_ASSERT_DOUBLE_EQUAL(r0.t_s, 1700000000.0, 1e-3);
    hostmetrics_read(&r1, a, strlen(a), 10, NULL, NULL);   /* scraped again before Prometheus scraped the host */
    store_target_metrics_clear(&m);
    CU_ASSERT_EQUAL(hostmetrics_rates(&r0, &r1, &m), 0);
    hostmetrics_read(&r2, b, strlen(b), 15, NULL, NULL);
    CU_ASSERT_EQUAL(hostmetrics_rates(&r0, &r2, &m), 1);
    CU_ASSERT_DOUBLE_EQUAL(m.cpu_pct, 80, 1e-9);
}

static void test_hostmetrics__not_an_exporter(void)
{
    struct hostmetrics_reading r;
    static const char text[] = "# a web page?\ngo_goroutines 8\nprocess_cpu_seconds_total 1.5\n";
    hostmetrics_read(&r, text, strlen(text), 0, NULL, NULL);
    CU_ASSERT_EQUAL(r.kind, HOSTMETRICS_NONE);
    hostmetrics_read(&r, "<html>", 6, 0, NULL, NULL);
    CU_ASSERT_EQUAL(r.kind, HOSTMETRICS_NONE);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_hostmetrics__windows_exporter),
        UNIT_TEST(test_hostmetrics__node_exporter),
        UNIT_TEST(test_hostmetrics__federate_timestamps),
        UNIT_TEST(test_hostmetrics__not_an_exporter),
        UNIT_END,
    };
    return unit_run("hostmetrics", tests, NULL, NULL);
}
