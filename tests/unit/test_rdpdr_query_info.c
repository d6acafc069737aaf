/* test_rdpdr_query_info.c -- the parse of a client's FileStandardInformation reply (the size that
 * simhost's copy in reads up to): sizes and flags from a well-formed reply, exactly Length bytes
 * consumed, and a Length past the bytes received or too short for the structure rejected. */
#include "unit.h"

#include <string.h>

#include "compat/rdpdr_query_info.h"

/* Length 22, AllocationSize 4096, EndOfFile 0x0102030405 (4328719365), NumberOfLinks 1,
 * DeletePending 0, Directory dir; then one byte that belongs to the next PDU. */
static size_t reply(uint8_t *b, int dir)
{
    static const uint8_t r[] = { 22, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 5, 4, 3, 2, 1, 0, 0, 0,
                                 1, 0, 0, 0, 0, 0, 0x72 };
    memcpy(b, r, sizeof r);
    b[4 + 21] = (uint8_t)dir;
    return sizeof r;
}

static void test_rdpdr_query_info__file(void)
{
    uint8_t b[64];
    struct rdpdr_file_info in;
    size_t n = reply(b, 0);
    CU_ASSERT_EQUAL(rdpdr_query_info_parse(b, n, &in), 26);   /* not the next PDU's byte */
    CU_ASSERT_EQUAL(in.valid, 1);
    CU_ASSERT_EQUAL(in.size, 0x0102030405ull);
    CU_ASSERT_EQUAL(in.is_dir, 0);
    reply(b, 1);
    CU_ASSERT_EQUAL(rdpdr_query_info_parse(b, n, &in), 26);
    CU_ASSERT_EQUAL(in.is_dir, 1);
}

static void test_rdpdr_query_info__short(void)
{
    uint8_t b[64];
    struct rdpdr_file_info in;
    size_t n = reply(b, 0);
    CU_ASSERT_EQUAL(rdpdr_query_info_parse(b, 3, &in), -1);        /* no Length */
    CU_ASSERT_EQUAL(rdpdr_query_info_parse(b, 20, &in), -1);       /* Length past the input */
    CU_ASSERT_EQUAL(in.valid, 0);
    b[0] = 8;                                                      /* too short for the structure */
    CU_ASSERT_EQUAL(rdpdr_query_info_parse(b, n, &in), 12);
    CU_ASSERT_EQUAL(in.valid, 0);
    b[0] = 0xff, b[3] = 0xff;                                      /* a huge Length */
    CU_ASSERT_EQUAL(rdpdr_query_info_parse(b, n, &in), -1);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_rdpdr_query_info__file), UNIT_TEST(test_rdpdr_query_info__short), UNIT_END,
    };
    return unit_run("rdpdr_query_info", tests, NULL, NULL);
}
