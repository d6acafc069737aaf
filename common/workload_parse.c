/* workload_parse.c -- the small parsers every part of the workload parser shares (see
 * workload_parse.h). */
#include "common/workload_parse.h"

#include <string.h>

#include "common/names.h"

#define ERR WORKLOAD_PARSE_ERR

int workload_parse_name(struct workload_parse *p, const struct ydoc_node *n, const char *what,
                        char out[RESULTS_NAME_LEN])
{
    if (!n || n->kind != YDOC_SCALAR || !n->value[0])
        return ERR(p, n, "%s must be a name", what);
    size_t len = strlen(n->value);
    if (len >= RESULTS_NAME_LEN)
        return ERR(p, n, "%s '%s' is longer than %d characters", what, n->value, RESULTS_NAME_LEN - 1);
    if (!name_is_safe(n->value))
        return ERR(p, n, "%s '%s' may only use " NAMES_CHARSET_TEXT, what, n->value);
    memcpy(out, n->value, len + 1);
    return 0;
}
