/* fw_elem_crc: prints the element-wise kernels' and math's checksums
 * (elem_checksum.h) from the RV32 firmware; the tfw-ops-elem suite compares
 * them with the host's. */
#include <stdio.h>

#include "elem_checksum.h"

int main(void) {
  ec_sums s;
  ec_checksum_all(&s);
  printf("elem-crc math %08x pow %08x unary %08x binary %08x other %08x rc %d\n", (unsigned)s.math, (unsigned)s.pow,
         (unsigned)s.unary, (unsigned)s.binary, (unsigned)s.other, (int)s.rc);
  return 0;
}
