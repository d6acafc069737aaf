/* client_codecs.h -- FreeRDP's per-session memory kept to what a load client uses: only the codecs
 * a session can receive, big blocks in their own mappings, and (bulk_tables.h, shared with
 * simhost) the bulk (de)compressors' zeroed tables not resident. Linking client_codecs.c replaces
 * freerdp_client_codecs_prepare for the whole process (it calls the library's own). */
#ifndef SESSMAX_CLIENT_CODECS_H
#define SESSMAX_CLIENT_CODECS_H

#include <stdint.h>

#include <freerdp/settings.h>

/* Once, before any thread starts: the malloc policy (mallopt) and the bulk context
 * constructors' replacements (bulk_tables_init; a warning when they cannot work). */
void client_codecs_init(void);

/* FREERDP_CODEC_* flags of the codecs a session with these settings can receive (all of them
 * with GFX or without settings). */
uint32_t client_codecs_needed(const rdpSettings *s);

#endif
