/* test_jsonl_sink.c -- the standalone run's JSON lines (agent/front/jsonl_sink.c): each record is one
 * valid JSON object per line with the documented fields, for any text a peer may send (quotes,
 * control characters, bytes that are not UTF-8), and the summary counts failures. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "agent/front/jsonl_sink.h"
#include "unit.h"

/* Reads line `n` (0-based) of f as JSON (NULL when it is not an object). */
static json_t *line_json(FILE *f, int n)
{
    char line[4096];
    rewind(f);
    for (int i = 0; i <= n; i++)
        if (!fgets(line, sizeof line, f))
            return NULL;
    json_error_t e;
    json_t *v = json_loads(line, 0, &e);
    if (v && !json_is_object(v)) {
        json_decref(v);
        return NULL;
    }
    return v;
}

static void test_jsonl_sink__records_are_json_lines(void)
{
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    struct jsonl_sink *j = jsonl_sink_new(f);
    const struct result_sink *s = jsonl_sink_result_sink(j);
    struct rec_sample smp = { .session = 3, .loop = 2, .t_us = 1700000000000000ull, .value_us = 1234,
                              .ok = 1 };
    snprintf(smp.name, sizeof smp.name, "open\"doc\\");
    s->sample(s->ctx, &smp);
    struct rec_session ev = { .session = 3, .t_us = 5, .kind = SESSION_FAILED,
                              .reason = FAIL_WAIT_TIMEOUT };
    snprintf(ev.user, sizeof ev.user, "user\xff\xfe");
    snprintf(ev.detail, sizeof ev.detail, "line1\nline2\t\x01 \xc3\xa9");
    s->session(s->ctx, &ev);
    struct rec_traffic tr = { .session = 1, .t_us = 9, .bytes_in = 5000000000ull, .frames = 7 };
    s->traffic(s->ctx, &tr);
    fflush(f);

    json_t *a = line_json(f, 0), *b = line_json(f, 1), *c = line_json(f, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(a, "type")), "sample");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(a, "name")), "open\"doc\\");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(a, "t_us")), 1700000000000000ll);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(a, "value_us")), 1234);
    CU_ASSERT(json_is_true(json_object_get(a, "ok")));
    CU_ASSERT(json_is_false(json_object_get(a, "measure")));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(b, "event")),
                           session_event_name(SESSION_FAILED));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(b, "reason")),
                           failure_reason_name(FAIL_WAIT_TIMEOUT));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(b, "user")), "user??");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(b, "detail")), "line1\nline2\t\x01 \xc3\xa9");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(c, "bytes_in")), 5000000000ll);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(c, "frames")), 7);
    json_decref(a);
    json_decref(b);
    json_decref(c);

    FILE *sum = tmpfile();
    CU_ASSERT_EQUAL(jsonl_sink_summary(j, sum, 1, 2, 3), 1);     /* one failed session */
    fclose(sum);
    jsonl_sink_free(j);
    fclose(f);
}

/* A logon record is one line with each phase by name (`<phase>_us`), -1 kept for one not measured;
 * a traffic line carries the minimum RTT beside the smoothed one. */
static void test_jsonl_sink__logon_and_rtt(void)
{
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    struct jsonl_sink *j = jsonl_sink_new(f);
    const struct result_sink *s = jsonl_sink_result_sink(j);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s->logon);
    struct rec_logon l = { .session = 2, .t_us = 9, .phase_us = { 1200, 60, 5000, 600000, -1, 12000 } };
    s->logon(s->ctx, &l);
    struct rec_traffic t = { .session = 2, .t_us = 10, .rtt_us = 15000, .min_rtt_us = 3 };
    s->traffic(s->ctx, &t);
    fflush(f);
    json_t *v = line_json(f, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(v, "type")), "logon");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(v, "session")), 2);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(v, "wait_us")), 1200);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(v, "rdp_us")), 600000);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(v, "paint_us")), -1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(v, "desktop_us")), 12000);
    json_decref(v);
    v = line_json(f, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(v, "min_rtt_us")), 3);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(v, "rtt_us")), 15000);
    json_decref(v);
    jsonl_sink_free(j);
    fclose(f);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_jsonl_sink__records_are_json_lines),
        UNIT_TEST(test_jsonl_sink__logon_and_rtt),
        UNIT_END,
    };
    return unit_run("jsonl_sink", tests, NULL, NULL);
}
