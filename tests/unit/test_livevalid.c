/* test_livevalid.c -- the verdict's validity rules judged while a run goes on
 * (controller/run/livevalid.c): which broken rules raise an alarm, with the verdict's words. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "controller/run/livevalid.h"

static struct score_params params;

static const struct verdict_item *item(const struct livevalid *lv, const char *key)
{
    for (size_t i = 0; i < lv->v.item_count; i++)
        if (lv->v.items[i].key && !strcmp(lv->v.items[i].key, key))
            return &lv->v.items[i];
    return NULL;
}

static size_t alarms(const struct livevalid *lv)
{
    size_t n = 0;
    for (size_t i = 0; i < lv->v.item_count; i++)
        n += livevalid_alarm(&lv->v.items[i]);
    return n;
}

static struct rec_sample measure(uint32_t agent_us)
{
    struct rec_sample s = { .ok = SAMPLE_OK, .is_measure = 1, .value_us = 900000, .has_agent = 1,
                            .agent_us = agent_us };
    snprintf(s.name, sizeof s.name, "%s", params.measure);
    return s;
}

/* Nothing seen yet: no baseline, but that is judged at the end, so no alarm. */
static void test_livevalid__quiet_start(void)
{
    struct livevalid lv;
    livevalid_init(&lv, &params);
    CU_ASSERT_EQUAL(livevalid_judge(&lv, NULL, 0, 1, 0, 0), 1);
    CU_ASSERT_EQUAL(livevalid_judge(&lv, NULL, 0, 1, 1, 0), 0);   /* not again before the interval */
    CU_ASSERT_EQUAL(livevalid_judge(&lv, NULL, 0, 1, 1, 1), 1);   /* unless forced */
    const struct verdict_item *b = item(&lv, "baseline");
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL(b->result, VERDICT_INCONCLUSIVE);
    CU_ASSERT_FALSE(livevalid_alarm(b));
    CU_ASSERT_EQUAL(alarms(&lv), 0);
    livevalid_free(&lv);
}

/* A refused logon: the verdict's auth item, naming the first refused user and exit 77. */
static void test_livevalid__auth(void)
{
    struct livevalid lv;
    livevalid_init(&lv, &params);
    struct rec_session e = { .session = 1, .kind = SESSION_ACTIVE };
    livevalid_session(&lv, &e);
    e = (struct rec_session){ .session = 2, .kind = SESSION_FAILED, .reason = FAIL_AUTH };
    snprintf(e.user, sizeof e.user, "simuser002");
    livevalid_session(&lv, &e);
    snprintf(e.user, sizeof e.user, "simuser003");
    livevalid_session(&lv, &e);
    e.reason = FAIL_LOGON_TIMEOUT;
    livevalid_session(&lv, &e);
    CU_ASSERT_EQUAL(lv.failed[FAIL_AUTH], 2);
    CU_ASSERT_EQUAL(lv.failed[FAIL_LOGON_TIMEOUT], 1);
    livevalid_judge(&lv, NULL, 4, 1, 0, 1);
    const struct verdict_item *a = item(&lv, "auth");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_TRUE(livevalid_alarm(a));
    CU_ASSERT_PTR_NOT_NULL(strstr(a->reason, "authentication failed for simuser002"));
    CU_ASSERT_PTR_NOT_NULL(strstr(a->reason, "2 of 4 sessions failed authentication (exit 77)"));
    CU_ASSERT_EQUAL(verdict_code(&lv.v), 77);
    CU_ASSERT_EQUAL(alarms(&lv), 1);
    livevalid_free(&lv);
}

/* A lost agent and its sessions. */
static void test_livevalid__lost_agent(void)
{
    struct livevalid lv;
    livevalid_init(&lv, &params);
    livevalid_lost(&lv, 3);
    livevalid_judge(&lv, NULL, 6, 2, 0, 1);
    const struct verdict_item *a = item(&lv, "agent_lost");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_TRUE(livevalid_alarm(a));
    CU_ASSERT_STRING_EQUAL(a->reason, "1 of 2 agents lost, 3 sessions lost with their agent");
    livevalid_free(&lv);
}

/* The agent's share of the scored samples over the gate's limit, once there is a threshold; other
 * timers' samples and failed ones are not judged. */
static void test_livevalid__agent_share(void)
{
    struct livevalid lv;
    livevalid_init(&lv, &params);
    for (int i = 0; i < 40; i++) {
        struct rec_sample s = measure(400000);   /* 400 ms of each sample: far over any share limit */
        livevalid_sample(&lv, &s);
        s.ok = SAMPLE_FAILED;
        livevalid_sample(&lv, &s);
        s = measure(400000);
        snprintf(s.name, sizeof s.name, "other");
        livevalid_sample(&lv, &s);
    }
    CU_ASSERT_EQUAL(lv.nshare, 40);
    struct score_result r = { .status = SCORE_OK, .samples_ok = 40, .samples_needed = 15, .baseline_ms = 900,
                              .threshold_ms = 1900, .smax = -1, .max_active = 5, .max_index_ms = 900 };
    livevalid_judge(&lv, &r, 5, 1, 0, 1);
    const struct verdict_item *a = item(&lv, "agent_share");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_TRUE(livevalid_alarm(a));
    CU_ASSERT_PTR_NOT_NULL(strstr(a->reason, "the agent's share could change the score"));
    CU_ASSERT_PTR_NOT_NULL(strstr(a->reason, "the threshold 1900 ms"));
    CU_ASSERT_EQUAL(item(&lv, "baseline")->result, VERDICT_PASS);
    livevalid_free(&lv);

    livevalid_init(&lv, &params);   /* a small share: no alarm */
    for (int i = 0; i < 40; i++) {
        struct rec_sample s = measure(1000);
        livevalid_sample(&lv, &s);
    }
    livevalid_judge(&lv, &r, 5, 1, 0, 1);
    CU_ASSERT_EQUAL(item(&lv, "agent_share")->result, VERDICT_PASS);
    CU_ASSERT_EQUAL(alarms(&lv), 0);
    livevalid_free(&lv);
}

static int setup(void)
{
    score_params_default(&params);
    return 0;
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_livevalid__quiet_start), UNIT_TEST(test_livevalid__auth),
        UNIT_TEST(test_livevalid__lost_agent), UNIT_TEST(test_livevalid__agent_share), UNIT_END,
    };
    return unit_run("livevalid", tests, setup, NULL);
}
