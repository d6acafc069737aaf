/* exit_codes.c -- the table of exit codes (exit_codes.h): the verdict's 0, 1, 2, then the
 * <sysexits.h> codes the verbs return. */
#include "controller/cli/exit_codes.h"

#include <string.h>
#include <sysexits.h>

#include "controller/score/verdict.h"

#define EXIT_CODES_WIDTH 100   /* columns of the printed list */

const struct exit_code exit_codes[] = {
    { EXIT_PASS, "pass (run, score, demo); done for the other verbs (written, valid, healthy)" },
    { EXIT_THRESHOLD_FAILED, "a threshold failed (trend: a regression; compare --ab: B slower beyond "
                             "--max-regression)" },
    { EXIT_INCONCLUSIVE, "inconclusive (stuck sessions, lost or overloaded agent, too few samples, a failed or "
                         "interrupted run; validate: the plan cannot collect the samples a score needs)" },
    { EX_USAGE, "usage error" },
    { EX_DATAERR, "bad data (malformed database, plan or workload content; dashboard, trend: a run skipped "
                  "for it)" },
    { EX_NOINPUT, "missing input file" },
    { EX_UNAVAILABLE, "unavailable (no agent, the target cannot be reached, or serve cannot listen)" },
    { EX_SOFTWARE, "internal error" },
    { EX_OSERR, "system error (out of memory, no free port)" },
    { EX_CANTCREAT, "cannot create an output file or folder" },
    { EX_IOERR, "I/O error (reading or writing the results database or a file)" },
    { EX_NOPERM, "authentication failed or no permission (run, score, demo: the target refused a session's "
                 "credentials -- wrong password, locked or expired account; shaping a network profile needs "
                 "root or CAP_NET_ADMIN; capping a local target's CPUs needs root)" },
    { EX_CONFIG, "configuration error (no password or token, a bad token file, agents too small for the plan; "
                 "run: the target's TLS does not match the plan's fingerprint, verify or security)" },
};

const size_t exit_code_count = sizeof exit_codes / sizeof exit_codes[0];

const char *exit_code_meaning(int code)
{
    for (size_t i = 0; i < exit_code_count; i++)
        if (exit_codes[i].code == code)
            return exit_codes[i].meaning;
    return NULL;
}

/* Prints `text` from column 6 on, wrapped at words before column EXIT_CODES_WIDTH; every line
 * after the first starts with 6 spaces. */
static void wrapped(FILE *out, const char *text)
{
    size_t col = 6;
    while (*text) {
        size_t word = strcspn(text, " ");
        if (col > 6 && col + 1 + word > EXIT_CODES_WIDTH) {
            fprintf(out, "\n      ");
            col = 6;
        } else if (col > 6) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%.*s", (int)word, text);
        col += word;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

void exit_codes_print(FILE *out)
{
    fprintf(out, "Exit codes (every verb):\n");
    for (size_t i = 0; i < exit_code_count; i++) {
        fprintf(out, "  %-3d ", exit_codes[i].code);
        wrapped(out, exit_codes[i].meaning);
    }
}
