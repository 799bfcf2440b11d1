/* fw_fallback_crc: prints the fallback ops' checksums (fb_checksum.h) from
 * the RV32 firmware; the fallback suite compares them with the host's. */
#include <stdio.h>

#include "fb_checksum.h"

int main(void) {
  fb_checksums c;
  fb_checksum_all(&c);
  printf("fallback-crc expf %08x quantize %08x dequantize %08x softmax %08x run %08x\n", (unsigned)c.expf,
         (unsigned)c.quantize, (unsigned)c.dequantize, (unsigned)c.softmax, (unsigned)c.run);
  return 0;
}
