/* users.c -- accounts and password checks. */
#include "simhost/server/users.h"

#include "common/file_read.h"
#include "common/names.h"
#include "common/secret_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int parse_simuser(const char *name, int count)
{
    char *end, expect[32];
    if (strncasecmp(name, "simuser", 7) != 0 || name[7] < '0' || name[7] > '9')
        return 0;
    long n = strtol(name + 7, &end, 10);
    if (*end != '\0' || n < 1 || n > count)
        return 0;
    snprintf(expect, sizeof expect, "simuser%03ld", n);
    return strcasecmp(expect, name) == 0;
}

/* Bounded copy (lengths were checked by the caller; this only keeps the compiler sure). */
static void copy(char *dst, size_t dstlen, const char *src)
{
    size_t n = strlen(src);
    if (n >= dstlen)
        n = dstlen - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* One line of a users file: a lone password, or name:password. 0, or -1 with err. */
static int load_line(struct sim_users *u, const char *path, int lineno, char *line, char *err,
                     size_t errlen)
{
    char *colon = strchr(line, ':');
    if (!colon) {
        if (u->password[0] || u->nentries) {
            snprintf(err, errlen, "%s:%d: expected name:password", path, lineno);
            return -1;
        }
        copy(u->password, sizeof u->password, line);
        return 0;
    }
    *colon = '\0';
    if (!line[0] || strlen(line) >= 64 || strlen(colon + 1) >= 128 || u->password[0]) {
        snprintf(err, errlen, "%s:%d: bad name:password line", path, lineno);
        return -1;
    }
    if (!name_is_safe(line) || line[0] == '.') {   /* the name becomes <state>/home/<name> */
        snprintf(err, errlen, "%s:%d: bad user name: use %s, not '.' first", path, lineno,
                 NAMES_CHARSET_TEXT);
        return -1;
    }
    struct sim_user_entry *e = realloc(u->entries, sizeof *e * (size_t)(u->nentries + 1));
    if (!e) {
        snprintf(err, errlen, "%s:%d: out of memory", path, lineno);
        return -1;
    }
    u->entries = e;
    copy(e[u->nentries].name, sizeof e->name, line);
    copy(e[u->nentries].password, sizeof e->password, colon + 1);
    u->nentries++;
    return 0;
}

int sim_users_parse(struct sim_users *u, int count, const char *path, char *text, char *err,
                    size_t errlen)
{
    int lineno = 0, rc = 0;
    memset(u, 0, sizeof *u);
    u->count = count;
    for (char *line = text, *next; line && rc == 0; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        line[strcspn(line, "\r")] = '\0';
        if (line[0] != '\0' && line[0] != '#')
            rc = load_line(u, path, lineno, line, err, errlen);
    }
    if (rc == 0 && !u->password[0] && !u->nentries) {
        snprintf(err, errlen, "%s: users file holds no password", path);
        return -1;
    }
    return rc;
}

static int load_file(struct sim_users *u, int count, const char *path, char *err, size_t errlen)
{
    size_t len = 0;
    char *text = secret_file_read_all(path, "users file", FILE_READ_MAX_CONFIG, &len, err, errlen);
    if (!text)
        return -1;
    int rc = sim_users_parse(u, count, path, text, err, errlen);
    explicit_bzero(text, len);
    free(text);
    return rc;
}

int sim_users_load(struct sim_users *u, int count, const char *users_file, char *err, size_t errlen)
{
    memset(u, 0, sizeof *u);
    u->count = count;
    if (users_file)
        return load_file(u, count, users_file, err, errlen);
    const char *pw = getenv(SIM_USERS_ENV);
    if (!pw || !pw[0]) {
        snprintf(err, errlen, "no password: set %s or use --users-file F (mode 0600)", SIM_USERS_ENV);
        return -1;
    }
    if (strlen(pw) >= sizeof u->password) {
        snprintf(err, errlen, "%s is too long (max %zu characters)", SIM_USERS_ENV, sizeof u->password - 1);
        return -1;
    }
    copy(u->password, sizeof u->password, pw);
    return 0;
}

void sim_users_free(struct sim_users *u)
{
    if (u->entries)
        memset(u->entries, 0, sizeof *u->entries * (size_t)u->nentries);
    free(u->entries);
    memset(u, 0, sizeof *u);
}

static const struct sim_user_entry *find(const struct sim_users *u, const char *name)
{
    for (int i = 0; i < u->nentries; i++)
        if (strcasecmp(u->entries[i].name, name) == 0)
            return &u->entries[i];
    return NULL;
}

int sim_users_exists(const struct sim_users *u, const char *name)
{
    if (!name)
        return 0;
    return u->nentries ? find(u, name) != NULL : parse_simuser(name, u->count);
}

static int equal_ct(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned diff = (unsigned)(la ^ lb);
    for (size_t i = 0; i < la; i++)
        diff |= (unsigned char)a[i] ^ (unsigned char)b[i < lb ? i : 0];
    return diff == 0;
}

int sim_users_check(const struct sim_users *u, const char *name, const char *password)
{
    if (!name || !password || !sim_users_exists(u, name))
        return 0;
    const char *want = u->nentries ? find(u, name)->password : u->password;
    return equal_ct(want, password);
}

int sim_users_total(const struct sim_users *u) { return u->nentries ? u->nentries : u->count; }

int sim_users_name(const struct sim_users *u, int n, char *out, size_t outlen)
{
    if (n < 0 || n >= sim_users_total(u))
        return -1;
    if (u->nentries)
        snprintf(out, outlen, "%s", u->entries[n].name);
    else
        snprintf(out, outlen, "simuser%03d", n + 1);
    return 0;
}
