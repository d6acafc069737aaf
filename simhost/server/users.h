/* users.h -- who may log on: simuser001..simuserNNN (--users N) sharing one password from the
 * environment variable SESSMAX_PASSWORD or from a users file (--users-file F) that must not be
 * group/world accessible. The file holds either one line with the password, or "name:password"
 * lines (then exactly those accounts exist; a name is letters, digits, '_', '-' and '.', not '.' first,
 * since it names the home directory <state>/home/<name>). Passwords never appear in argv, logs
 * or output. */
#ifndef SIM_USERS_H
#define SIM_USERS_H

#include <stddef.h>

#define SIM_USERS_ENV "SESSMAX_PASSWORD"

struct sim_user_entry {
    char name[64];
    char password[128];
};

struct sim_users {
    int count;                     /* simuser001..simuser<count> when entries == NULL */
    char password[128];            /* shared password */
    struct sim_user_entry *entries; /* from a name:password file */
    int nentries;
};

/* Returns 0, or -1 with err (never containing the password). */
int sim_users_load(struct sim_users *u, int count, const char *users_file, char *err, size_t errlen);
/* The parser behind sim_users_load: the text of a users file named path (for errors), a NUL-
 * terminated string that is cut into lines in place. Returns 0, or -1 with "path:line: ..."
 * in err. On -1, sim_users_free still frees what was kept. */
int sim_users_parse(struct sim_users *u, int count, const char *path, char *text, char *err,
                    size_t errlen);
void sim_users_free(struct sim_users *u);
/* 1 if name names an account (case-insensitive). */
int sim_users_exists(const struct sim_users *u, const char *name);
/* 1 if name/password log on. Compares in constant time for equal-length passwords. */
int sim_users_check(const struct sim_users *u, const char *name, const char *password);
/* The n-th account name (0-based) into out; -1 past the end. */
int sim_users_name(const struct sim_users *u, int n, char *out, size_t outlen);
int sim_users_total(const struct sim_users *u);

#endif
