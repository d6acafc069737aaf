/* test_rdpdr_logon_order.c -- when the agent repeats the rdpdr User Logged On PDU: only for a
 * server that sent it before its capabilities (xrdp's order), once, after the Client ID Confirm. */
#include "unit.h"

#include "compat/rdpdr_logon_order.h"

static const uint8_t LOGON[4] = { 0x72, 0x44, 0x4C, 0x55 };     /* "rD" "LU" */
static const uint8_t CAPS[8] = { 0x72, 0x44, 0x50, 0x53, 5, 0, 0, 0 };
static const uint8_t CONFIRM[12] = { 0x72, 0x44, 0x43, 0x43, 1, 0, 12, 0, 1, 2, 3, 4 };
static const uint8_t ANNOUNCE[12] = { 0x72, 0x44, 0x6E, 0x49, 1, 0, 12, 0, 1, 2, 3, 4 };

static void test_rdpdr_logon_order__xrdp_order(void)
{
    unsigned st = 0;
    CU_ASSERT_EQUAL(rdpdr_logon_order_observe(&st, ANNOUNCE, sizeof ANNOUNCE), 0);
    CU_ASSERT_EQUAL(rdpdr_logon_order_observe(&st, LOGON, sizeof LOGON), 0);   /* early: FreeRDP drops it */
    CU_ASSERT_EQUAL(rdpdr_logon_order_observe(&st, CAPS, sizeof CAPS), 0);
    CU_ASSERT_EQUAL(rdpdr_logon_order_observe(&st, CONFIRM, sizeof CONFIRM), 1);   /* repeat it now */
    CU_ASSERT_EQUAL(rdpdr_logon_order_observe(&st, CONFIRM, sizeof CONFIRM), 0);   /* only once */
}

static void test_rdpdr_logon_order__documented_order(void)
{
    unsigned st = 0;   /* Windows / FreeRDP server: caps, confirm, then logged on */
    CU_ASSERT_EQUAL(rdpdr_logon_order_observe(&st, ANNOUNCE, sizeof ANNOUNCE), 0);
    CU_ASSERT_EQUAL(rdpdr_logon_order_observe(&st, CAPS, sizeof CAPS), 0);
    CU_ASSERT_EQUAL(rdpdr_logon_order_observe(&st, CONFIRM, sizeof CONFIRM), 0);
    CU_ASSERT_EQUAL(rdpdr_logon_order_observe(&st, LOGON, sizeof LOGON), 0);
    CU_ASSERT_EQUAL(rdpdr_logon_order_observe(&st, CONFIRM, sizeof CONFIRM), 0);
}

static void test_rdpdr_logon_order__garbage(void)
{
    unsigned st = 0;
    static const uint8_t other[4] = { 0x50, 0x52, 0x4C, 0x55 };   /* printer component */
    CU_ASSERT_EQUAL(rdpdr_logon_order_observe(&st, LOGON, 3), 0);            /* too short */
    CU_ASSERT_EQUAL(rdpdr_logon_order_observe(&st, other, sizeof other), 0);
    CU_ASSERT_EQUAL(st, 0);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_rdpdr_logon_order__xrdp_order), UNIT_TEST(test_rdpdr_logon_order__documented_order),
        UNIT_TEST(test_rdpdr_logon_order__garbage), UNIT_END,
    };
    return unit_run("rdpdr_logon_order", tests, NULL, NULL);
}
