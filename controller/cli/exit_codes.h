/* exit_codes.h -- the one list of sessmax's exit codes and what each means. `sessmax help` and
 * every verb's help print it from here; README.md's "Exit codes" table is the same list
 * (tests/integration/exit_codes_doc.sh compares them). A verb returning a code adds it here. */
#ifndef SESSMAX_EXIT_CODES_H
#define SESSMAX_EXIT_CODES_H

#include <stddef.h>
#include <stdio.h>

struct exit_code {
    int code;
    const char *meaning;   /* one line, no markup */
};

extern const struct exit_code exit_codes[];
extern const size_t exit_code_count;

/* The meaning of `code`, or NULL when it is not in the list. */
const char *exit_code_meaning(int code);

/* "Exit codes (every verb):", then per code "  CODE MEANING", the meaning wrapped at words into
 * lines of at most 100 columns, continued on lines indented by 6 spaces. */
void exit_codes_print(FILE *out);

#endif
