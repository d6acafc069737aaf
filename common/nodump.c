/* nodump.c -- core dumps off in processes that hold secrets (nodump.h). */
#include "common/nodump.h"

#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>

int nodump_apply(void)
{
    const char *keep = getenv(NODUMP_ENV);
    if (keep && strcmp(keep, "1") == 0)
        return 0;
    struct rlimit none = { 0, 0 };
    int rc = setrlimit(RLIMIT_CORE, &none);
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
        rc = -1;
    return rc == 0 ? 1 : -1;
}
