/* test_client_codecs.c -- the agent's per-session memory economies: a session without GFX gets only
 * the codecs it can receive (the bulk contexts' are in test_bulk_tables.c). */
#include "unit.h"

#include <freerdp/codecs.h>
#include <freerdp/freerdp.h>

#include "compat/client_codecs.h"

static void test_client_codecs__codecs_without_gfx(void)
{
    rdpSettings *s = freerdp_settings_new(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    freerdp_settings_set_bool(s, FreeRDP_SupportGraphicsPipeline, FALSE);
    freerdp_settings_set_bool(s, FreeRDP_RemoteFxCodec, FALSE);
    uint32_t f = client_codecs_needed(s);
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
    CU_ASSERT(client_codecs_needed(s) & FREERDP_CODEC_REMOTEFX);
    freerdp_settings_set_bool(s, FreeRDP_SupportGraphicsPipeline, TRUE);
    CU_ASSERT_EQUAL(client_codecs_needed(s), FREERDP_CODEC_ALL);
    CU_ASSERT_EQUAL(client_codecs_needed(NULL), FREERDP_CODEC_ALL);
    freerdp_settings_free(s);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_client_codecs__codecs_without_gfx), UNIT_END,
    };
    return unit_run("client_codecs", tests, NULL, NULL);
}
