/* client_codecs.h -- FreeRDP's per-session memory kept to what a load client uses: only the codecs
 * a session can receive, big blocks in their own mappings, and (rdpmem/rdp_bulk.h, shared with
 * simhost) the bulk (de)compressors' zeroed tables not resident. Linking rdp_mem.c replaces
 * freerdp_client_codecs_prepare for the whole process (it calls the library's own). */
#ifndef SESSMAX_RDP_MEM_H
#define SESSMAX_RDP_MEM_H

#include <stdint.h>

#include <freerdp/settings.h>

/* Once, before any thread starts: the malloc policy (mallopt) and the bulk context
 * constructors' replacements (rdp_bulk_init; a warning when they cannot work). */
void rdp_mem_init(void);

/* FREERDP_CODEC_* flags of the codecs a session with these settings can receive (all of them
 * with GFX or without settings). */
uint32_t rdp_mem_codecs_needed(const rdpSettings *s);

#endif
