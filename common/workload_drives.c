/* workload_drives.c -- the `drives:` section of a workload:
 *   drives: {NAME: {files: {FILE: SIZE, ...}}, ...}
 * NAME: 1-7 of [A-Za-z0-9_-] (the DOS name the drive is announced under); FILE: a plain name;
 * SIZE: bytes with an optional KB/MB/GB suffix (drive_gen_parse_size). Also a plan's `drives:`
 * (workload_add_drives) and the `copy:` of copy timers (their size and direction). */
#include "common/workload_drives.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/drive_gen.h"
#include "common/workload_parse.h"

#define ERR WORKLOAD_PARSE_ERR

static int drive_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > WORKLOAD_DRIVE_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
            return 0;
    return 1;
}

static int parse_files(struct workload_parse *p, const struct ydoc_node *n, struct workload_drive *d)
{
    if (ydoc_expect(p->doc, n, YDOC_MAP, "files", p->err, p->errlen) != 0)
        return -1;
    if (n->n == 0)
        return ERR(p, n, "drive '%s' has no files", d->name);
    d->files = calloc(n->n, sizeof *d->files);
    if (!d->files)
        return ERR(p, n, "out of memory");
    for (size_t i = 0; i < n->n; i++) {
        struct workload_drive_file *f = &d->files[d->nfiles];
        const char *size;
        if (workload_parse_name(p, n->keys[i], "file name", f->name) != 0)
            return -1;
        if (f->name[0] == '.')
            return ERR(p, n->keys[i], "file name '%s' must not start with a dot", f->name);
        for (size_t j = 0; j < d->nfiles; j++)
            if (!strcmp(d->files[j].name, f->name))
                return ERR(p, n->keys[i], "file '%s' listed twice in drive '%s'", f->name, d->name);
        if (ydoc_str(p->doc, n->items[i], &size, p->err, p->errlen) != 0)
            return -1;
        if (drive_gen_parse_size(size, &f->size) != 0 || f->size >= (4ull << 30))
            return ERR(p, n->items[i], "bad size '%s' (write e.g. 10MB, 300MB, 64KB; below 4GB)", size);
        f->line = n->keys[i]->line;
        f->col = n->keys[i]->col;
        d->nfiles++;
    }
    return 0;
}

int workload_add_drives(struct workload *wl, const struct ydoc *doc, const struct ydoc_node *map,
                        char *err, size_t errlen)
{
    static const char *const keys[] = { "files", NULL };
    struct workload_parse pp = { .doc = doc, .wl = wl, .err = err, .errlen = errlen }, *p = &pp;
    if (!map)
        return 0;
    if (ydoc_expect(p->doc, map, YDOC_MAP, "drives", p->err, p->errlen) != 0)
        return -1;
    struct workload_drive *grown = realloc(wl->drives, (wl->ndrives + map->n + 1) * sizeof *grown);
    if (!grown)
        return ERR(p, map, "out of memory");
    wl->drives = grown;
    for (size_t i = 0; i < map->n; i++) {
        const struct ydoc_node *k = map->keys[i], *v = map->items[i];
        struct workload_drive *d = &wl->drives[wl->ndrives];
        const char *name;
        memset(d, 0, sizeof *d);
        if (ydoc_str(p->doc, k, &name, p->err, p->errlen) != 0)
            return -1;
        if (!drive_name_ok(name))
            return ERR(p, k, "drive name '%s' must be 1-%d letters, digits, '_' or '-'", name,
                       WORKLOAD_DRIVE_NAME_MAX);
        for (size_t j = 0; j < wl->ndrives; j++)
            if (!strcasecmp(wl->drives[j].name, name))
                return ERR(p, k, "drive '%s' declared twice (the plan and its workload must not both declare it)",
                           name);
        memcpy(d->name, name, strlen(name) + 1);
        d->line = k->line;
        d->col = k->col;
        wl->ndrives++;
        if (ydoc_check_keys(p->doc, v, keys, "a drive", p->err, p->errlen) != 0)
            return -1;
        const struct ydoc_node *files = ydoc_get(v, "files");
        if (!files)
            return ERR(p, v, "drive '%s' needs files: {NAME: SIZE}", d->name);
        if (parse_files(p, files, d) != 0)
            return -1;
    }
    return 0;
}

int workload_parse_drives(struct workload_parse *p, const struct ydoc_node *map)
{
    if (workload_add_drives(p->wl, p->doc, map, p->err, p->errlen) != 0)
        return -1;
    return workload_resolve_copies(p->wl, 0, p->err, p->errlen);
}

int workload_add_drives_text(struct workload *wl, const char *name, const char *text, char *err, size_t errlen)
{
    struct ydoc *doc = ydoc_load_string(name, text, strlen(text), err, errlen);
    if (!doc)
        return -1;
    int rc = workload_add_drives(wl, doc, doc->root, err, errlen);
    ydoc_free(doc);
    return rc;
}

char *workload_drives_text(const struct workload_drive *drives, size_t n)
{
    size_t cap = 2;
    for (size_t i = 0; i < n; i++)
        cap += 32 + strlen(drives[i].name) + drives[i].nfiles * (RESULTS_NAME_LEN + 28);
    char *out = malloc(cap), *w = out;
    if (!out)
        return NULL;
    *w = '\0';
    for (size_t i = 0; i < n; i++) {
        w += sprintf(w, "%s%s: {files: {", i ? ", " : "{", drives[i].name);
        for (size_t j = 0; j < drives[i].nfiles; j++)
            w += sprintf(w, "%s%s: %llu", j ? ", " : "", drives[i].files[j].name,
                         (unsigned long long)drives[i].files[j].size);
        w += sprintf(w, "}}%s", i + 1 == n ? "}" : "");
    }
    return out;
}

int workload_parse_copy(struct workload_parse *p, const struct ydoc_node *n, const char *timer)
{
    static const char *const keys[] = { "to", "size", NULL };
    struct workload *wl = p->wl;
    const char *to, *size;
    if (ydoc_check_keys(p->doc, n, keys, "copy", p->err, p->errlen) != 0)
        return -1;
    if (!ydoc_get(n, "to") || !ydoc_get(n, "size"))
        return ERR(p, n, "copy needs to: server|client and size: SIZE or DRIVE/FILE");
    if (ydoc_str(p->doc, ydoc_get(n, "to"), &to, p->err, p->errlen) != 0 ||
        ydoc_str(p->doc, ydoc_get(n, "size"), &size, p->err, p->errlen) != 0)
        return -1;
    if (strcmp(to, "server") && strcmp(to, "client"))
        return ERR(p, ydoc_get(n, "to"), "copy to '%s': write server (client -> server) or client (server -> client)", to);
    if (workload_copy(wl, timer))
        return ERR(p, n, "timer '%s' has copy: twice", timer);
    struct workload_copy *grown = realloc(wl->copies, (wl->ncopies + 1) * sizeof *grown);
    if (!grown)
        return ERR(p, n, "out of memory");
    wl->copies = grown;
    struct workload_copy *c = memset(&wl->copies[wl->ncopies], 0, sizeof *c);
    snprintf(c->timer, sizeof c->timer, "%s", timer);
    c->to_client = !strcmp(to, "client");
    c->line = ydoc_get(n, "size")->line;
    c->col = ydoc_get(n, "size")->col;
    const char *slash = strchr(size, '/');
    if (slash) {
        size_t dl = (size_t)(slash - size);
        if (dl == 0 || dl > WORKLOAD_DRIVE_NAME_MAX || !slash[1] || strlen(slash + 1) >= sizeof c->file)
            return ERR(p, ydoc_get(n, "size"), "copy size '%s': write DRIVE/FILE of a drives: entry, or a size like 10MB", size);
        memcpy(c->drive, size, dl);
        snprintf(c->file, sizeof c->file, "%s", slash + 1);
    } else if (drive_gen_parse_size(size, &c->bytes) != 0 || c->bytes == 0) {
        return ERR(p, ydoc_get(n, "size"), "copy size '%s': write a size like 10MB or DRIVE/FILE", size);
    }
    wl->ncopies++;
    return 0;
}

int workload_resolve_copies(struct workload *wl, int strict, char *err, size_t errlen)
{
    for (size_t i = 0; i < wl->ncopies; i++) {
        struct workload_copy *c = &wl->copies[i];
        if (!c->drive[0] || (!strict && wl->ndrives == 0))
            continue;
        c->bytes = 0;
        for (size_t d = 0; d < wl->ndrives; d++)
            for (size_t f = 0; !strcasecmp(wl->drives[d].name, c->drive) && f < wl->drives[d].nfiles; f++)
                if (!strcmp(wl->drives[d].files[f].name, c->file))
                    c->bytes = wl->drives[d].files[f].size;
        if (!c->bytes) {
            snprintf(err, errlen, "%s:%d:%d: copy size '%s/%s': no such file in the drives: %s", wl->file, c->line,
                     c->col, c->drive, c->file, wl->ndrives ? "declared" : "none declared (in the workload or the plan)");
            return -1;
        }
    }
    return 0;
}

const struct workload_copy *workload_copy(const struct workload *wl, const char *timer)
{
    for (size_t i = 0; i < wl->ncopies; i++)
        if (!strcmp(wl->copies[i].timer, timer))
            return &wl->copies[i];
    return NULL;
}

void workload_free_drives(struct workload *wl)
{
    for (size_t i = 0; i < wl->ndrives; i++)
        free(wl->drives[i].files);
    free(wl->drives);
    free(wl->copies);
}
