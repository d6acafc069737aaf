/* codec.h -- compressed screen updates, as a real RDP server sends them: the dirty rectangles
 * of a desktop rendered in 64x64 tiles, each compressed with one of FreeRDP's lossless bitmap
 * encoders and sent as Bitmap Updates (TS_BITMAP_DATA with BITMAP_COMPRESSION):
 *   planar       RDP 6.0 planar codec (MS-RDPEGDI 2.2.2.5.1), 32 bpp, run-length encoded planes;
 *   interleaved  interleaved RLE (MS-RDPBCGR 2.2.9.1.1.3.1.2.4), 16 bpp;
 *   none         no encoder: sim_frame's uncompressed SurfaceBits.
 * `auto` picks what a Windows server picks for the session's depth: planar at 32 bpp,
 * interleaved below. Lossless only: agents compare pixels. */
#ifndef SIM_CODEC_H
#define SIM_CODEC_H

#include <stdint.h>

#include <freerdp/freerdp.h>

#include "simhost/desktop/desktop.h"
#include "simhost/desktop/frame.h"

enum sim_codec_id { SIM_CODEC_AUTO, SIM_CODEC_NONE, SIM_CODEC_PLANAR, SIM_CODEC_INTERLEAVED };

struct sim_codec;

/* "auto", "planar", "interleaved" or "none"; 0, or -1 for anything else. */
int sim_codec_parse(const char *name, enum sim_codec_id *id);
const char *sim_codec_name(enum sim_codec_id id);

/* What `asked` becomes for a session of depth bpp (16 or 32) whose client sent st's capabilities:
 * auto follows the depth; planar in a 16-bpp session falls back to interleaved (planar is a 32-bpp
 * codec), interleaved in a 32-bpp session to planar (FreeRDP 2.11's 24-bpp interleaved encoder
 * does not round-trip colour runs: lossy); a client whose fragmented updates cannot hold one
 * compressed tile gets none. */
enum sim_codec_id sim_codec_choose(enum sim_codec_id asked, int bpp, rdpSettings *st);

/* The session's encoder for choice (never AUTO); *out = NULL for NONE. 0, or -1 out of memory. */
int sim_codec_open(enum sim_codec_id choice, rdpSettings *st, struct sim_codec **out);
void sim_codec_free(struct sim_codec *c);

/* Renders r (clipped to the desktop; widened to whole 4-pixel columns, as the codecs need) into
 * fb's render scratch and sends it as Bitmap Updates on ctx. Returns the bytes of bitmap data
 * sent, or -1 when the client is gone or an encoder failed. */
long long sim_codec_emit(struct sim_codec *c, const struct sim_desktop *d, const struct sim_font *f,
                         struct sim_rect r, struct sim_frame_buf *fb, rdpContext *ctx);

/* Pixels covered (at the wire depth, uncompressed) and bitmap bytes sent so far. */
void sim_codec_totals(const struct sim_codec *c, uint64_t *raw_bytes, uint64_t *sent_bytes);

#endif
