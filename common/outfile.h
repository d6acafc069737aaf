/* outfile.h -- the one way to write an output file (report, export, compare, dashboard page,
 * verdict.json): into a new temporary file in the target's directory (O_EXCL: never through a
 * planted link), renamed over the target when complete. A symbolic link at the final name is
 * replaced, never followed; a reader never sees half a file; a failed write leaves the old file.
 * Files are created 0600 (outputs name users, agents and hosts); the caller may share them. */
#ifndef SESSMAX_OUTFILE_H
#define SESSMAX_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* A stream to the temporary file of `path`, or NULL with "PATH: cannot write: reason" in err. */
FILE *outfile_open(const char *path, char *err, size_t errlen);
/* Flushes, syncs and closes f, then renames it over its path. 0, or -1 with err (the temporary
 * file is removed). */
int outfile_commit(FILE *f, char *err, size_t errlen);
/* Closes f and removes its temporary file (the target is left as it was). Accepts NULL. */
void outfile_discard(FILE *f);

#endif
