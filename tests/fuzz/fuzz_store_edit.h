/* fuzz_store_edit.h -- the tampered results database behind fuzz_score and fuzz_report: a small
 * valid store (two runs written by tests/unit/fixture_store.h) is made once; each input is a list
 * of edits (any column of any row of any table set to bytes, text, an integer or a real) applied
 * to a fresh in-memory copy of it, read through one store handle that lives for the whole run.
 * Input: repeated [table u8][column u8][row u16][kind u8][len u8][len bytes].
 *
 * Nothing touches the disk per input and no connection is opened per input: the template is
 * deserialized once into one SQLite connection, each input's edits are made in a savepoint that
 * fuzz_store_done rolls back at the end of the same input (so SQLite's parsed schema stays valid,
 * and an input frees what its edits allocated: libFuzzer runs an input with more mallocs than
 * frees a second time, looking for a leak). The check store_open makes (a sessmax file, a schema
 * this build reads) runs on every edited copy. */
#ifndef SESSMAX_FUZZ_STORE_EDIT_H
#define SESSMAX_FUZZ_STORE_EDIT_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* The store holding the template with the input's edits applied, or NULL when store_open would
 * refuse the edited file. The handle stays owned by this module; do not close it. */
struct store *fuzz_store_edited(const uint8_t *data, size_t size);

/* Undoes the edits of the store fuzz_store_edited returned; call it once the input is done. */
void fuzz_store_done(void);

#endif
