/* summary_load.c -- reads one run through db/store.h and summarises it. The samples are streamed
 * into their compact form (summary_samples.h), never loaded as rows. */
#include "controller/score/summary_load.h"
#include "controller/score/summary_samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gather(void *ctx, const struct store_sample_row *rows, size_t n, size_t expect,
                  const struct store_samples *names)
{
    struct summary_samples *acc = ctx;
    if (acc->total == 0)
        summary_samples_expect(acc, expect);
    return summary_samples_add(acc, rows, n, names->name_count) < 0 ? 1 : 0;
}

/* The run's samples into *acc (finished; its names in *names). 0, or -1 with err. */
static int load_samples(struct store *st, int64_t run, struct summary_samples *acc, struct store_samples *names,
                        char *err, size_t errlen)
{
    int rc = store_scan_samples(st, run, gather, acc, names);
    if (rc == 0 && summary_samples_finish(acc, names->names, names->name_count) == 0)
        return 0;
    snprintf(err, errlen, "%s", rc < 0 ? store_errmsg(st) : "summary: out of memory");
    return -1;
}

int summary_load(struct store *st, int64_t run, const struct score_config *override,
                 struct summary *out, char *err, size_t errlen)
{
    return summary_load_flags(st, run, override, 0, out, err, errlen);
}

int summary_load_flags(struct store *st, int64_t run, const struct score_config *override, unsigned flags,
                       struct summary *out, char *err, size_t errlen)
{
    int rc = -1;
    struct store_run info;
    struct store_samples names = { 0 };
    struct summary_samples acc;
    struct store_session_row *sess = NULL;
    struct store_traffic_row *traffic = NULL;
    struct store_health_row *health = NULL;
    struct store_agent_row *agents = NULL;
    struct store_copy_row *copies = NULL;
    struct store_target_load *tl = NULL;
    size_t nsess = 0, ntraffic = 0, nhealth = 0, nagents = 0, ncopies = 0, ntl = 0;
    char *plan = NULL, *params = NULL;
    struct score_config cfg;
    score_config_init(&cfg);
    summary_samples_init(&acc);
    memset(out, 0, sizeof *out);
    if (store_get_run(st, run, &info) < 0 || store_run_texts(st, run, &plan, &params) < 0) {
        snprintf(err, errlen, "%s", store_errmsg(st));
        goto done;
    }
    if (load_samples(st, run, &acc, &names, err, errlen) < 0)
        goto done;
    if (store_load_sessions(st, run, &sess, &nsess) < 0 ||
        store_load_traffic(st, run, &traffic, &ntraffic) < 0 ||
        store_load_health(st, run, &health, &nhealth) < 0 ||
        store_load_agents(st, run, &agents, &nagents) < 0 || store_load_copy_timers(st, run, &copies, &ncopies) < 0 ||
        store_load_target_load(st, run, &tl, &ntl) < 0) {
        snprintf(err, errlen, "%s", store_errmsg(st));
        goto done;
    }
    if (!override && score_config_from_json(params, &cfg, err, errlen) < 0) {
        char why[256];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "run %lld: stored score parameters: %s", (long long)run, why);
        goto done;
    }
    struct summary_input in = { &info, &names, sess, nsess, traffic, ntraffic, health, nhealth, agents, nagents,
                                copies, ncopies, tl, ntl, &acc, flags };
    rc = summary_compute(&in, override ? override : &cfg, out, err, errlen);
    if (rc == 0 && (rc = resources_load(st, run, &out->score, &out->res, err, errlen)) < 0)
        summary_free(out);
done:
    score_config_free(&cfg);
    summary_samples_free(&acc);
    store_free_samples(&names);
    free(sess);
    free(traffic);
    free(health);
    free(agents);
    free(copies);
    free(tl);
    free(plan);
    free(params);
    return rc;
}
