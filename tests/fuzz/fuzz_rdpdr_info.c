/* fuzz_rdpdr_info.c -- libFuzzer harness for simhost's parse of a client's FileStandardInformation
 * reply (compat/rdpdr_query_info.c): any bytes either are rejected or consume exactly 4 + Length
 * bytes, never more than given; a reply marked valid had room for the whole structure. */
#include <stdint.h>
#include <stdlib.h>

#include "compat/rdpdr_query_info.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rdpdr_file_info in;
    long used = rdpdr_query_info_parse(data, size, &in);
    if (used < -1 || used > (long)size || (used >= 0 && used < 4))
        abort();
    if (used >= 0 && (size_t)used != 4 + (data[0] | data[1] << 8 | data[2] << 16 | (size_t)data[3] << 24))
        abort();
    if (in.valid && used < 4 + 22)
        abort();
    return 0;
}
