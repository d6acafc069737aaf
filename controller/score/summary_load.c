/* summary_load.c -- reads one run through db/store.h and summarises it. */
#include "controller/score/summary_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int summary_load(struct store *st, int64_t run, const struct score_config *override,
                 struct summary *out, char *err, size_t errlen)
{
    int rc = -1;
    struct store_run info;
    struct store_samples ss = { 0 };
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
    memset(out, 0, sizeof *out);
    if (store_get_run(st, run, &info) < 0 || store_run_texts(st, run, &plan, &params) < 0 ||
        store_load_samples(st, run, &ss) < 0 || store_load_sessions(st, run, &sess, &nsess) < 0 ||
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
    struct summary_input in = { &info, &ss, sess, nsess, traffic, ntraffic, health, nhealth, agents, nagents,
                                copies, ncopies, tl, ntl };
    rc = summary_compute(&in, override ? override : &cfg, out, err, errlen);
done:
    score_config_free(&cfg);
    store_free_samples(&ss);
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
