/* fuzz_simhost.c -- libFuzzer harness for simhost's other parsers of outside input (the users
 * file is fuzz_sim_users.c's). The first byte picks one, the rest is its text:
 *   0  a run-box line as a client types it (sim_cmd_parse): a command that parses names a plain
 *      file and drive (never a path); an unknown one carries a non-empty message;
 *   1  a plan for `--predict --plan` (sim_ramp_plan_load), whose workload is a valid one beside it;
 *   2  a workload for `--predict` (sim_predict_load), walked into the cost model's loop.
 * Plans and workloads are read from files (what the loaders take): one tmpfs directory made once,
 * one write per input. Any text loads or gives one non-empty line; nothing may crash, leak, hang
 * or read out of bounds. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "simhost/desktop/cmd.h"
#include "simhost/desktop/cost.h"
#include "simhost/model/predict.h"
#include "simhost/model/ramp_plan.h"

static char dir[64], plan_path[96], wl_path[96], predict_path[96];

static const char workload[] =
    "version: 1\nname: w\nregions: {r: [0, 0, 8, 8]}\nlogon: {change: r, timeout: 5s}\n"
    "loop:\n  - timer: edit\n    steps: [{type: \"edit doc1.txt\"}, {key: enter}]\n"
    "    until: {change: r, timeout: 5s}\n  - think: 2s..4s\n";

static void one_line(const char *err)
{
    if (!err[0] || strchr(err, '\n')) {
        fprintf(stderr, "not one line: '%s'\n", err);
        abort();
    }
}

static void put(const char *path, const uint8_t *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size || close(fd) != 0)
        abort();
}

static void cleanup(void)
{
    unlink(plan_path);
    unlink(wl_path);
    unlink(predict_path);
    rmdir(dir);
}

/* The directory, the plan's workload (w.yaml) and stdin from /dev/null (a plan may name any
 * file as its workload, /dev/stdin included). */
static void setup(void)
{
    snprintf(dir, sizeof dir, "/dev/shm/fuzz_simhost-%d", (int)getpid());
    snprintf(plan_path, sizeof plan_path, "%s/plan.yaml", dir);
    snprintf(wl_path, sizeof wl_path, "%s/w.yaml", dir);
    snprintf(predict_path, sizeof predict_path, "%s/predict.yaml", dir);
    int null = open("/dev/null", O_RDONLY);
    if (mkdir(dir, 0700) != 0 || null < 0 || dup2(null, 0) < 0)
        abort();
    close(null);
    put(wl_path, (const uint8_t *)workload, sizeof workload - 1);
    atexit(cleanup);
}

static void run_box(const uint8_t *data, size_t size)
{
    char *line = malloc(size + 1);
    struct sim_cmd c;
    if (!line)
        return;
    memcpy(line, data, size);
    line[size] = '\0';
    enum sim_cmd_kind k = sim_cmd_parse(line, &c);
    if (k != c.kind || (unsigned)k >= SIM_CMD_KIND_COUNT)
        abort();
    if (k == SIM_CMD_UNKNOWN && !c.text[0])
        abort();
    if ((k == SIM_CMD_EDIT || k == SIM_CMD_ZIP9 || k == SIM_CMD_ZIP1 || k == SIM_CMD_COPYIN ||
         k == SIM_CMD_COPYOUT) && (!sim_cmd_valid_file(c.arg) || strchr(c.arg, '/')))
        abort();
    if ((k == SIM_CMD_COPYIN || k == SIM_CMD_COPYOUT) && (!c.drive[0] || strchr(c.drive, '/')))
        abort();
    free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct sim_costs costs = {
        .scale = 1, .work_s = { 0, 0.08, 0.3, 0.1, 0.5, 0, 0.01, 0.02, 0.02, 0.05, 0 },
        .paint_s = { 0, 0.004, 0.002, 0.002, 0.002, 0, 0.003, 0.002, 0.002, 0.002, 0 },
        .key_s = 0.0002, .tls_byte_s = 2e-9,
    };
    char err[1024];
    struct sim_loop l;
    struct sim_ramp_plan p;
    if (size < 1)
        return 0;
    if (!dir[0])
        setup();
    err[0] = '\0';
    switch (data[0] % 3) {
    case 0:
        run_box(data + 1, size - 1);
        break;
    case 1:
        put(plan_path, data + 1, size - 1);
        if (sim_ramp_plan_load(plan_path, &costs, &p, &l, err, sizeof err) != 0)
            one_line(err);
        break;
    default:
        put(predict_path, data + 1, size - 1);
        if (sim_predict_loop(predict_path, &l, err, sizeof err) != 0)
            one_line(err);
        else
            (void)sim_cost_capacity(&costs, &l, 2);
        break;
    }
    return 0;
}
