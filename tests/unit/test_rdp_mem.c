/* test_rdp_mem.c -- the per-session memory economies: zero pages leave RSS and still read as
 * zero, the bulk contexts FreeRDP makes are not resident, and a session without GFX gets only
 * the codecs it can receive. */
#include "unit.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <freerdp/codec/xcrush.h>
#include <freerdp/codecs.h>
#include <freerdp/freerdp.h>

#include "agent/rdp_mem.h"

/* resident pages among the whole pages of a malloc'd block */
static size_t resident_pages(void *block, size_t *whole)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = 0;
    uintptr_t p = ((uintptr_t)block + page - 1) & ~(uintptr_t)(page - 1);
    uintptr_t end = (uintptr_t)block + malloc_usable_size(block);
    *whole = 0;
    for (; p + page <= end; p += page, (*whole)++) {
        unsigned char v = 0;
        if (mincore((void *)p, page, &v) == 0 && (v & 1))
            n++;
    }
    return n;
}

static void test_rdp_mem__zero_pages_released(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), whole;
    unsigned char *b = malloc(64 * page);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    memset(b, 0, 64 * page);                       /* all resident */
    b[10 * page + 7] = 0xAB;                        /* two pages with data */
    b[40 * page] = 0xCD;
    size_t released = rdp_mem_release_zero_pages(b);
    CU_ASSERT(released >= 60 * page);
    CU_ASSERT(released <= 62 * page);
    CU_ASSERT(resident_pages(b, &whole) <= 3);
    CU_ASSERT_EQUAL(b[10 * page + 7], 0xAB);       /* data kept */
    CU_ASSERT_EQUAL(b[40 * page], 0xCD);
    size_t nonzero = 0;
    for (size_t i = 0; i < 64 * page; i++)
        nonzero += b[i] != 0;
    CU_ASSERT_EQUAL(nonzero, 2);                   /* released pages read as zero */
    free(b);
    CU_ASSERT_EQUAL(rdp_mem_release_zero_pages(NULL), 0);
}

static void test_rdp_mem__bulk_context_not_resident(void)
{
    XCRUSH_CONTEXT *x = xcrush_context_new(FALSE);  /* FreeRDP's, zeroed tables and all */
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    size_t whole, res = resident_pages(x, &whole);
    CU_ASSERT(whole > 256);
    CU_ASSERT(res * 20 < whole);                   /* < 5 % resident */
    xcrush_context_free(x);
}

static void test_rdp_mem__codecs_without_gfx(void)
{
    rdpSettings *s = freerdp_settings_new(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    freerdp_settings_set_bool(s, FreeRDP_SupportGraphicsPipeline, FALSE);
    freerdp_settings_set_bool(s, FreeRDP_RemoteFxCodec, FALSE);
    uint32_t f = rdp_mem_codecs_needed(s);
    CU_ASSERT(f & FREERDP_CODEC_PLANAR);
    CU_ASSERT(f & FREERDP_CODEC_INTERLEAVED);
    CU_ASSERT_FALSE(f & (FREERDP_CODEC_AVC420 | FREERDP_CODEC_PROGRESSIVE |
                         FREERDP_CODEC_CLEARCODEC | FREERDP_CODEC_REMOTEFX));

    rdpContext ctx = { 0 };
    ctx.settings = s;
    rdpCodecs *c = codecs_new(&ctx);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_TRUE(freerdp_client_codecs_prepare(c, FREERDP_CODEC_ALL, 1024, 768));
    CU_ASSERT_PTR_NOT_NULL(c->planar);
    CU_ASSERT_PTR_NOT_NULL(c->interleaved);
    CU_ASSERT_PTR_NULL(c->h264);
    CU_ASSERT_PTR_NULL(c->progressive);
    CU_ASSERT_PTR_NULL(c->clear);
    CU_ASSERT_PTR_NULL(c->rfx);
    codecs_free(c);

    freerdp_settings_set_bool(s, FreeRDP_RemoteFxCodec, TRUE);
    CU_ASSERT(rdp_mem_codecs_needed(s) & FREERDP_CODEC_REMOTEFX);
    freerdp_settings_set_bool(s, FreeRDP_SupportGraphicsPipeline, TRUE);
    CU_ASSERT_EQUAL(rdp_mem_codecs_needed(s), FREERDP_CODEC_ALL);
    CU_ASSERT_EQUAL(rdp_mem_codecs_needed(NULL), FREERDP_CODEC_ALL);
    freerdp_settings_free(s);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_rdp_mem__zero_pages_released), UNIT_TEST(test_rdp_mem__bulk_context_not_resident),
        UNIT_TEST(test_rdp_mem__codecs_without_gfx), UNIT_END,
    };
    return unit_run("rdp_mem", tests, NULL, NULL);
}
