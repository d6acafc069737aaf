/* test_bulk_tables.c -- the bulk contexts' economies shared by the agent and simhost: zero pages
 * leave RSS and still read as zero, the bulk contexts FreeRDP makes are not resident, and after
 * bulk_tables_none none are made (or, in a build whose probe compiled that out, they still are). */
#include "unit.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <freerdp/codec/mppc.h>
#include <freerdp/codec/ncrush.h>
#include <freerdp/codec/xcrush.h>
#include <freerdp/freerdp.h>

#include "compat/bulk_tables.h"

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

static void test_bulk_tables__zero_pages_released(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), whole;
    unsigned char *b = malloc(64 * page);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    memset(b, 0, 64 * page);                       /* all resident */
    b[10 * page + 7] = 0xAB;                        /* two pages with data */
    b[40 * page] = 0xCD;
    size_t released = bulk_tables_release_zero_pages(b);
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
    CU_ASSERT_EQUAL(bulk_tables_release_zero_pages(NULL), 0);
}

static void test_bulk_tables__bulk_context_not_resident(void)
{
    XCRUSH_CONTEXT *x = xcrush_context_new(FALSE);  /* FreeRDP's, zeroed tables and all */
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    size_t whole, res = resident_pages(x, &whole);
    CU_ASSERT(whole > 256);
    CU_ASSERT(res * 20 < whole);                   /* < 5 % resident */
    xcrush_context_free(x);
}

/* last: it changes the constructors for the rest of the process */
static void test_bulk_tables__none_makes_no_context(void)
{
    if (!bulk_tables_none()) {
        XCRUSH_CONTEXT *x = xcrush_context_new(TRUE);
        CU_ASSERT_PTR_NOT_NULL(x);
        xcrush_context_free(x);
        return;
    }
    CU_ASSERT_PTR_NULL(xcrush_context_new(TRUE));
    CU_ASSERT_PTR_NULL(ncrush_context_new(FALSE));
    CU_ASSERT_PTR_NULL(mppc_context_new(1, TRUE));
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_bulk_tables__zero_pages_released), UNIT_TEST(test_bulk_tables__bulk_context_not_resident),
        UNIT_TEST(test_bulk_tables__none_makes_no_context),
        UNIT_END,
    };
    return unit_run("bulk_tables", tests, NULL, NULL);
}
