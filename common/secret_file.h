/* secret_file.h -- reads a secret (a password, a token, a users file) from a file only its owner
 * may read. Secrets never come from argv; a file readable by group or others is refused with the
 * chmod that fixes it, so a secret is never used from a file that has already leaked it.
 *
 * The file is opened with O_NOFOLLOW (a symbolic link is refused) and O_NONBLOCK (a FIFO or a
 * device never blocks the caller: it is refused, since only a regular file passes), and every
 * check is made with fstat on the open descriptor, so nothing can be swapped in between. */
#ifndef SESSMAX_SECRET_FILE_H
#define SESSMAX_SECRET_FILE_H

#include <stddef.h>

/* Reads `path` (a regular file, mode 0600 or stricter, owned by the caller unless the caller is
 * root) into out, the trailing newline stripped. `what` names the secret in messages ("password
 * file", "token file"). 0, or -1 with a one-line "PATH: reason" in err. */
int secret_file_read(const char *path, const char *what, char *out, size_t outlen, char *err, size_t errlen);

/* The same checks, for a larger secret read whole: a new NUL-terminated buffer of *len bytes
 * (at most max_bytes; the caller wipes and frees it), or NULL with err. */
char *secret_file_read_all(const char *path, const char *what, size_t max_bytes, size_t *len, char *err,
                           size_t errlen);

#endif
