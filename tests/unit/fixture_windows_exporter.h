/* fixture_windows_exporter.h -- two scrapes of windows_exporter on an RDS host, 10 s apart, as its
 * documentation describes the collectors' output (docs/collector.cpu.md, .cs.md, .memory.md,
 * .logical_disk.md, .net.md, .terminal_services.md: names, labels, HELP and TYPE lines), trimmed
 * to two cores, two volumes and one NIC. Between the two: the cores spent 18 of their 20 seconds
 * busy (90 %), volume C: was idle 7 s of 10 (30 % busy) and read 5 MB and wrote 20 MB, the NIC
 * received 12.5 MB and sent 250 MB on a 1 Gbit/s link (20 % of it); 4 GiB of 16 GiB available
 * (75 % used); 84 active sessions. */
#ifndef SESSMAX_FIXTURE_WINDOWS_EXPORTER_H
#define SESSMAX_FIXTURE_WINDOWS_EXPORTER_H

#define WINDOWS_EXPORTER_HEAD \
    "# HELP windows_exporter_build_info A metric with a constant '1' value labeled by version, revision, branch, goversion from which windows_exporter was built, and the goos and goarch for the build.\n" \
    "# TYPE windows_exporter_build_info gauge\n" \
    "windows_exporter_build_info{branch=\"heads/tags/v0.25.1\",goarch=\"amd64\",goos=\"windows\",goversion=\"go1.21.5\",revision=\"0c6ffd9\",tags=\"unknown\",version=\"0.25.1\"} 1\n" \
    "# HELP windows_cpu_time_total Time that processor spent in different modes (dpc, idle, interrupt, privileged, user)\n" \
    "# TYPE windows_cpu_time_total counter\n"

#define WINDOWS_EXPORTER_CPU(i0, u0, p0, i1, u1, p1) \
    "windows_cpu_time_total{core=\"0,0\",mode=\"dpc\"} 10.25\n" \
    "windows_cpu_time_total{core=\"0,0\",mode=\"idle\"} " i0 "\n" \
    "windows_cpu_time_total{core=\"0,0\",mode=\"interrupt\"} 5.5\n" \
    "windows_cpu_time_total{core=\"0,0\",mode=\"privileged\"} " p0 "\n" \
    "windows_cpu_time_total{core=\"0,0\",mode=\"user\"} " u0 "\n" \
    "windows_cpu_time_total{core=\"0,1\",mode=\"dpc\"} 9.75\n" \
    "windows_cpu_time_total{core=\"0,1\",mode=\"idle\"} " i1 "\n" \
    "windows_cpu_time_total{core=\"0,1\",mode=\"interrupt\"} 4.5\n" \
    "windows_cpu_time_total{core=\"0,1\",mode=\"privileged\"} " p1 "\n" \
    "windows_cpu_time_total{core=\"0,1\",mode=\"user\"} " u1 "\n"

#define WINDOWS_EXPORTER_MEMORY \
    "# HELP windows_cs_physical_memory_bytes ComputerSystem.TotalPhysicalMemory\n" \
    "# TYPE windows_cs_physical_memory_bytes gauge\n" \
    "windows_cs_physical_memory_bytes 1.7179869184e+10\n" \
    "# HELP windows_memory_available_bytes The amount of physical memory immediately available for allocation to a process or for system use. It is equal to the sum of memory assigned to the standby (cached), free and zero page lists (AvailableBytes)\n" \
    "# TYPE windows_memory_available_bytes gauge\n" \
    "windows_memory_available_bytes 4.294967296e+09\n"

#define WINDOWS_EXPORTER_DISK(rd, wr, idle_c, idle_v1) \
    "# HELP windows_logical_disk_idle_seconds_total Seconds that the disk was idle (PercentIdleTime)\n" \
    "# TYPE windows_logical_disk_idle_seconds_total counter\n" \
    "windows_logical_disk_idle_seconds_total{volume=\"C:\"} " idle_c "\n" \
    "windows_logical_disk_idle_seconds_total{volume=\"HarddiskVolume1\"} " idle_v1 "\n" \
    "# HELP windows_logical_disk_read_bytes_total The number of bytes transferred from the disk during read operations (LogicalDisk.DiskReadBytesPerSec)\n" \
    "# TYPE windows_logical_disk_read_bytes_total counter\n" \
    "windows_logical_disk_read_bytes_total{volume=\"C:\"} " rd "\n" \
    "windows_logical_disk_read_bytes_total{volume=\"HarddiskVolume1\"} 1.2288e+06\n" \
    "# HELP windows_logical_disk_write_bytes_total The number of bytes transferred to the disk during write operations (LogicalDisk.DiskWriteBytesPerSec)\n" \
    "# TYPE windows_logical_disk_write_bytes_total counter\n" \
    "windows_logical_disk_write_bytes_total{volume=\"C:\"} " wr "\n" \
    "windows_logical_disk_write_bytes_total{volume=\"HarddiskVolume1\"} 0\n"

#define WINDOWS_EXPORTER_NET(rx, tx) \
    "# HELP windows_net_bytes_received_total (Network.BytesReceivedPerSec)\n" \
    "# TYPE windows_net_bytes_received_total counter\n" \
    "windows_net_bytes_received_total{nic=\"Microsoft_Hyper_V_Network_Adapter\"} " rx "\n" \
    "# HELP windows_net_bytes_sent_total (Network.BytesSentPerSec)\n" \
    "# TYPE windows_net_bytes_sent_total counter\n" \
    "windows_net_bytes_sent_total{nic=\"Microsoft_Hyper_V_Network_Adapter\"} " tx "\n" \
    "# HELP windows_net_current_bandwidth_bytes (Network.CurrentBandwidth)\n" \
    "# TYPE windows_net_current_bandwidth_bytes gauge\n" \
    "windows_net_current_bandwidth_bytes{nic=\"Microsoft_Hyper_V_Network_Adapter\"} 1.25e+08\n"

#define WINDOWS_EXPORTER_SESSIONS \
    "# HELP windows_terminal_services_sessions Number of Terminal Services sessions\n" \
    "# TYPE windows_terminal_services_sessions gauge\n" \
    "windows_terminal_services_sessions{session_state=\"active\"} 84\n" \
    "windows_terminal_services_sessions{session_state=\"connected\"} 0\n" \
    "windows_terminal_services_sessions{session_state=\"connect_query\"} 0\n" \
    "windows_terminal_services_sessions{session_state=\"disconnected\"} 2\n" \
    "windows_terminal_services_sessions{session_state=\"down\"} 0\n" \
    "windows_terminal_services_sessions{session_state=\"idle\"} 0\n" \
    "windows_terminal_services_sessions{session_state=\"init\"} 0\n" \
    "windows_terminal_services_sessions{session_state=\"listen\"} 1\n" \
    "windows_terminal_services_sessions{session_state=\"reset\"} 0\n" \
    "windows_terminal_services_sessions{session_state=\"shadow\"} 0\n"

/* The first scrape and the one 10 s later. */
static const char WINDOWS_EXPORTER_T0[] =
    WINDOWS_EXPORTER_HEAD WINDOWS_EXPORTER_CPU("1000", "200", "100", "1000", "210", "90")
    WINDOWS_EXPORTER_MEMORY WINDOWS_EXPORTER_DISK("1e+09", "2e+09", "5000", "5000")
    WINDOWS_EXPORTER_NET("1e+08", "3e+08") WINDOWS_EXPORTER_SESSIONS;
static const char WINDOWS_EXPORTER_T1[] =
    WINDOWS_EXPORTER_HEAD WINDOWS_EXPORTER_CPU("1001", "208", "101", "1001", "217", "92")
    WINDOWS_EXPORTER_MEMORY WINDOWS_EXPORTER_DISK("1.005e+09", "2.02e+09", "5007", "5010")
    WINDOWS_EXPORTER_NET("1.125e+08", "5.5e+08") WINDOWS_EXPORTER_SESSIONS;

#endif
