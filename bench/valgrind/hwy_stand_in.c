/* hwy_stand_in.c -- a stand-in for Debian's libhwy.so.1, used only by bench/valgrind.sh.
 *
 * FreeRDP links libavcodec, which links libjxl, which links libhwy; libhwy measures its timer
 * with RDTSCP while the library loads, and valgrind 3.19 cannot decode RDTSCP on a CPU that does
 * not announce it, so neither simhost nor the agent could start under valgrind. No sessmax path
 * decodes JPEG XL, so nothing calls into libhwy: this library has no load-time code and each of
 * the five functions libjxl imports aborts, so a call would show as a crash, never pass silently.
 * Built with a version script that names the HWY_0 node libjxl's imports ask for. */
#include <stdlib.h>

#define STAND_IN(fn, sym) void fn(void) __asm__(sym); void fn(void) { abort(); }

STAND_IN(hwy_delete_aligned_array, "_ZN3hwy14AlignedDeleter18DeleteAlignedArrayEPvPFvS1_S1_ES1_PFvS1_mE")
STAND_IN(hwy_get_chosen_target, "_ZN3hwy15GetChosenTargetEv")
STAND_IN(hwy_free_aligned_bytes, "_ZN3hwy16FreeAlignedBytesEPKvPFvPvS2_ES2_")
STAND_IN(hwy_supported_targets, "_ZN3hwy16SupportedTargetsEv")
STAND_IN(hwy_allocate_aligned_bytes, "_ZN3hwy20AllocateAlignedBytesEmPFPvS0_mES0_")
