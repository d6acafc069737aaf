/* plan_pin.c -- a certificate pin and a path relative to the plan (plan_pin.h). */
#include "controller/run/plan_pin.h"

#include "common/ydoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *plan_path_resolve(const char *dir, const char *rel)
{
    if (rel[0] == '/' || !dir[0])
        return strdup(rel);
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", dir, rel);
    return s;
}

int plan_fingerprint_check(const struct ydoc *doc, const struct ydoc_node *n, const char *fp, char *err, size_t errlen)
{
    if (strncmp(fp, "sha256:", 7) != 0)
        return ydoc_error(doc, n, err, errlen, "fingerprint must start with 'sha256:' (as printed by sessmax-simhost)");
    int hex = 0;
    for (const char *s = fp + 7; *s; s++) {
        if ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F'))
            hex++;
        else if (*s != ':' && *s != ',')
            return ydoc_error(doc, n, err, errlen, "fingerprint: unexpected character '%c'", *s);
    }
    if (hex < 64)
        return ydoc_error(doc, n, err, errlen, "fingerprint: a SHA-256 needs 64 hex digits, found %d", hex);
    return 0;
}
