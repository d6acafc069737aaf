/* workload_drives.c -- the `drives:` section of a workload:
 *   drives: {NAME: {files: {FILE: SIZE, ...}}, ...}
 * NAME: 1-7 of [A-Za-z0-9_-] (the DOS name the drive is announced under); FILE: a plain name;
 * SIZE: bytes with an optional KB/MB/GB suffix (drive_gen_parse_size). */
#include "common/workload_parse.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/drive_gen.h"

#define ERR(p, at, ...) ydoc_error((p)->doc, (at), (p)->err, (p)->errlen, __VA_ARGS__)

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

int workload_parse_drives(struct workload_parse *p, const struct ydoc_node *map)
{
    static const char *const keys[] = { "files", NULL };
    struct workload *wl = p->wl;
    if (!map)
        return 0;
    if (ydoc_expect(p->doc, map, YDOC_MAP, "drives", p->err, p->errlen) != 0)
        return -1;
    wl->drives = calloc(map->n ? map->n : 1, sizeof *wl->drives);
    if (!wl->drives)
        return ERR(p, map, "out of memory");
    for (size_t i = 0; i < map->n; i++) {
        const struct ydoc_node *k = map->keys[i], *v = map->items[i];
        struct workload_drive *d = &wl->drives[wl->ndrives];
        const char *name;
        if (ydoc_str(p->doc, k, &name, p->err, p->errlen) != 0)
            return -1;
        if (!drive_name_ok(name))
            return ERR(p, k, "drive name '%s' must be 1-%d letters, digits, '_' or '-'", name,
                       WORKLOAD_DRIVE_NAME_MAX);
        for (size_t j = 0; j < wl->ndrives; j++)
            if (!strcasecmp(wl->drives[j].name, name))
                return ERR(p, k, "drive '%s' declared twice", name);
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

void workload_free_drives(struct workload *wl)
{
    for (size_t i = 0; i < wl->ndrives; i++)
        free(wl->drives[i].files);
    free(wl->drives);
}
