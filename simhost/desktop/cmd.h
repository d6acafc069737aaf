/* cmd.h -- the run-box command language of the simhost desktop contract:
 * "edit FILE", "zip9 FILE", "zip1 FILE", "cpu", "logoff", "copyin NAME FILE",
 * "copyout NAME FILE SIZE", "appstart"; anything else is an unknown command.
 * FILE is a plain name inside the session's directory ([A-Za-z0-9._-], no leading dot). */
#ifndef SIM_CMD_H
#define SIM_CMD_H

#include <stddef.h>

enum sim_cmd_kind {
    SIM_CMD_NONE = 0,   /* empty line */
    SIM_CMD_EDIT,
    SIM_CMD_ZIP9,
    SIM_CMD_ZIP1,
    SIM_CMD_CPU,
    SIM_CMD_LOGOFF,
    SIM_CMD_OPEN,       /* the file-open dialog (ctrl+o in the editor), not typed in the run box */
    SIM_CMD_COPYIN,     /* copyin NAME FILE: client drive NAME's FILE -> server (simhost/server/drive.h) */
    SIM_CMD_COPYOUT,    /* copyout NAME FILE SIZE: server -> client drive NAME's FILE */
    SIM_CMD_APPSTART,   /* appstart: reads many small files (appstart.h) */
    SIM_CMD_UNKNOWN,    /* unknown command or bad arguments; `text` holds the message */
    SIM_CMD_KIND_COUNT
};

#define SIM_CMD_ARG_MAX 64
#define SIM_CMD_DRIVE_MAX 7      /* a drive is announced under an 8-byte DOS name (NUL included) */

struct sim_cmd {
    enum sim_cmd_kind kind;
    char arg[SIM_CMD_ARG_MAX];   /* FILE for edit/zip/copyin/copyout */
    char drive[SIM_CMD_DRIVE_MAX + 1]; /* NAME for copyin/copyout: the client drive's DOS name */
    unsigned long long size;     /* SIZE for copyout (bytes; KB/MB/GB suffixes accepted) */
    char text[128];              /* error message for SIM_CMD_UNKNOWN */
};

/* Parses one run-box line (leading/trailing blanks ignored). Always fills out; returns out->kind. */
enum sim_cmd_kind sim_cmd_parse(const char *line, struct sim_cmd *out);
/* Short action name ("edit", "zip9", "zip1", "cpu", "logoff", "open", "copyin", "copyout",
 * "unknown"). */
const char *sim_cmd_name(enum sim_cmd_kind kind);
/* 1 if name is an acceptable FILE argument. */
int sim_cmd_valid_file(const char *name);

#endif
