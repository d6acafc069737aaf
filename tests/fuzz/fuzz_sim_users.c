/* fuzz_sim_users.c -- libFuzzer harness for simhost's users file (simhost/sim_users.c): the
 * input is written to a 0600 file and loaded. Any bytes either load or give a one-line error
 * naming the file; a loaded name is never a path (it names the home directory <state>/home/NAME)
 * and the first account checks with its password. Nothing may crash, leak or hang. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simhost/sim_users.h"

static char path[64];

static void cleanup(void) { unlink(path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sim_users u;
    char err[512], name[128];
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/fuzz_sim_users-%d", (int)getpid());
        atexit(cleanup);
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size)
        abort();
    close(fd);
    err[0] = '\0';
    if (sim_users_load(&u, 3, path, err, sizeof err) != 0) {
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
