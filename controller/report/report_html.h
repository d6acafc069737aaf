/* report_html.h -- the page shell shared by the run report and the dashboard: doctype, inline
 * stylesheet, footer, and error-checked open/close of the output file. */
#ifndef SESSMAX_REPORT_HTML_H
#define SESSMAX_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

/* Opens `path` for writing (common/outfile.h: a temporary file renamed over it when closed) and
 * writes the head with `title`. NULL with err on failure. */
FILE *report_html_open(const char *path, const char *title, char *err, size_t errlen);
/* Writes the footer, closes and puts the page in place; -1 with err when any write failed. */
int report_html_close(FILE *o, const char *path, char *err, size_t errlen);

#endif
