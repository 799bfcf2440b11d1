/* fw_nn_crc: prints the network kernels' checksums (nn_checksum.h) from the
 * RV32 firmware; the tfw-ops-nn suite compares them with the host's. */
#include <stdio.h>

#include "nn_checksum.h"

int main(void) {
  nn_checksums c;
  nn_checksum_all(&c);
  printf("nn-crc matmul %08x conv %08x conv_transpose %08x pool %08x calls %u rc %d\n", (unsigned)c.matmul,
         (unsigned)c.conv, (unsigned)c.conv_transpose, (unsigned)c.pool, (unsigned)c.calls, (int)c.rc);
  return 0;
}
