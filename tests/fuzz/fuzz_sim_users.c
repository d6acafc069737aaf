/* fuzz_sim_users.c -- libFuzzer harness for simhost's users file (simhost/server/users.c): the
 * input is the file's text, given to sim_users_parse (what sim_users_load runs on the file once
 * it has checked its mode and read it; no file per input). Any bytes either load or give a
 * one-line error naming the file; a loaded name is never a path (it names the home directory
 * <state>/home/NAME) and the first account checks with its password. Nothing may crash, leak or hang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simhost/server/users.h"

static const char path[] = "/etc/fuzz-users";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sim_users u;
    char err[512], name[128], *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    err[0] = '\0';
    int rc = sim_users_parse(&u, 3, path, text, err, sizeof err);
    free(text);
    if (rc != 0) {
        if (!err[0] || strchr(err, '\n') || strncmp(err, path, strlen(path)) != 0) {
            fprintf(stderr, "not one line naming the file: '%s'\n", err);
            abort();
        }
        sim_users_free(&u);
        return 0;
    }
    for (int i = 0; i < sim_users_total(&u); i++) {
        if (sim_users_name(&u, i, name, sizeof name) != 0 || strchr(name, '/') || name[0] == '.' ||
            !sim_users_exists(&u, name))
            abort();
    }
    /* the first account of a name:password file, or simuser001 with the shared password */
    const char *pw = u.nentries ? u.entries[0].password : u.password;
    if (sim_users_name(&u, 0, name, sizeof name) != 0 || !sim_users_check(&u, name, pw))
        abort();
    sim_users_free(&u);
    return 0;
}
