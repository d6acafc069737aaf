/* procstat.c -- a process's figures as Linux shows them in /proc, for the benches and for
 * simhost's real-session check, which measure a process they started or themselves (see procstat.h). */
#include "common/procstat.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long procstat_kb(pid_t pid, const char *field)
{
    char path[64], line[256];
    long v = -1;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, field, strlen(field)))
            v = strtol(line + strlen(field) + 1, NULL, 10);
    fclose(f);
    return v;
}

int procstat_count(pid_t pid, const char *dir)
{
    char path[128];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, dir);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

double procstat_cpu_s(pid_t pid)
{
    char path[64];
    unsigned long ut = 0, st = 0;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    if (fscanf(f, "%*d %*s %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        ut = st = 0;
    fclose(f);
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}
