/* rdp_mem.h -- FreeRDP's per-session memory kept to what a load client uses: only the codecs
 * a session can receive, the bulk (de)compressors' zeroed tables not resident, big blocks in
 * their own mappings. Linking rdp_mem.c replaces freerdp_client_codecs_prepare and
 * xcrush/ncrush/mppc_context_new for the whole process (they call the library's own). */
#ifndef SESSMAX_RDP_MEM_H
#define SESSMAX_RDP_MEM_H

#include <stddef.h>
#include <stdint.h>

#include <freerdp/settings.h>

/* Once, before any thread starts: the malloc policy (mallopt). */
void rdp_mem_init(void);

/* FREERDP_CODEC_* flags of the codecs a session with these settings can receive (all of them
 * with GFX or without settings). */
uint32_t rdp_mem_codecs_needed(const rdpSettings *s);

/* Hands the whole pages of a malloc'd block that hold only zeroes back to the kernel (they read
 * as zero again); the caller owns the block. Returns the bytes released. */
size_t rdp_mem_release_zero_pages(void *block);

#endif
