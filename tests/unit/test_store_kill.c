/* test_store_kill.c -- a results-store writer killed with SIGKILL, once in the middle of an open
 * batch whose pages spilled into the WAL and once while writing flat out: the file stays intact,
 * holds whole batches only, in order, and the next controller marks the run aborted. */
#include "unit.h"

#include "db/store.h"
#include "fixture_db.h"

#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define KILL_BATCH 400u
#define KILL_MID_BATCH 0xFFFFFFFFu

/* Rows of the batch left open in the deterministic variant: enough to overflow SQLite's page
 * cache (2 MB by default; a sample takes about 20 bytes), so uncommitted pages really are in the WAL when the kill lands. */
#define KILL_SPILL_ROWS 400000u

/* The child: writes samples in batches of KILL_BATCH forever, reporting on `fd` the number of
 * batches committed after each commit. With `stop_mid_batch` it stops after that many batches,
 * opens one more that never fills (KILL_SPILL_ROWS rows), reports KILL_MID_BATCH and waits to
 * be killed. Never returns. */
static void kill_child(const char *path, int fd, uint32_t stop_mid_batch)
{
    char err[512];
    struct store *st = store_open(path, STORE_WRITE, err, sizeof err);
    if (!st)
        _exit(3);
    store_set_batch(st, KILL_BATCH, 3600ull * 1000000);
    int64_t run = begin_run(st, "killed");
    if (run <= 0)
        _exit(4);
    for (uint64_t i = 0;; i++) {
        struct rec_sample s = sample((uint32_t)(i % 50), 1000000 + i, i % 3 ? "open" : "type", (int64_t)i);
        if (store_add_sample(st, run, &s, 50) != 0)
            _exit(5);
        uint32_t batches = (uint32_t)((i + 1) / KILL_BATCH);
        if ((i + 1) % KILL_BATCH == 0 && write(fd, &batches, sizeof batches) != sizeof batches)
            _exit(6);
        if (stop_mid_batch && batches == stop_mid_batch && (i + 1) % KILL_BATCH == 0) {
            store_set_batch(st, KILL_SPILL_ROWS * 2, 3600ull * 1000000);
            for (uint64_t j = i + 1; j <= i + KILL_SPILL_ROWS; j++) {
                s = sample((uint32_t)(j % 50), 1000000 + j, "open", (int64_t)j);
                if (store_add_sample(st, run, &s, 50) != 0)
                    _exit(5);
            }
            uint32_t mark = KILL_MID_BATCH;
            if (write(fd, &mark, sizeof mark) != sizeof mark)
                _exit(6);
            for (;;)
                pause();
        }
    }
}

static long wal_size(const char *path)
{
    char wal[4200];
    struct stat sb;
    snprintf(wal, sizeof wal, "%s-wal", path);
    return stat(wal, &sb) == 0 ? (long)sb.st_size : -1;
}

/* Runs a child, kills it after it reported `batches` commits (or its mid-batch mark), and
 * returns the highest commit count it reported. */
static long kill_writer(const char *path, uint32_t batches, uint32_t stop_mid_batch)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        kill_child(path, fds[1], stop_mid_batch);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return -1;
    }
    uint32_t v, last = 0;
    int killed = 0;
    while (read(fds[0], &v, sizeof v) == sizeof v) {
        if (v != KILL_MID_BATCH)
            last = v;
        /* The committed batches need well under 0.5 MB of WAL: anything past 1 MB is pages
         * of the open batch that spilled from the cache, as intended. */
        if (v == KILL_MID_BATCH)
            CU_ASSERT(wal_size(path) > 1024L * 1024);
        if (!killed && (v == KILL_MID_BATCH || (!stop_mid_batch && v >= batches))) {
            kill(pid, SIGKILL);
            killed = 1;
        }
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    CU_ASSERT_TRUE(killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    return last;
}

static void check_killed_file(const char *path, long reported, int exact)
{
    char report[2048];
    CU_ASSERT_EQUAL(store_check(path, report, sizeof report), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "integrity: ok"));
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "1 running"));
    struct store *st = open_ok(path, STORE_READ);
    struct store_samples s;
    CU_ASSERT_EQUAL_FATAL(store_load_samples(st, 1, &s), 0);
    long batches = (long)(s.count / KILL_BATCH);
    CU_ASSERT_EQUAL(s.count % KILL_BATCH, 0);      /* whole batches only */
    if (exact) {
        CU_ASSERT_EQUAL(batches, reported);
    } else {  /* a commit may land between its report and the kill, never one less */
        CU_ASSERT_TRUE(batches == reported || batches == reported + 1);
    }
    for (size_t i = 0; i < s.count; i++)
        if (s.rows[i].value_us != (int64_t)i) {
            CU_FAIL("samples lost or reordered");
            break;
        }
    store_free_samples(&s);
    store_close(st);
    /* the next controller marks the run aborted */
    st = open_ok(path, STORE_WRITE);
    CU_ASSERT_EQUAL(store_mark_stale_runs(st), 1);
    store_close(st);
}

static void test_store__sigkill_mid_batch(void)
{
    const char *path = db_path("killed_mid.db");
    long reported = kill_writer(path, 0, 6);
    CU_ASSERT_EQUAL(reported, 6);
    check_killed_file(path, reported, 1);
}

static void test_store__sigkill_while_writing(void)
{
    const char *path = db_path("killed_busy.db");
    long reported = kill_writer(path, 10, 0);
    CU_ASSERT(reported >= 10);
    check_killed_file(path, reported, 0);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_store__sigkill_mid_batch),
        UNIT_TEST(test_store__sigkill_while_writing),
        UNIT_END,
    };
    return unit_run("store_kill", tests, NULL, NULL);
}
