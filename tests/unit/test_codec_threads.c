/* test_codec_threads.c -- after codec_threads_off(), WinPR's registry as FreeRDP's RemoteFX codec
 * reads it says UseThreads=0 (and nothing else under that key), other keys are WinPR's own, and
 * the RemoteFX and progressive contexts FreeRDP makes start no threads. */
#include "unit.h"

#include <dirent.h>

#include <freerdp/codec/progressive.h>
#include <freerdp/codec/rfx.h>
#include <winpr/registry.h>

#include "compat/codec_threads.h"

#define RFX_KEY "Software\\FreeRDP\\FreeRDP\\RemoteFX"

/* threads of this process */
static int task_count(void)
{
    DIR *d = opendir("/proc/self/task");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void test_codec_threads__key_reads_zero(void)
{
    codec_threads_off();
    codec_threads_off();   /* idempotent */
    HKEY k = NULL;
    CU_ASSERT_EQUAL_FATAL(RegOpenKeyExA(HKEY_LOCAL_MACHINE, RFX_KEY, 0, KEY_READ | KEY_WOW64_64KEY, &k),
                          ERROR_SUCCESS);
    DWORD type = 0, value = 0xFFFFFFFF, size = sizeof value;
    CU_ASSERT_EQUAL(RegQueryValueExA(k, "UseThreads", NULL, &type, (BYTE *)&value, &size), ERROR_SUCCESS);
    CU_ASSERT_EQUAL(value, 0);
    CU_ASSERT_EQUAL(type, REG_DWORD);
    CU_ASSERT_EQUAL(size, sizeof(DWORD));
    BYTE small[2];
    size = sizeof small;
    CU_ASSERT_EQUAL(RegQueryValueExA(k, "UseThreads", NULL, &type, small, &size), ERROR_MORE_DATA);
    size = sizeof value;
    CU_ASSERT_NOT_EQUAL(RegQueryValueExA(k, "MinThreadCount", NULL, &type, (BYTE *)&value, &size),
                        ERROR_SUCCESS);
    CU_ASSERT_EQUAL(RegCloseKey(k), ERROR_SUCCESS);
}

static void test_codec_threads__other_keys_are_winpr_s(void)
{
    codec_threads_off();
    HKEY k = NULL;
    CU_ASSERT_NOT_EQUAL(RegOpenKeyExA(HKEY_LOCAL_MACHINE, RFX_KEY "\\NoSuchKey", 0, KEY_READ, &k),
                        ERROR_SUCCESS);
    CU_ASSERT_NOT_EQUAL(RegOpenKeyExA(HKEY_CURRENT_USER, RFX_KEY, 0, KEY_READ, &k), ERROR_SUCCESS);
}

/** FreeRDP's own constructors (decoder, encoder, progressive's inner one) start no pool. */
static void test_codec_threads__contexts_start_no_threads(void)
{
    codec_threads_off();
    int before = task_count();
    RFX_CONTEXT *dec = rfx_context_new(FALSE), *enc = rfx_context_new(TRUE);
    PROGRESSIVE_CONTEXT *prog = progressive_context_new(FALSE);
    CU_ASSERT_PTR_NOT_NULL(dec);
    CU_ASSERT_PTR_NOT_NULL(enc);
    CU_ASSERT_PTR_NOT_NULL(prog);
    CU_ASSERT_EQUAL(task_count(), before);
    progressive_context_free(prog);
    rfx_context_free(enc);
    rfx_context_free(dec);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_codec_threads__key_reads_zero), UNIT_TEST(test_codec_threads__other_keys_are_winpr_s),
        UNIT_TEST(test_codec_threads__contexts_start_no_threads), UNIT_END,
    };
    return unit_run("codec_threads", tests, NULL, NULL);
}
