/* cmd.c -- run-box command parsing. */
#include "simhost/desktop/cmd.h"

#include "common/drive_gen.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *const cmd_names[SIM_CMD_KIND_COUNT] = {
    "none", "edit", "zip9", "zip1", "cpu", "logoff", "open", "copyin", "copyout", "appstart",
    "unknown",
};

const char *sim_cmd_name(enum sim_cmd_kind kind)
{
    return (kind >= 0 && kind < SIM_CMD_KIND_COUNT) ? cmd_names[kind] : "unknown";
}

int sim_cmd_valid_file(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= SIM_CMD_ARG_MAX || name[0] == '.')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && !strchr("._-", name[i]))
            return 0;
    return 1;
}

/* Splits line into a command word and the rest (trimmed); returns the number of words (0..3,
 * 3 meaning "more than two"). */
static int split(const char *line, char *word, size_t wlen, char *rest, size_t rlen)
{
    int words = 0;
    const char *p = line;
    word[0] = rest[0] = '\0';
    while (*p && isspace((unsigned char)*p))
        p++;
    size_t i = 0;
    while (*p && !isspace((unsigned char)*p)) {
        if (i + 1 < wlen)
            word[i++] = *p;
        p++;
    }
    word[i] = '\0';
    if (i)
        words = 1;
    while (*p && isspace((unsigned char)*p))
        p++;
    i = 0;
    while (*p && !isspace((unsigned char)*p)) {
        if (i + 1 < rlen)
            rest[i++] = *p;
        p++;
    }
    rest[i] = '\0';
    if (i)
        words = 2;
    while (*p && isspace((unsigned char)*p))
        p++;
    if (*p)
        words = 3;
    return words;
}

static int valid_drive(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > SIM_CMD_DRIVE_MAX)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '-')
            return 0;
    return 1;
}

/* copyin NAME FILE / copyout NAME FILE SIZE; returns the kind, or UNKNOWN with a usage text. */
static enum sim_cmd_kind parse_copy(const char *line, int out_dir, struct sim_cmd *out)
{
    char word[16], name[32], file[SIM_CMD_ARG_MAX + 1], size[32], extra[2];
    int want = out_dir ? 4 : 3;
    int got = sscanf(line, " %15s %31s %64s %31s %1s", word, name, file, size, extra);
    uint64_t bytes = 0;
    if (got != want || !valid_drive(name) || !sim_cmd_valid_file(file) ||
        (out_dir && drive_gen_parse_size(size, &bytes) != 0)) {
        snprintf(out->text, sizeof out->text, out_dir
                 ? "usage: copyout NAME FILE SIZE (NAME: a client drive, up to 7 letters; SIZE like 10MB)"
                 : "usage: copyin NAME FILE (NAME: a client drive, up to 7 letters)");
        return out->kind = SIM_CMD_UNKNOWN;
    }
    memcpy(out->drive, name, strlen(name) + 1);
    memcpy(out->arg, file, strlen(file) + 1);
    out->size = bytes;
    return out->kind = out_dir ? SIM_CMD_COPYOUT : SIM_CMD_COPYIN;
}

enum sim_cmd_kind sim_cmd_parse(const char *line, struct sim_cmd *out)
{
    char word[32], arg[SIM_CMD_ARG_MAX + 1];
    memset(out, 0, sizeof *out);
    int words = split(line, word, sizeof word, arg, sizeof arg);
    if (words == 0)
        return out->kind = SIM_CMD_NONE;
    static const enum sim_cmd_kind with_file[] = { SIM_CMD_EDIT, SIM_CMD_ZIP9, SIM_CMD_ZIP1 };
    for (size_t i = 0; i < sizeof with_file / sizeof with_file[0]; i++) {
        if (strcmp(word, cmd_names[with_file[i]]) != 0)
            continue;
        if (words != 2 || !sim_cmd_valid_file(arg)) {
            snprintf(out->text, sizeof out->text, "usage: %s FILE (a file in your directory)", word);
            return out->kind = SIM_CMD_UNKNOWN;
        }
        memcpy(out->arg, arg, strlen(arg) + 1);   /* valid_file() bounds it below SIM_CMD_ARG_MAX */
        return out->kind = with_file[i];
    }
    if (strcmp(word, "copyin") == 0 || strcmp(word, "copyout") == 0)
        return parse_copy(line, strcmp(word, "copyout") == 0, out);
    if (strcmp(word, "appstart") == 0 && words == 1)
        return out->kind = SIM_CMD_APPSTART;
    if ((strcmp(word, "cpu") == 0 || strcmp(word, "logoff") == 0) && words == 1)
        return out->kind = strcmp(word, "cpu") == 0 ? SIM_CMD_CPU : SIM_CMD_LOGOFF;
    snprintf(out->text, sizeof out->text, "unknown command: %.100s", line);
    /* trim trailing blanks of the echoed line */
    for (size_t n = strlen(out->text); n && isspace((unsigned char)out->text[n - 1]); n--)
        out->text[n - 1] = '\0';
    return out->kind = SIM_CMD_UNKNOWN;
}
