/* studio_api.h -- the studio's pages, a web_page_fn (common/web_server.h) over struct studio, so
 * they are served with the live view's token rules. Every request is a GET: the server checks
 * the token (query or its SameSite=Strict cookie) on every path before this is called, which is
 * what keeps another site's page from sending one.
 *
 *   /                      the page (studio.html, compiled in)
 *   /api/state             JSON: frame, desktop, regions, steps, the YAML, busy, the tries
 *   /api/screen.png        the current screen (8-bit RGB; its pixels are the ones `pixel` reads)
 *   /api/pixel?x&y         {"x","y","rgb":"#rrggbb"} read from the live framebuffer
 *   /api/region?name&x&y&w&h   adds or moves a region (snapped, clipped); returns it
 *   /api/step?kind&...     a step (kind key|type|click|think|wait|timer; text, name, input, x, y,
 *                          c=COND (repeated, studio_cond_parse's form), timeout_ms, part loop|logoff):
 *                          record=1 appends it, run=1 runs it on the session (a try)
 *   /api/try?part&from&to  tries recorded steps from..to (default: the one step `from`)
 *   /api/undo?part         removes the last step
 *   /api/logon?c=...       sets the logon condition
 *   /api/save              writes the file the studio was started with
 * Errors are JSON {"error": "..."} with status 400 (or 409: a try runs already). */
#ifndef SESSMAX_STUDIO_API_H
#define SESSMAX_STUDIO_API_H

#include <stddef.h>

struct evkeyvalq;

/* web_page_fn for a struct studio (arg). */
int studio_api_page(void *arg, const char *path, const struct evkeyvalq *query, char **body, size_t *len,
                    const char **content_type);

#endif
