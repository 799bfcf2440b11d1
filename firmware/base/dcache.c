/* dcache.c: see dcache.h. */
#include "dcache.h"

#include "mmio.h"
#include "trap.h"

#define DCACHE_ID_VALUE 0x48434454u /* the bytes "TDCH" (memmap.def) */

/* -1 until the first call probes; then 1 with the cache, 0 without. */
static int present = -1;

static int probe(void) {
  if (present < 0) {
    uint32_t id;
    present = trap_probe_read32(TSL_DCACHE_ID, &id) == 0 && id == DCACHE_ID_VALUE;
  }
  return present;
}

void dcache_invalidate(void) {
  if (probe()) mmio_write32(TSL_DCACHE_INVAL, 1u);
}
