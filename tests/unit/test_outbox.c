/* test_outbox.c -- the agent's unacknowledged batches: kept in order until acknowledged, sent
 * again from the first unacknowledged one on a new link, spilled to a private file past the
 * memory limit and read back intact, the file emptied once nothing spilled is waiting. */
#include "unit.h"

#include "agent/link/outbox.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void frame(uint64_t seq, uint8_t *buf, size_t len)
{
    for (size_t i = 0; i < len; i++)
        buf[i] = (uint8_t)(seq * 31 + i);
}

static int next_is(struct outbox *ob, uint64_t seq, size_t len)
{
    const uint8_t *b;
    size_t n;
    uint8_t want[300];
    frame(seq, want, len);
    return outbox_next(ob, &b, &n) == 1 && n == len && memcmp(b, want, len) == 0;
}

/* Files left in dir (the spill file is unlinked as soon as it is created). */
static int files_in(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void test_outbox__order_ack_rewind(void)
{
    struct outbox *ob = outbox_new(1 << 20, unit_tmpdir());
    uint8_t buf[300];
    for (uint64_t s = 1; s <= 5; s++) {
        frame(s, buf, 100);
        CU_ASSERT_EQUAL_FATAL(outbox_push(ob, s, buf, 100), 0);
    }
    CU_ASSERT(next_is(ob, 1, 100));
    CU_ASSERT(next_is(ob, 2, 100));
    outbox_ack(ob, 1);
    CU_ASSERT(next_is(ob, 3, 100));
    /* the link breaks: a new one starts again after the last acknowledged */
    outbox_rewind(ob);
    CU_ASSERT(next_is(ob, 2, 100));
    outbox_ack(ob, 4);                 /* the controller had stored up to 4 */
    CU_ASSERT(next_is(ob, 5, 100));
    const uint8_t *b;
    size_t n;
    CU_ASSERT_EQUAL(outbox_next(ob, &b, &n), 0);
    CU_ASSERT_EQUAL(outbox_frames(ob), 1);
    outbox_ack(ob, 5);
    CU_ASSERT_EQUAL(outbox_frames(ob), 0);
    CU_ASSERT_EQUAL(outbox_mem_bytes(ob), 0);
    outbox_free(ob);
}

static void test_outbox__spills_past_the_limit(void)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/spill", unit_tmpdir());
    mkdir(dir, 0700);
    struct outbox *ob = outbox_new(1000, dir);   /* room for 4 frames of 250 bytes */
    uint8_t buf[300];
    for (uint64_t s = 1; s <= 2000; s++) {
        frame(s, buf, 250);
        CU_ASSERT_EQUAL_FATAL(outbox_push(ob, s, buf, 250), 0);
    }
    CU_ASSERT(outbox_mem_bytes(ob) <= 1000);
    CU_ASSERT(outbox_spilled_bytes(ob) >= 1996 * 250);
    CU_ASSERT_EQUAL(files_in(dir), 0);        /* private: no name to open it by */
    int ok = 1;
    for (uint64_t s = 1; s <= 2000; s++)
        ok &= next_is(ob, s, 250);
    CU_ASSERT(ok);
    /* acknowledged in part, then a new link: reads back from the spill file again */
    outbox_ack(ob, 1500);
    outbox_rewind(ob);
    ok = 1;
    for (uint64_t s = 1501; s <= 2000; s++)
        ok &= next_is(ob, s, 250);
    CU_ASSERT(ok);
    outbox_ack(ob, 2000);
    CU_ASSERT_EQUAL(outbox_spilled_bytes(ob), 0);   /* emptied */
    /* memory is free again: new frames are kept there */
    frame(2001, buf, 250);
    CU_ASSERT_EQUAL(outbox_push(ob, 2001, buf, 250), 0);
    CU_ASSERT_EQUAL(outbox_mem_bytes(ob), 250);
    outbox_free(ob);
}

static void test_outbox__spill_dir_missing(void)
{
    struct outbox *ob = outbox_new(100, "/nonexistent/dir");
    uint8_t buf[300] = { 0 };
    CU_ASSERT_EQUAL(outbox_push(ob, 1, buf, 80), 0);
    CU_ASSERT_EQUAL(outbox_push(ob, 2, buf, 80), -1);   /* no room, no file: reported */
    outbox_free(ob);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_outbox__order_ack_rewind),
        UNIT_TEST(test_outbox__spills_past_the_limit),
        UNIT_TEST(test_outbox__spill_dir_missing),
        UNIT_END,
    };
    return unit_run("outbox", tests, NULL, NULL);
}
