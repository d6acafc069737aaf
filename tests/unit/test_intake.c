/* test_intake.c -- what the controller takes from an agent: only sessions it was given, and
 * only samples whose names are in the safe character set (a hostile agent cannot put markup
 * or metric lines into the store through a timer name). */
#include "unit.h"

#include "controller/run/intake.h"
#include "controller/run/ledger.h"

#include <string.h>

static struct proto_record sample(uint32_t session, const char *name)
{
    struct proto_record r = { .kind = PROTO_REC_SAMPLE };
    r.u.sample.session = session;
    snprintf(r.u.sample.name, sizeof r.u.sample.name, "%s", name);
    return r;
}

static void test_intake__refuses_unsafe_names_and_foreign_sessions(void)
{
    struct ledger l;
    CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 3), 0);
    ledger_launched(&l, 0, 1);
    ledger_launched(&l, 1, 2);
    struct proto_record ok = sample(0, "vsi");
    CU_ASSERT_PTR_NULL(intake_refusal(&l, 1, &ok));
    struct proto_record foreign = sample(1, "vsi");
    CU_ASSERT_PTR_NOT_NULL(intake_refusal(&l, 1, &foreign));
    struct proto_record out_of_range = sample(99, "vsi");
    CU_ASSERT_PTR_NOT_NULL(intake_refusal(&l, 1, &out_of_range));
    static const char *const evil[] = { "x\"}><script>", "a\nsessmax_smax 1", "=HYPERLINK(1)", "", "a b" };
    for (size_t i = 0; i < sizeof evil / sizeof evil[0]; i++) {
        struct proto_record r = sample(0, evil[i]);
        CU_ASSERT_PTR_NOT_NULL(intake_refusal(&l, 1, &r));
    }
    struct proto_record ses = { .kind = PROTO_REC_SESSION };
    ses.u.session.session = 1;
    CU_ASSERT_PTR_NULL(intake_refusal(&l, 2, &ses));
    CU_ASSERT_PTR_NOT_NULL(intake_refusal(&l, 1, &ses));
    struct proto_record health = { .kind = PROTO_REC_HEALTH };
    CU_ASSERT_PTR_NULL(intake_refusal(&l, 1, &health));
    ledger_free(&l);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_intake__refuses_unsafe_names_and_foreign_sessions),
        UNIT_END,
    };
    return unit_run("intake", tests, NULL, NULL);
}
