/* fw_ops_move_crc: prints the move/reduce kernels' checksums (move_checksum.h)
 * from the RV32 firmware; the tfw-ops-move suite compares them with the host's. */
#include <stdio.h>

#include "move_checksum.h"

int main(void) {
  move_checksums c;
  move_checksum_all(&c);
  printf("tfw-ops-move-crc move %08x resize %08x reduce %08x norm %08x int8 %08x rc %d\n", (unsigned)c.move,
         (unsigned)c.resize, (unsigned)c.reduce, (unsigned)c.norm, (unsigned)c.int8, (int)c.rc);
  return 0;
}
