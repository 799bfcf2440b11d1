/* runner.c: tessel-fw.elf, the firmware `tessel run --engine rtl` boots on
 * tessel-sim: reads a request from the DRAM mailbox (tfw_mailbox.h), loads
 * the package with the runtime, runs it on every input set, and writes the
 * outputs, counters and status back. Exit status 0 on success, else the
 * runtime's code negated (1..8); the error is also printed on the UART. */
#include <stdio.h>

#include "tessel_fw.h"
#include "tessel_rt.h"
#include "tessel_target.h"
#include "tfw_mailbox.h"

static uint32_t mb_rd(uint32_t off) { return *(volatile uint32_t *)(TFW_MAILBOX_ADDR + off); }
static void mb_wr(uint32_t off, uint32_t v) { *(volatile uint32_t *)(TFW_MAILBOX_ADDR + off) = v; }
static void mb_wr64(uint32_t off, uint64_t v) {
  mb_wr(off, (uint32_t)v);
  mb_wr(off + 4, (uint32_t)(v >> 32));
}

/* Word copies when both ends are aligned (the mailbox and the window's I/O
 * are), byte copies otherwise. */
static void copy(uint8_t *dst, const uint8_t *src, uint32_t n) {
  uint32_t i = 0;
  if (((uintptr_t)dst | (uintptr_t)src) % 4 == 0)
    for (; i + 4 <= n; i += 4) *(uint32_t *)(dst + i) = *(const uint32_t *)(src + i);
  for (; i < n; i++) dst[i] = src[i];
}

static uint32_t align8(uint32_t v) { return (v + 7u) & ~7u; }

/* Statistics buffers in data memory (192 B per kernel record), and the
 * timeline's (16 B a mark: 512 marks are about 110 kernel records with
 * their fallback ops; past them the timeline keeps its last mark, and the
 * host names the stretch it does not know). */
enum { RUNNER_STATS_MAX = 96, RUNNER_MARKS_MAX = 512 };
static tfw_kernel_stats stats_buf[RUNNER_STATS_MAX];
static uint64_t fb_buf[RUNNER_STATS_MAX];
static tfw_tl_mark marks_buf[RUNNER_MARKS_MAX];

/* The fallback records prepared at load (tfw_prepare_fallbacks), in data
 * memory: a record run from here costs no package reads and no checks.
 * 20 KiB holds all 104 of mobilenet_v3_small's at npu8 (18,936 bytes);
 * a model with more runs the rest from the package. The core-sequenced
 * NPU's runner keeps less (firmware/runtime/runtime.mk: its NPU's memories
 * come from the heap). */
#ifndef RUNNER_FB_POOL_BYTES
#define RUNNER_FB_POOL_BYTES 20480
#endif
static uint64_t fb_pool[RUNNER_FB_POOL_BYTES / 8 + 1]; /* + 1: never an empty array */

/* Copies every input (dir 0) or output (dir 1) between the window and the
 * mailbox area at base, back to back in IO order. */
static void move_io(const tfw_model *m, uint32_t dir, uint8_t *base) {
  tpkg_io io;
  uint32_t n = dir == TPKG_DIR_INPUT ? tfw_num_inputs(m) : tfw_num_outputs(m);
  for (uint32_t i = 0; i < n; i++) {
    const tpkg_io *p = dir == TPKG_DIR_INPUT ? tfw_input(m, i, &io) : tfw_output(m, i, &io);
    uint8_t *w = tfw_io_data(m, p);
    if (dir == TPKG_DIR_INPUT) copy(w, base, p->size);
    else copy(base, w, p->size);
    base += align8(p->size);
  }
}

static int finish(const tfw_error *e, uint32_t runs_done) {
  char msg[TFW_MAILBOX_MSG_BYTES];
  msg[0] = 0;
  if (e->code != TFW_OK) tfw_format_error(e, msg, sizeof msg);
  mb_wr(TFW_MB_STATUS, (uint32_t)e->code);
  mb_wr(TFW_MB_DETAIL, (uint32_t)e->detail);
  mb_wr(TFW_MB_KERNEL, (uint32_t)e->kernel);
  mb_wr(TFW_MB_INDEX, (uint32_t)(e->index > INT32_MAX ? INT32_MAX : e->index));
  mb_wr64(TFW_MB_VALUE, e->value);
  mb_wr(TFW_MB_RUNS_DONE, runs_done);
  char *dst = (char *)(TFW_MAILBOX_ADDR + TFW_MB_MSG);
  for (uint32_t i = 0; i < sizeof msg; i++) dst[i] = msg[i];
  mb_wr(TFW_MB_DONE, TFW_MAILBOX_MAGIC);
  if (e->code != TFW_OK) printf("tessel-fw: %s\n", msg);
  return -e->code;
}

/* The request's areas must lie in DRAM above the mailbox. */
static int area_ok(uint32_t addr, uint64_t bytes) {
  return addr >= TFW_MAILBOX_ADDR + TFW_MAILBOX_BYTES && (uint64_t)addr + bytes <= 0x100000000ull;
}

int main(void) {
  static tfw_model m;
  tfw_error e = {.code = TFW_OK, .kernel = -1, .index = -1};
  mb_wr(TFW_MB_FW_VERSION, TFW_RUNTIME_VERSION);
  mb_wr(TFW_MB_FW_TARGET, TSL_TARGET_HASH);
  if (mb_rd(TFW_MB_MAGIC) != TFW_MAILBOX_MAGIC || mb_rd(TFW_MB_VERSION) != TFW_MAILBOX_VERSION) {
    e = (tfw_error){TFW_E_ARG, 0, -1, -1, mb_rd(TFW_MB_VERSION),
                    "no run request of this version in the mailbox (rebuild tessel and the firmware together)"};
    return finish(&e, 0);
  }
  uint32_t runs = mb_rd(TFW_MB_RUNS), pkg = mb_rd(TFW_MB_PKG), pkg_bytes = mb_rd(TFW_MB_PKG_BYTES);
  uint32_t win = mb_rd(TFW_MB_WINDOW), win_bytes = mb_rd(TFW_MB_WINDOW_BYTES);
  uint32_t in = mb_rd(TFW_MB_IN), in_stride = mb_rd(TFW_MB_IN_STRIDE);
  uint32_t out = mb_rd(TFW_MB_OUT), out_stride = mb_rd(TFW_MB_OUT_STRIDE);
  uint32_t stats = mb_rd(TFW_MB_STATS), stats_bytes = mb_rd(TFW_MB_STATS_BYTES);
  if (!area_ok(pkg, pkg_bytes) || !area_ok(win, win_bytes) || !area_ok(in, (uint64_t)in_stride * runs) ||
      !area_ok(out, (uint64_t)out_stride * runs) || (stats_bytes && !area_ok(stats, stats_bytes)) || stats % 8) {
    e = (tfw_error){TFW_E_ARG, 0, -1, -1, 0, "a mailbox area lies outside DRAM or over the mailbox"};
    return finish(&e, 0);
  }
  uint64_t t0 = timer_now();
  if (tfw_load(&m, tfw_npu_backend(), (const void *)(uintptr_t)pkg, pkg_bytes, (void *)(uintptr_t)win, win_bytes,
               mb_rd(TFW_MB_FLAGS), &e) != TFW_OK)
    return finish(&e, 0);
  if (tfw_prepare_fallbacks(&m, fb_pool, RUNNER_FB_POOL_BYTES, &e) != TFW_OK) return finish(&e, 0);
  mb_wr64(TFW_MB_LOAD_CYCLES, timer_now() - t0);
  if (mb_rd(TFW_MB_WATCHDOG)) m.watchdog_base = mb_rd(TFW_MB_WATCHDOG), m.watchdog_per_est = 0;
  uint64_t need = (uint64_t)m.pkg.n_kernels * sizeof(tfw_kernel_stats) + (uint64_t)m.pkg.n_fallbacks * 8;
  if (stats_bytes) {
    if (stats_bytes < need) {
      e = (tfw_error){TFW_E_ARG, 0, -1, -1, need, "the mailbox's statistics area is too small"};
      return finish(&e, 0);
    }
    /* Statistics land in data memory while the runs go (DRAM stores cost
     * tens of cycles each and would show in the cycles measured), and are
     * copied to the mailbox at the end; a model with more kernel records
     * than the buffer holds writes them to the mailbox directly. */
    tfw_kernel_stats *ks = m.pkg.n_kernels <= RUNNER_STATS_MAX ? stats_buf : (tfw_kernel_stats *)(uintptr_t)stats;
    uint64_t *fs = m.pkg.n_fallbacks <= RUNNER_STATS_MAX ? fb_buf : (uint64_t *)(uintptr_t)(stats + m.pkg.n_kernels * sizeof *ks);
    tfw_set_stats(&m, ks, fs);
    /* The timeline in the rest of the area, as much of it as the buffer holds. */
    uint64_t room = (stats_bytes - need) / sizeof(tfw_tl_mark);
    tfw_set_timeline(&m, marks_buf, room < RUNNER_MARKS_MAX ? (uint32_t)room : RUNNER_MARKS_MAX);
  }
  uint64_t cycles = 0;
  uint32_t r;
  for (r = 0; r < runs; r++) {
    tfw_timeline_begin(&m);
    tfw_mark(&m, TFW_TL_INPUT_COPY, 0);
    move_io(&m, TPKG_DIR_INPUT, (uint8_t *)(uintptr_t)(in + r * in_stride));
    uint64_t t1 = timer_now();
    int rc = tfw_run(&m, &e);
    cycles += timer_now() - t1;
    if (rc != TFW_OK) break;
    tfw_mark(&m, TFW_TL_OUTPUT_COPY, 0);
    move_io(&m, TPKG_DIR_OUTPUT, (uint8_t *)(uintptr_t)(out + r * out_stride));
    tfw_mark(&m, TFW_TL_END, 0);
  }
  tfw_run_stats(&m); /* the last run's, from the counter records: outside the cycles measured */
  mb_wr64(TFW_MB_CYCLES, cycles);
  mb_wr(TFW_MB_TL_COUNT, m.tl_count);
  mb_wr(TFW_MB_TL_DROPPED, m.tl_dropped);
  if (m.tl_count)
    copy((uint8_t *)(uintptr_t)(stats + need), (const uint8_t *)marks_buf, m.tl_count * (uint32_t)sizeof *marks_buf);
  if (stats_bytes && m.kstats == stats_buf)
    copy((uint8_t *)(uintptr_t)stats, (const uint8_t *)stats_buf, m.pkg.n_kernels * (uint32_t)sizeof *stats_buf);
  if (stats_bytes && m.fallback_cycles == fb_buf)
    copy((uint8_t *)(uintptr_t)(stats + m.pkg.n_kernels * sizeof(tfw_kernel_stats)), (const uint8_t *)fb_buf,
         m.pkg.n_fallbacks * 8u);
  return finish(&e, r);
}
