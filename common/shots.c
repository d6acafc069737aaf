/* shots.c -- the screenshot directory: mkdir -p and the HTML contact sheet; see shots.h. */
#include "common/shots.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int shots_mkdir(const char *dir, char *err, size_t errlen)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        snprintf(err, errlen, "%s: path too long", dir);
        return -1;
    }
    for (char *p = path + 1; ; p++) {
        if (*p != '/' && *p)
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
            return -1;
        }
        *p = c;
        if (!c)
            break;
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The user part of a shot's name: everything before "-logon.png" or the last "-loop<digit>". */
static size_t user_len(const char *name)
{
    const char *cut = strstr(name, "-logon.png");
    for (const char *q = name; !cut && (q = strstr(q, "-loop")); q++)
        if (q[5] >= '0' && q[5] <= '9' && !strstr(q + 1, "-loop"))
            cut = q;
    return cut ? (size_t)(cut - name) : strlen(name);
}

static void html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else if (*s == '"') fputs("&quot;", f);
        else fputc(*s, f);
    }
}

static int write_sheet(FILE *f, const char *dir, char **names, size_t n)
{
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>sessmax shots</title>\n"
          "<style>body{font:13px sans-serif;margin:1em}h2{font-size:14px;margin:1em 0 .3em}"
          "figure{display:inline-block;margin:0 .5em .5em 0}img{width:320px;border:1px solid #999}"
          "figcaption{font-size:12px}</style></head><body>\n<h1>Screenshots of ", f);
    html_text(f, dir);
    fprintf(f, "</h1>\n<p>%zu pictures: the end of every timer of each session's first loop, and"
               " every timed-out wait or logon.</p>\n", n);
    for (size_t i = 0; i < n; i++) {
        size_t ul = user_len(names[i]);
        if (i == 0 || ul != user_len(names[i - 1]) || strncmp(names[i], names[i - 1], ul)) {
            fputs("<h2>", f);
            fwrite(names[i], 1, ul, f);
            fputs("</h2>\n", f);
        }
        fputs("<figure><a href=\"", f);
        html_text(f, names[i]);
        fputs("\"><img loading=\"lazy\" src=\"", f);
        html_text(f, names[i]);
        fputs("\"></a><figcaption>", f);
        html_text(f, names[i] + ul + (names[i][ul] == '-'));
        fputs("</figcaption></figure>\n", f);
    }
    fputs("</body></html>\n", f);
    return ferror(f) ? -1 : 0;
}

int shots_contact_sheet(const char *dir, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    char **names = NULL, path[4096], tmp[4200];
    size_t n = 0, cap = 0;
    int rc = -1;
    err[0] = '\0';
    if (!d) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".png") != 0)
            continue;
        if (n == cap) {
            char **nn = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *nn);
            if (!nn)
                goto done;
            names = nn;
        }
        if (!(names[n] = strdup(e->d_name)))
            goto done;
        n++;
    }
    if (n > 1)   /* names is NULL when the directory holds no PNG: qsort must not see it */
        qsort(names, n, sizeof *names, by_name);
    snprintf(path, sizeof path, "%s/index.html", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    int bad = !f || write_sheet(f, dir, names, n) != 0;
    if ((f && fclose(f) != 0) || bad || rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        goto done;
    }
    rc = (int)n;
done:
    if (rc < 0 && !err[0])
        snprintf(err, errlen, "%s: out of memory", dir);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(d);
    return rc;
}
