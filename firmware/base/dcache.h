/* dcache.h: the SoC's data cache (docs/memory-map.md, region DCACHE). DRAM
 * loads are cached and stores write through, so the core's own accesses
 * always see each other; what the cache cannot see is DRAM written by
 * another memory-port master (the NPU's DMA, the converter). A driver that
 * starts such a writer calls dcache_invalidate() once the writer is done
 * (its last write answered), before the core reads what it wrote.
 *
 * A SoC built without the cache answers the window with a bus error: the
 * first call probes the ID register and, with no cache there, every call is
 * then a no-op. */
#ifndef TESSEL_FW_DCACHE_H
#define TESSEL_FW_DCACHE_H

/* Makes every line of the data cache invalid (one store), where there is
 * one. Not from a trap handler (the first call probes with
 * trap_probe_read32). */
void dcache_invalidate(void);

#endif
