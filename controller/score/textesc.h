/* textesc.h -- the one escaping of names and free text in the controller's text outputs
 * (score, compare, trend, validate, CSV cells, markdown tables): a name from a plan, a workload,
 * an agent or a tampered results file can neither start a new line nor end a table cell.
 *   TEXTESC_LINE      control characters (below 0x20, and DEL) as \n \r \t or \xHH
 *   TEXTESC_MARKDOWN  as LINE, and | \ as \| \\, < > & as HTML entities
 * Everything else, UTF-8 included, is kept as it is. */
#ifndef SESSMAX_TEXTESC_H
#define SESSMAX_TEXTESC_H

#include <stddef.h>
#include <stdio.h>

enum textesc_mode { TEXTESC_LINE, TEXTESC_MARKDOWN };

/* s escaped into buf (len bytes; cut before an escape that does not fit); returns buf. */
const char *textesc(char *buf, size_t len, const char *s, enum textesc_mode mode);

/* s escaped, written to o. */
void textesc_fputs(FILE *o, const char *s, enum textesc_mode mode);

/* The length of s escaped (for column widths). */
size_t textesc_len(const char *s, enum textesc_mode mode);

#endif
