/* sim_predict.c -- capacity prediction for a workload loop (walker filled in below). */
#include "simhost/sim_predict.h"

#include "common/log.h"

#include <string.h>

int sim_predict_loop(const char *path, struct sim_loop *l, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    snprintf(err, errlen, "%s: --predict is not implemented yet", path);
    return -1;
}

int sim_predict_main(const char *path, double cpus, const struct sim_costs *c, FILE *out)
{
    struct sim_loop l;
    char err[1024];
    if (sim_predict_loop(path, &l, err, sizeof err) != 0) {
        log_error("%s", err);
        return 65;
    }
    fprintf(out, "capacity %.1f users on %g CPUs\n", sim_cost_capacity(c, &l, cpus), cpus);
    return 0;
}
