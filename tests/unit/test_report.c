/* test_report.c -- compare, export, report and dashboard output on a store this test writes
 * through db/store.h. With SESSMAX_FIXTURE_DB set, the store is written there and left behind
 * (tests/integration/report_chromium.sh opens its report in headless Chromium). */
#include "unit.h"

#include <jansson.h>
#include <math.h>

#include "controller/report/compare.h"
#include "controller/score/summary_copy.h"
#include "controller/score/summary_evidence.h"
#include "controller/score/summary_net.h"
#include "controller/report/dashboard.h"
#include "controller/report/export.h"
#include "controller/report/report.h"
#include "controller/score/score_text.h"
#include "controller/score/summary_load.h"
#include "controller/score/verdict.h"
#include "fixture_store.h"

#include <sqlite3.h>
#include <unistd.h>

static char db_path[1024];
static struct fixture_counts counts[3];

static int setup(void)
{
    char err[256];
    const char *env = getenv("SESSMAX_FIXTURE_DB");
    snprintf(db_path, sizeof db_path, "%s", env ? env : "");
    if (!env)
        snprintf(db_path, sizeof db_path, "%s/report.db", unit_tmpdir());
    unlink(db_path);
    struct store *st = store_open(db_path, STORE_WRITE, err, sizeof err);
    if (!st)
        return fprintf(stderr, "%s\n", err), -1;
    struct fixture_run f[3] = {
        { "nightly <1>", "tcp", "ws2022", "lan", 60, 30, 0, 0, 3000, { "smax >= 20", "p95(app_start) < 9000", NULL }, 0, 0, FAIL_NONE },
        { "nightly <2>", "tcp", "ws2022", "lan", 60, 36, 0, 0, 3000, { "smax >= 20", NULL }, 1, 0, FAIL_NONE },
        { "gw \"wan\"", "gateway", "ws2022", "wan", 40, 1000, 0, 0, 3000, { NULL }, 2, 0, FAIL_NONE },
    };
    int ok = 1;
    for (int i = 0; i < 3; i++)
        ok &= fixture_write_run(st, &f[i], &counts[i]) == i + 1;
    store_close(st);
    return ok ? 0 : -1;
}

static struct summary sums[3];
static struct verdict verdicts[3];

static int load_all(void)
{
    char err[512];
    struct store *st = store_open(db_path, STORE_READ, err, sizeof err);
    if (!st)
        return -1;
    for (int i = 0; i < 3; i++)
        if (summary_load(st, i + 1, NULL, &sums[i], err, sizeof err) < 0 ||
            verdict_evaluate(&sums[i], &verdicts[i], err, sizeof err) < 0)
            return fprintf(stderr, "%s\n", err), -1;
    store_close(st);
    return 0;
}

/* Renders into a malloc'd string through a memstream. */
static char *render_compare(unsigned by, enum compare_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL(compare_write(sums, 3, by, fmt, f), 0);
    fclose(f);
    return buf;
}

static char *render_export(int run, enum export_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL(export_write(&sums[run], &verdicts[run], fmt, f), 0);
    fclose(f);
    return buf;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void test_report__fixture_figures(void)
{
    CU_ASSERT_EQUAL_FATAL(load_all(), 0);
    CU_ASSERT_EQUAL(sums[0].score.samples_ok, counts[0].measure_ok);
    CU_ASSERT_EQUAL(sums[0].point_count, counts[0].measure_ok);
    CU_ASSERT_TRUE(sums[0].score.reached);
    CU_ASSERT_TRUE(sums[1].score.reached);
    CU_ASSERT_TRUE(sums[1].score.smax > sums[0].score.smax);   /* later knee, higher smax */
    CU_ASSERT_FALSE(sums[2].score.reached);
    CU_ASSERT_EQUAL(verdicts[0].kind, VERDICT_PASS);
    /* measured network figures: every traffic row has rtt 300 us; 1 in 100 data segments resent */
    CU_ASSERT_DOUBLE_EQUAL(sums[0].rtt_p50_ms, 0.3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sums[0].rtt_p95_ms, 0.3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sums[0].retrans_pct, 1.0, 0.05);
    char line[512];
    summary_net_line(&sums[0], line, sizeof line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "lan (profile not stored); measured kernel smoothed TCP RTT (includes delayed ACKs) p50 0.3 ms"));
}

static void test_report__compare_runs_and_groups(void)
{
    char *t = render_compare(0, COMPARE_TEXT);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "p95_ms(app_start)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "not reached at 40 active (smax >= 39)"));
    CU_ASSERT_PTR_NULL(strstr(t, "(> 40)"));   /* never claims more than the data show */
    CU_ASSERT_EQUAL(count(t, "\n"), 4);
    free(t);
    unsigned by;
    CU_ASSERT_EQUAL(compare_parse_by("transport,network", &by), 0);
    CU_ASSERT_EQUAL(compare_parse_by("transport,colour", &by), -1);
    CU_ASSERT_EQUAL(compare_parse_by("transport,platform,network", &by), 0);
    char *csv = render_compare(by, COMPARE_CSV);
    CU_ASSERT_EQUAL(count(csv, "\n"), 3);   /* header + 2 groups */
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, "tcp/ws2022/lan,2,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, "gateway/ws2022/wan,1,not reached at 40 active (smax >= 39)"));
    char expect[64];
    snprintf(expect, sizeof expect, ",2,%.1f,", (sums[0].score.smax + sums[1].score.smax) / 2.0);
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, expect));
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",kbps_per_session,rtt_p50_ms,retrans_pct,stuck_sessions,bound_at_knee\n"));
    CU_ASSERT_EQUAL(count(csv, ",-\n"), 2);   /* no target.metrics in these runs: not measured */
    free(csv);
    char *md = render_compare(by, COMPARE_MARKDOWN);
    CU_ASSERT_PTR_NOT_NULL(strstr(md, "| group "));
    CU_ASSERT_PTR_NOT_NULL(strstr(md, "|:---"));
    free(md);
    /* grouped by network alone: the LAN-vs-WAN table shows the typical action (p50) */
    CU_ASSERT_EQUAL(compare_parse_by("network", &by), 0);
    char *net = render_compare(by, COMPARE_CSV);
    CU_ASSERT_PTR_NOT_NULL(strstr(net, "group,runs,smax,baseline_ms,p50_ms(app_start)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(net, "\nlan,2,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(net, "\nwan,1,"));
    free(net);
    /* the client label groups too (every fixture run used the built-in engine) */
    CU_ASSERT_EQUAL(compare_parse_by("network,client", &by), 0);
    CU_ASSERT_EQUAL(by, COMPARE_BY_NETWORK | COMPARE_BY_CLIENT);
    net = render_compare(by, COMPARE_CSV);
    CU_ASSERT_PTR_NOT_NULL(strstr(net, "\nlan/builtin,2,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(net, "\nwan/builtin,1,"));
    free(net);
    CU_ASSERT_EQUAL(compare_parse_stat("p99"), COMPARE_P99);
    CU_ASSERT_EQUAL(compare_parse_stat("p90"), -1);
}

static void test_report__exports(void)
{
    char *csv = render_export(0, EXPORT_CSV), line[64];
    snprintf(line, sizeof line, "\n1,smax,,%d\n", sums[0].score.smax);
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, line));
    snprintf(line, sizeof line, "\n1,smax_at_least,,%d\n", sums[0].score.smax);   /* reached: smax itself */
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, line));
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, "\n1,p95,app_start,"));
    free(csv);
    char *json = render_export(2, EXPORT_JSON);
    json_error_t jerr;
    json_t *j = json_loads(json, 0, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "name")), "gw \"wan\"");
    CU_ASSERT(json_is_null(json_object_get(j, "smax")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "smax_at_least")), 39);   /* not reached at 40 */
    CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "timers")), 3);
    CU_ASSERT(json_is_object(json_object_get(j, "score_params")));
    json_decref(j);
    free(json);
    char *junit = render_export(0, EXPORT_JUNIT);
    CU_ASSERT_EQUAL(count(junit, "<testcase "), verdicts[0].item_count);
    CU_ASSERT_PTR_NOT_NULL(strstr(junit, "nightly &lt;1&gt;"));
    CU_ASSERT_PTR_NOT_NULL(strstr(junit, "failures=\"0\""));
    free(junit);
    char *om = render_export(2, EXPORT_OPENMETRICS);
    CU_ASSERT_PTR_NOT_NULL(strstr(om, "name=\"gw \\\"wan\\\"\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(om, "} NaN\n"));   /* smax not reached */
    CU_ASSERT_PTR_NOT_NULL(strstr(om, "\nsessmax_smax_at_least{"));
    CU_ASSERT_PTR_NOT_NULL(strstr(om, "} 39\n"));
    size_t len = strlen(om);
    CU_ASSERT_TRUE(len > 6 && !strcmp(om + len - 6, "# EOF\n"));
    free(om);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

/* Writes the HTML report of s with verdict v to `name` in the temporary directory and returns
 * its text (caller frees); the test stops unless both work. */
static char *report_html(const struct summary *s, const struct verdict *v, const char *name)
{
    char path[1200], err[512];
    snprintf(path, sizeof path, "%s/%s", unit_tmpdir(), name);
    CU_ASSERT_EQUAL_FATAL(report_write_summary(s, v, path, err, sizeof err), 0);
    char *html = slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    return html;
}

static void test_report__html_is_self_contained(void)
{
    char err[512], attr[64];
    char *html = report_html(&sums[0], &verdicts[0], "report-1.html");
    CU_ASSERT_PTR_NULL(strstr(html, "<script"));
    CU_ASSERT_PTR_NULL(strstr(html, "src="));
    CU_ASSERT_PTR_NULL(strstr(html, "href=\"http"));
    CU_ASSERT_PTR_NULL(strstr(html, "url("));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "nightly &lt;1&gt;"));
    snprintf(attr, sizeof attr, "data-series=\"index\" data-n=\"%zu\"", counts[0].measure_ok);
    CU_ASSERT_PTR_NOT_NULL(strstr(html, attr));
    snprintf(attr, sizeof attr, "data-series=\"logon\" data-n=\"60\"");
    CU_ASSERT_PTR_NOT_NULL(strstr(html, attr));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "data-series=\"threshold\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "data-series=\"smax\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, SCORE_VERSION));
    free(html);
    CU_ASSERT_EQUAL(report_write_summary(&sums[0], &verdicts[0], "/nonexistent/dir/r.html", err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/dir/r.html"));
}

static void test_report__dashboard(void)
{
    char dir[1200], path[1300], err[512];
    snprintf(dir, sizeof dir, "%s/dash", unit_tmpdir());
    struct store *st = store_open(db_path, STORE_READ, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL(dashboard_write(st, dir, err, sizeof err), 0);
    store_close(st);
    snprintf(path, sizeof path, "%s/index.html", dir);
    char *html = slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    CU_ASSERT_EQUAL(count(html, "<h2>"), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "tcp / ws2022 / lan / builtin <small>(2 runs)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "href=\"run-3.html\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "data-series=\"trend-smax\" data-n=\"2\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "data-series=\"trend-open\" data-n=\"1\""));
    free(html);
    snprintf(path, sizeof path, "%s/run-2.html", dir);
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
}

/* A run whose stored score parameters cannot be read is skipped, saying why; the others and
 * index.html are still written (1: written with a run skipped). */
static void test_report__dashboard_skips_a_bad_run(void)
{
    char copy[1200], dir[1200], path[1300], err[512];
    snprintf(copy, sizeof copy, "%s/bad.db", unit_tmpdir());
    snprintf(dir, sizeof dir, "%s/dash-bad", unit_tmpdir());
    sqlite3 *db;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(db_path, &db), SQLITE_OK);
    sqlite3_backup *bk = NULL;
    sqlite3 *to;
    unlink(copy);
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(copy, &to), SQLITE_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bk = sqlite3_backup_init(to, "main", db, "main"));
    sqlite3_backup_step(bk, -1);
    sqlite3_backup_finish(bk);
    sqlite3_close(db);
    CU_ASSERT_EQUAL(sqlite3_exec(to, "UPDATE runs SET score_params = '{\"trim_frac\": \"x\"}' WHERE id = 2",
                                 NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(to);
    struct store *st = store_open(copy, STORE_READ, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL(dashboard_write(st, dir, err, sizeof err), 1);
    store_close(st);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "run 2 skipped: run 2: stored score parameters"));
    snprintf(path, sizeof path, "%s/index.html", dir);
    char *html = slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "skipped: run 2: stored score parameters"));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "href=\"run-1.html\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "href=\"run-3.html\""));
    CU_ASSERT_PTR_NULL(strstr(html, "href=\"run-2.html\""));
    free(html);
    snprintf(path, sizeof path, "%s/run-2.html", dir);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/run-3.html", dir);
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
}

/* Names from a tampered store or a hostile agent (issue 11, findings 4 and 5): nothing they hold
 * may become markup, a metric line, a spreadsheet formula or invalid XML. */
static const char evil[] = "x\"}><script>alert(1)</script>\n# TYPE f\r\x01'";

static struct summary hostile_summary(struct summary_timer *timers)
{
    struct summary s = sums[0];
    memcpy(timers, sums[0].timers, sums[0].timer_count * sizeof *timers);
    snprintf(timers[0].name, sizeof timers[0].name, "%s", evil);
    snprintf(timers[1].name, sizeof timers[1].name, "=HYPERLINK(\"http://x\")");
    s.timers = timers;
    snprintf(s.measure, sizeof s.measure, "%s", evil);
    snprintf(s.run.name, sizeof s.run.name, "%s", evil);
    snprintf(s.run.network, sizeof s.run.network, "@SUM(A1)");
    return s;
}

static char *render(const struct summary *s, enum export_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL(export_write(s, &verdicts[0], fmt, f), 0);
    fclose(f);
    return buf;
}

static void test_report__hostile_names_stay_text(void)
{
    struct summary_timer *timers = calloc(sums[0].timer_count, sizeof *timers);
    CU_ASSERT_PTR_NOT_NULL_FATAL(timers);
    CU_ASSERT_FATAL(sums[0].timer_count >= 2);
    struct summary s = hostile_summary(timers);
    char *html = report_html(&s, &verdicts[0], "hostile.html");
    CU_ASSERT_PTR_NULL(strstr(html, "<script"));
    CU_ASSERT_PTR_NULL(strstr(html, "\"}>"));
    CU_ASSERT_PTR_NULL(strchr(html, '\x01'));
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "&lt;script&gt;"));
    free(html);
    /* OpenMetrics: every line is a comment or a sessmax_ sample; no forged TYPE line */
    char *om = render(&s, EXPORT_OPENMETRICS);
    for (char *line = strtok(om, "\n"); line; line = strtok(NULL, "\n")) {
        CU_ASSERT(!strncmp(line, "# TYPE sessmax_", 15) || !strncmp(line, "# HELP sessmax_", 15) ||
                  !strncmp(line, "sessmax_", 8) || !strcmp(line, "# EOF"));
        CU_ASSERT_PTR_NULL(strchr(line, '\r'));
    }
    free(om);
    /* CSV: formulas neutralised; newlines and control characters escaped, so one row is one line */
    char *csv = render(&s, EXPORT_CSV);
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",\"'=HYPERLINK(\"\"http://x\"\")\","));
    CU_ASSERT_PTR_NULL(strstr(csv, ",=HYPERLINK"));
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",\"x\"\"}><script>alert(1)</script>\\n# TYPE f\\r\\x01'\","));
    CU_ASSERT_PTR_NULL(strchr(csv, '\r'));
    CU_ASSERT_PTR_NULL(strchr(csv, '\x01'));
    for (char *line = strtok(csv, "\n"); line; line = strtok(NULL, "\n"))
        CU_ASSERT(!strncmp(line, "run,", 4) || !strncmp(line, "1,", 2));
    free(csv);
    /* JUnit: no control character XML 1.0 forbids */
    char *xml = render(&s, EXPORT_JUNIT);
    for (const unsigned char *p = (const unsigned char *)xml; *p; p++)
        CU_ASSERT(*p >= 0x20 || *p == '\n' || *p == '\t' || *p == '\r');
    CU_ASSERT_PTR_NULL(strstr(xml, "<script"));
    free(xml);
    /* JSON: valid, the name kept */
    char *json = render(&s, EXPORT_JSON);
    json_error_t jerr;
    json_t *j = json_loads(json, 0, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "name")), evil);
    json_decref(j);
    free(json);
    free(timers);
}


static size_t lines_of(const char *text)
{
    size_t n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* compare (text, markdown, CSV) and score's text with names that try to forge a row, a cell or
 * markup: one run stays one line, markdown cells stay cells, nothing raw gets through. */
static void test_report__hostile_names_compare_and_score(void)
{
    static const char forged[] = "r|x\n| 9 | 9 |<img src=x onerror=alert(1)>\r\x1b[2J";
    struct summary_timer *timers = calloc(sums[0].timer_count, sizeof *timers);
    CU_ASSERT_PTR_NOT_NULL_FATAL(timers);
    struct summary s = hostile_summary(timers);
    snprintf(s.run.name, sizeof s.run.name, "%s", forged);
    char *out[3] = { NULL, NULL, NULL };
    size_t len;
    for (int f = 0; f < 3; f++) {
        FILE *o = open_memstream(&out[f], &len);
        CU_ASSERT_EQUAL(compare_write(&s, 1, 0, f == 0 ? COMPARE_TEXT : f == 1 ? COMPARE_MARKDOWN : COMPARE_CSV, o), 0);
        fclose(o);
        CU_ASSERT_PTR_NULL(strchr(out[f], '\r'));
        CU_ASSERT_PTR_NULL(strchr(out[f], '\x1b'));
    }
    CU_ASSERT_EQUAL(lines_of(out[0]), 2);                       /* header + the run */
    CU_ASSERT_PTR_NOT_NULL(strstr(out[0], "r|x\\n| 9 | 9 |<img"));
    CU_ASSERT_EQUAL(lines_of(out[1]), 3);                       /* header, rule, the run */
    CU_ASSERT_PTR_NULL(strstr(out[1], "<img"));
    CU_ASSERT_PTR_NULL(strstr(out[1], "<script"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out[1], "| 1 r\\|x\\n\\| 9 \\| 9 \\|&lt;img"));
    char *row = strrchr(out[1], '\n') - 1;
    while (row > out[1] && row[-1] != '\n')
        row--;
    size_t bars = 0, head = 0;
    for (const char *p = row; *p; p++)
        bars += *p == '|' && (p == row || p[-1] != '\\');
    for (const char *p = out[1]; *p != '\n'; p++)
        head += *p == '|';
    CU_ASSERT_EQUAL(bars, head);                                /* as many cells as the header */
    CU_ASSERT_EQUAL(lines_of(out[2]), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(out[2], "\n1 r|x\\n| 9 | 9 |<img src=x onerror=alert(1)>\\r\\x1b[2J,"));
    for (int f = 0; f < 3; f++)
        free(out[f]);
    /* score's text: no raw control character, no line a name started */
    char *text = NULL;
    FILE *o = open_memstream(&text, &len);
    score_text_print(o, &s, &verdicts[0], NULL);
    fclose(o);
    CU_ASSERT_PTR_NULL(strchr(text, '\r'));
    CU_ASSERT_PTR_NULL(strchr(text, '\x01'));
    CU_ASSERT_PTR_NULL(strchr(text, '\x1b'));
    CU_ASSERT_PTR_NULL(strstr(text, "\n# TYPE f"));
    CU_ASSERT_PTR_NULL(strstr(text, "\n| 9 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "run 1  r|x\\n| 9 | 9 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "measure 'x\"}><script>alert(1)</script>\\n# TYPE f\\r\\x01''"));
    free(text);
    free(timers);
}

/* Suspect samples (ok = 2: held below the plausibility floor) are never counted as ok: not in the
 * score's samples, not in a timer's percentiles; `score` and the report say how many there were. */
static void test_report__suspect_samples(void)
{
    char path[1200], err[512];
    snprintf(path, sizeof path, "%s/suspect.db", unit_tmpdir());
    unlink(path);
    struct store *st = store_open(path, STORE_WRITE, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    struct store_run_info info = { "suspect", "tcp", "p", "lan", "127.0.0.1:3389", "w", "0123abcd",
                                   "name: w\n", "{}", 1, 1764460800000000ull, NULL, NULL, 0, NULL };
    int64_t run = store_run_begin(st, &info);
    CU_ASSERT_FATAL(run > 0);
    CU_ASSERT_EQUAL(fixture_sample(st, run, 0, 0, 1764460801000000ull, "vsi", 900000, SAMPLE_OK, 1, 1), 0);
    CU_ASSERT_EQUAL(fixture_sample(st, run, 0, 1, 1764460802000000ull, "vsi", 5000, SAMPLE_SUSPECT, 1, 1), 0);
    CU_ASSERT_EQUAL(fixture_sample(st, run, 0, 2, 1764460803000000ull, "vsi", 9000000, SAMPLE_FAILED, 1, 1), 0);
    CU_ASSERT_EQUAL(store_run_end(st, run, "completed", 1764460804000000ull, ""), 0);
    store_close(st);
    st = store_open(path, STORE_READ, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    struct summary sum;
    CU_ASSERT_EQUAL_FATAL(summary_load(st, run, NULL, &sum, err, sizeof err), 0);
    store_close(st);
    CU_ASSERT_EQUAL(sum.samples, 3);
    CU_ASSERT_EQUAL(sum.samples_failed, 2);
    CU_ASSERT_EQUAL(sum.samples_suspect, 1);
    CU_ASSERT_EQUAL(sum.score.samples_ok, 1);
    CU_ASSERT_EQUAL_FATAL(sum.timer_count, 1);
    CU_ASSERT_EQUAL(sum.timers[0].suspect, 1);
    CU_ASSERT_DOUBLE_EQUAL(sum.timers[0].min_ms, 900.0, 1e-9);     /* the 5 ms suspect is not in it */
    char *buf = NULL;
    size_t len = 0;
    struct verdict v;
    CU_ASSERT_EQUAL_FATAL(verdict_evaluate(&sum, &v, err, sizeof err), 0);
    FILE *f = open_memstream(&buf, &len);
    score_text_print(f, &sum, &v, NULL);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "suspect: 1 samples"));
    free(buf);
    summary_free(&sum);
}

/* One stored sample claiming 4 billion active sessions (issue 11, finding 9): the chart arrays
 * were sized by the largest active value (10^8 took 3.1 GB); the chart must still be drawn. */
static void test_report__tampered_active_count(void)
{
    struct summary s = sums[0];
    struct summary_point *pts = malloc(s.point_count * sizeof *pts);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pts);
    memcpy(pts, sums[0].points, s.point_count * sizeof *pts);
    pts[s.point_count - 1].active = UINT32_MAX - 1;
    s.points = pts;
    s.score.max_active = UINT32_MAX - 1;
    char *html = report_html(&s, &verdicts[0], "active.html");
    CU_ASSERT_PTR_NOT_NULL(strstr(html, "data-series=\"rt-max\""));
    CU_ASSERT_PTR_NULL(strstr(html, "data-series=\"rt-max\" data-n=\"0\""));
    free(html);
    free(pts);
}

/* A session number in a traffic row is whatever the database says: one row of run 1 moved to
 * session 4294967295 must cost no more memory than the rows (it once sized a per-session table
 * by the largest number, 32 GB) and leave the network figures computed. */
static void test_report__tampered_traffic_session(void)
{
    char path[1200], cmd[2600], err[512];
    snprintf(path, sizeof path, "%s/traffic-session.db", unit_tmpdir());
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", db_path, path);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    sqlite3 *db;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &db), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_exec(db, "UPDATE traffic SET session = 4294967295 WHERE rowid = "
                                     "(SELECT min(rowid) FROM traffic WHERE run_id = 1)", NULL, NULL, NULL), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_changes(db), 1);
    sqlite3_close(db);
    struct store *st = store_open(path, STORE_READ, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    struct summary s;
    CU_ASSERT_EQUAL_FATAL(summary_load(st, 1, NULL, &s, err, sizeof err), 0);
    CU_ASSERT_TRUE(isfinite(s.kbps_per_session));
    CU_ASSERT_DOUBLE_EQUAL(s.kbps_per_session, sums[0].kbps_per_session, sums[0].kbps_per_session * 0.05);
    CU_ASSERT_DOUBLE_EQUAL(s.retrans_pct, 1.0, 0.05);
    summary_free(&s);
    store_close(st);
}

static int teardown(void)
{
    for (int i = 0; i < 3; i++)
        summary_free(&sums[i]);
    return 0;
}

/* Copy timers: MB/s from the stored size and the median (hand-computed: 10 MiB in 2.5 s = 4 MiB/s,
 * 300 MiB in 50 s = 6 MiB/s), sizes in the table's heads, one row per direction, measures and
 * timers without a copy: row untouched. */
static void test_report__copy_table(void)
{
    struct summary_timer t[5] = {
        { .name = "copyin_10m", .count = 3, .p50_ms = 2500, .min_ms = 2000, .max_ms = 5000 },
        { .name = "copyin_300m", .count = 1, .p50_ms = 50000, .min_ms = 50000, .max_ms = 50000 },
        { .name = "copyout_10m", .count = 1, .p50_ms = 125, .min_ms = 125, .max_ms = 125 },
        { .name = "copyout_300m", .count = 1, .failed = 1, .p50_ms = NAN, .min_ms = NAN, .max_ms = NAN },
        { .name = "app", .count = 1, .p50_ms = 10 },
    };
    struct summary s = { .timers = t, .timer_count = 5 };
    struct store_copy_row rows[] = { { "copyin_10m", 0, 10485760 }, { "copyin_300m", 0, 314572800 },
                                     { "copyout_10m", 1, 10485760 }, { "copyout_300m", 1, 314572800 } };
    summary_copy_apply(rows, 4, &s);
    CU_ASSERT_DOUBLE_EQUAL(t[0].mbps_p50, 4.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[0].mbps_min, 2.0, 1e-9);     /* the slowest copy, 5 s */
    CU_ASSERT_DOUBLE_EQUAL(t[0].mbps_max, 5.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[1].mbps_p50, 6.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[2].mbps_p50, 80.0, 1e-9);
    CU_ASSERT(isnan(t[3].mbps_p50));
    CU_ASSERT_EQUAL(t[4].copy_bytes, 0);
    uint64_t sizes[4];
    CU_ASSERT_EQUAL(summary_copy_sizes(&s, sizes, 4), 2);
    CU_ASSERT_EQUAL(sizes[0], 10485760);
    CU_ASSERT_EQUAL(sizes[1], 314572800);
    char head[32];
    summary_copy_size_text(1536, head, sizeof head);
    CU_ASSERT_STRING_EQUAL(head, "1.5 KB");
    char *text = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&text, &len);
    summary_copy_print(o, &s);
    fclose(o);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "10 MB                   300 MB"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "client -> server (copy in)                    2.50 s  4.0 MB/s        50.00 s  6.0 MB/s"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "server -> client (copy out)                   0.12 s  80.0 MB/s       failed (1)"));
    free(text);
}

/* Failed and stuck sessions with their screen; logons by how they got there. */
static void test_report__evidence(void)
{
    struct store_session_row rows[] = {
        { .index = 0, .user = "u1", .state = "ended", .reason = "none", .logon_us = 900, .active_us = 5 },
        { .index = 1, .user = "u2", .state = "active", .reason = "none", .logon_us = 900, .active_us = 5,
          .detail = "repaint requests: 2, logon retries: 0" },
        { .index = 2, .user = "u3", .state = "failed", .reason = "disconnected", .logon_us = 900, .active_us = 5,
          .end_us = 7000000, .detail = "server closed the connection; screen u3-failed.png" },
        { .index = 3, .user = "u4", .state = "failed", .reason = "logon_timeout", .logon_us = -1, .launch_us = 3,
          .end_us = 9000000, .detail = "desktop-ready condition did not hold in time; screen u4-failed.png" },
        { .index = 4, .user = "u5", .state = "launched", .reason = "none", .logon_us = -1, .launch_us = 4000000 },
        { .index = 5, .user = "u6", .state = "failed", .reason = "aborted", .logon_us = -1, .end_us = 1 },
        { .index = 6, .user = "u7", .state = "ended", .reason = "none", .logon_us = 900, .active_us = 5,
          .detail = "repaint requests: 3, logon retries: 1" },
    };
    struct summary_input in = { .sessions = rows, .session_count = 7 };
    struct summary s;
    memset(&s, 0, sizeof s);
    CU_ASSERT_EQUAL_FATAL(summary_evidence(&in, &s), 0);
    CU_ASSERT_EQUAL(s.logon_first_try, 2);
    CU_ASSERT_EQUAL(s.logon_repainted, 1);
    CU_ASSERT_EQUAL(s.logon_retried, 1);
    CU_ASSERT_EQUAL(s.repaint_requests, 5);
    CU_ASSERT_EQUAL_FATAL(s.failure_count, 3);              /* u6 was cut short, not stuck */
    CU_ASSERT_STRING_EQUAL(s.failures[0].user, "u3");
    CU_ASSERT_STRING_EQUAL(s.failures[0].screen, "u3-failed.png");
    CU_ASSERT_STRING_EQUAL(s.failures[0].detail, "server closed the connection");
    CU_ASSERT_EQUAL(s.failures[0].stuck, 0);
    CU_ASSERT_EQUAL(s.failures[0].t_us, 7000000);
    CU_ASSERT_STRING_EQUAL(s.failures[1].reason, "logon_timeout");
    CU_ASSERT_EQUAL(s.failures[1].stuck, 1);
    CU_ASSERT_STRING_EQUAL(s.failures[2].reason, "never active");
    CU_ASSERT_STRING_EQUAL(s.failures[2].screen, "");
    CU_ASSERT_EQUAL(s.failures[2].t_us, 4000000);
    free(s.failures);
}

/** score's text names where the failed sessions' screens are (the database it read, not a
 * placeholder) and no source file (the agent's per-session cost said "summary_cost.h"). */
static void test_report__score_text_words(void)
{
    struct summary s = sums[0];
    struct summary_failure f = { .session = 0, .user = "u1", .reason = "connect",
                                 .detail = "127.0.0.1:1: connection refused", .stuck = 1 };
    s.failures = &f;
    s.failure_count = 1;
    s.agent_sessions_max = 2;
    s.agent_rss_mib = 15.5;
    s.agent_cpu_pct = 2.3;
    char *text = NULL, err[256];
    size_t len = 0;
    struct verdict v;
    CU_ASSERT_EQUAL_FATAL(verdict_evaluate(&s, &v, err, sizeof err), 0);
    FILE *o = open_memstream(&text, &len);
    score_text_print(o, &s, &v, "/data/r.db");
    fclose(o);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "screens in /data/r.db.shots/run-"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "127.0.0.1:1: connection refused"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "per session: 15.5 MiB RSS at 2 sessions"));
    CU_ASSERT_PTR_NULL(strstr(text, "<results db>"));
    CU_ASSERT_PTR_NULL(strstr(text, ".h)"));
    CU_ASSERT_PTR_NULL(strstr(text, "summary_"));
    free(text);
    text = NULL;
    o = open_memstream(&text, &len);
    score_text_print(o, &s, &v, NULL);   /* no database named: no folder either */
    fclose(o);
    CU_ASSERT_PTR_NULL(strstr(text, "screens in"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "failed or stuck sessions (1)"));
    free(text);
}

int main(void)
{
    static const struct unit_test tests[] = {
        UNIT_TEST(test_report__fixture_figures),
        UNIT_TEST(test_report__compare_runs_and_groups),
        UNIT_TEST(test_report__exports),
        UNIT_TEST(test_report__html_is_self_contained),
        UNIT_TEST(test_report__dashboard),
        UNIT_TEST(test_report__dashboard_skips_a_bad_run),
        UNIT_TEST(test_report__hostile_names_stay_text),
        UNIT_TEST(test_report__hostile_names_compare_and_score),
        UNIT_TEST(test_report__tampered_active_count),
        UNIT_TEST(test_report__tampered_traffic_session),
        UNIT_TEST(test_report__suspect_samples),
        UNIT_TEST(test_report__copy_table),
        UNIT_TEST(test_report__evidence),
        UNIT_TEST(test_report__score_text_words),
        UNIT_END,
    };
    return unit_run("report", tests, setup, teardown);
}
