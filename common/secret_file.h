/* secret_file.h -- reads a secret (a password, a token) from a file only its owner may read.
 * Secrets never come from argv; a file readable by group or others is refused with the chmod
 * that fixes it, so a secret is never used from a file that has already leaked it. */
#ifndef SESSMAX_SECRET_FILE_H
#define SESSMAX_SECRET_FILE_H

#include <stddef.h>

/* Reads `path` (a regular file, mode 0600 or stricter) into out, the trailing newline stripped.
 * `what` names the secret in messages ("password file", "token file"). 0, or -1 with a one-line
 * "PATH: reason" in err. */
int secret_file_read(const char *path, const char *what, char *out, size_t outlen, char *err, size_t errlen);

#endif
