/* npu_driver.c: checks of the NPU driver itself (suite npu-driver).
 *
 * Without an NPU (its windows answer with a bus error): npu_init reports
 * NPU_ERR_NO_DEVICE instead of trapping, and bad arguments are refused before
 * any register access. With an NPU: init passes, a NOP stream ends DONE
 * through the interrupt, an all-zero command ends with BAD_OPCODE at its
 * index, a stream past the command SRAM with STREAM_RANGE, a never-ending
 * stream is aborted by the watchdog (ABORTED), and STATUS.IRQ is cleared.
 * The stream fetch: a stream fetched from DRAM runs; a fetch outside its
 * window ends with FETCH_RANGE; a fetch into the running stream, and a run
 * over a fetch in flight, with FETCH_OVERLAP; and a ping-pong of runs from
 * one half of the command SRAM while the next stream is fetched into the
 * other. A MARK record the NPU writes over DRAM the core has just read is
 * read back as written (the driver invalidates the SoC's data cache).
 * Prints "PASS ..."/"FAIL ..." lines; exit 0 when all pass. */
#include <stdio.h>

#include "npu.h"
#include "tessel_fw.h"

static int fails;
static void expect(int cond, const char *what) {
  printf("%s %s\n", cond ? "PASS" : "FAIL", what);
  if (!cond) fails++;
}

static void put_cmd(uint32_t *s, unsigned i, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3) {
  s[4 * i] = w0, s[4 * i + 1] = w1, s[4 * i + 2] = w2, s[4 * i + 3] = w3;
}

/* The fetch window: 4 KiB of DRAM away from the run's window. */
#define FETCH_WIN 0x80010000u
#define FETCH_WIN_BYTES 4096u

/* MARK kernel; LOOP count { NOP }: three commands at word w of the fetch window. */
static void put_kernel(uint32_t w, uint32_t kernel, uint32_t count) {
  volatile uint32_t *d = (volatile uint32_t *)FETCH_WIN + w;
  uint32_t c[12] = {TSL_OP_MARK | kernel << 8, 0, 0, 0, TSL_OP_LOOP | count << 8 | 1u << 24, 0, 0, 0, TSL_OP_NOP, 0, 0, 0};
  for (int i = 0; i < 12; i++) d[i] = c[i];
}

/* The command SRAM at byte off holds the n commands at word w of the fetch window. */
static int sram_holds(uint32_t off, uint32_t w, uint32_t n) {
  for (uint32_t i = 0; i < 4 * n; i++)
    if (((volatile uint32_t *)NPU_CMD_BASE)[off / 4 + i] != ((volatile uint32_t *)FETCH_WIN)[w + i]) return 0;
  return 1;
}

static void fetch_checks(void) {
  npu_run_info_t info;
  uint32_t code = 99;
  expect(npu_set_fetch_window(FETCH_WIN, FETCH_WIN_BYTES) == NPU_OK, "set_fetch_window");
  put_kernel(0, 5, 3000);
  expect(npu_fetch_stream(0, 0, 3) == NPU_OK && npu_fetch_wait(100000, &code) == NPU_OK && code == TSL_ERR_NONE &&
             sram_holds(0, 0, 3),
         "fetch a stream from DRAM: ends without error, the command SRAM holds it");
  int rc = npu_run(0, 3, 1000000, &info);
  expect(rc == NPU_OK && info.mark_kernel == 5, "the fetched stream runs");

  expect(npu_fetch_stream(FETCH_WIN_BYTES - 16, 0, 2) == NPU_OK && npu_fetch_wait(100000, &code) == NPU_ERR_HW &&
             code == TSL_ERR_FETCH_RANGE && (npu_status() & TSL_REG_STATUS_FETCH_ERROR) && sram_holds(0, 0, 3),
         "a fetch past the fetch window's end: FETCH_RANGE, nothing written");
  expect(npu_fetch_stream(4, 0, 1) == NPU_OK && npu_fetch_wait(100000, &code) == NPU_ERR_HW &&
             code == TSL_ERR_FETCH_RANGE, "a fetch from a misaligned source: FETCH_RANGE");

  /* during a run of rows 0..2 */
  expect(npu_start(0, 3) == NPU_OK, "start a 3000-NOP run");
  expect(npu_fetch_stream(0, 32, 3) == NPU_OK && npu_fetch_wait(100000, &code) == NPU_ERR_HW &&
             code == TSL_ERR_FETCH_OVERLAP, "a fetch into the running stream: FETCH_OVERLAP");
  expect(npu_fetch_stream(0, 48, 3) == NPU_OK && npu_fetch_wait(100000, &code) == NPU_OK && sram_holds(48, 0, 3),
         "a fetch beside the running stream completes");
  expect((npu_status() & TSL_REG_STATUS_BUSY) && npu_wait(1000000, &info) == NPU_OK,
         "the run was still going and ends DONE");

  /* a run over a fetch in flight */
  for (uint32_t i = 0; i < 64 * 4; i++) ((volatile uint32_t *)FETCH_WIN)[256 + i] = i * 2654435761u;
  /* (no printing until the checks are made: the UART is slower than the fetch) */
  int started = npu_fetch_stream(1024, 256, 64) == NPU_OK;
  int refused = npu_fetch_stream(0, 0, 1) == NPU_ERR_BUSY;
  rc = npu_run(256 + 16 * 63, 1, 100000, &info);
  int still = (npu_status() & TSL_REG_STATUS_FETCH_BUSY) != 0;
  expect(started && refused, "start a 64-command fetch; fetch_stream refuses another while it is busy");
  expect(rc == NPU_ERR_HW && info.err_code == TSL_ERR_FETCH_OVERLAP && info.err_index == 0 && still,
         "a run over the fetch in flight: FETCH_OVERLAP at index 0, the fetch goes on");
  expect(npu_fetch_wait(100000, &code) == NPU_OK && sram_holds(256, 256, 64), "the fetch in flight completes");

  /* ping-pong: kernel k runs from one half while kernel k+1 is fetched into the other */
  uint32_t half = TSL_CMD_SRAM_BYTES / 2;
  for (uint32_t k = 0; k < 6; k++) put_kernel(16 * k, 100 + k, 300 + 50 * k);
  int ok = npu_fetch_stream(0, 0, 3) == NPU_OK && npu_fetch_wait(100000, &code) == NPU_OK;
  int overlapped = 0;
  for (uint32_t k = 0; k < 6; k++) {
    ok = ok && npu_start((k % 2) * half, 3) == NPU_OK;
    if (k + 1 < 6) ok = ok && npu_fetch_stream(64 * (k + 1), ((k + 1) % 2) * half, 3) == NPU_OK;
    overlapped += (npu_status() & TSL_REG_STATUS_BUSY) != 0;
    ok = ok && npu_wait(1000000, &info) == NPU_OK && info.mark_kernel == 100 + k;
    ok = ok && npu_fetch_wait(100000, &code) == NPU_OK;
  }
  expect(ok && overlapped == 6, "ping-pong: six runs alternate halves, each next stream fetched during the run");
}

int main(void) {
  static uint32_t s[4 * 8];
  /* argument checks come before any register access */
  expect(npu_load_stream(8, s, 1) == NPU_ERR_ARG, "load_stream refuses a misaligned offset");
  expect(npu_load_stream(0, s, TSL_CMD_SRAM_BYTES / TSL_CMD_BYTES + 1) == NPU_ERR_ARG,
         "load_stream refuses a stream larger than the command SRAM");
  expect(npu_load_stream(TSL_CMD_SRAM_BYTES - 16, s, 2) == NPU_ERR_ARG, "load_stream refuses a stream past the end");
  expect(npu_set_window(0x80000004u, 64) == NPU_ERR_ARG, "set_window refuses a misaligned base");
  expect(npu_set_window(0x10000000u, 64) == NPU_ERR_ARG, "set_window refuses a window outside DRAM");
  expect(npu_set_window(0xFFFFFFF8u, 64) == NPU_ERR_ARG, "set_window refuses a window past 4 GiB");
  expect(npu_counter(TSL_NCOUNTERS) == 0, "counter index out of range reads 0 without an access");
  expect(npu_set_fetch_window(0x80000004u, 64) == NPU_ERR_ARG, "set_fetch_window refuses a misaligned base");
  expect(npu_set_fetch_window(0x10000000u, 64) == NPU_ERR_ARG, "set_fetch_window refuses a window outside DRAM");
  expect(npu_fetch_stream(0, 8, 1) == NPU_ERR_ARG, "fetch_stream refuses a misaligned destination");
  expect(npu_fetch_stream(0, TSL_CMD_SRAM_BYTES - 16, 2) == NPU_ERR_ARG,
         "fetch_stream refuses a destination past the command SRAM");

  int rc = npu_init();
  if (rc == NPU_ERR_NO_DEVICE) {
    expect(1, "npu_init: no NPU in this SoC, reported as NPU_ERR_NO_DEVICE (device checks skipped)");
    return fails ? 1 : 0;
  }
  expect(rc == NPU_OK, "npu_init: NPU present and built for this target");
  if (rc != NPU_OK) return 1;
  npu_run_info_t info;
  expect(npu_set_window(0x80000000u, 4096) == NPU_OK, "set_window");

  put_cmd(s, 0, TSL_OP_NOP, 0, 0, 0);
  put_cmd(s, 1, TSL_OP_NOP, 0, 0, 0);
  expect(npu_load_stream(0, s, 2) == NPU_OK, "load a NOP stream");
  rc = npu_run(0, 2, 100000, &info);
  expect(rc == NPU_OK && (info.status & TSL_REG_STATUS_DONE) && info.err_code == 0, "NOP stream ends DONE");
  expect(!(npu_status() & TSL_REG_STATUS_IRQ), "STATUS.IRQ cleared after the wait");

  /* The data cache (docs/memory-map.md, DCACHE): the core reads the place
   * of a MARK record, so a SoC with the cache holds its line; a run writes
   * the record there; npu_wait's invalidate makes the core read the NPU's
   * bytes, not the line it held. */
  volatile uint32_t *rec = (volatile uint32_t *)(0x80000000u + 0x100u);
  rec[0] = 0xdeadbeefu, rec[2] = 0xdeadbeefu;
  uint32_t seen = rec[0] ^ rec[2];
  put_cmd(s, 0, TSL_OP_MARK | 0x1234u << 8 | 1u << 24, 0x100u, 0, 0);
  rc = npu_load_stream(0, s, 1) == NPU_OK ? npu_run(0, 1, 100000, &info) : -1;
  expect(rc == NPU_OK && seen == 0 && rec[0] == 0x1234u && rec[1] == 0 && rec[2] == 1u && rec[3] == 0,
         "a MARK record the NPU writes over DRAM the core has read reads back as the NPU wrote it");

  /* LOOP 3000 { NOP }: long enough that the wait must sleep */
  put_cmd(s, 0, TSL_OP_LOOP | 3000u << 8 | 1u << 24, 0, 0, 0);
  put_cmd(s, 1, TSL_OP_NOP, 0, 0, 0);
  npu_load_stream(0, s, 2);
  rc = npu_run(0, 2, 1000000, &info);
  expect(rc == NPU_OK && info.wakeups >= 1 && info.wait_cycles >= 3000,
         "a 3000-command run: the wait slept in wfi and the interrupt woke it");
  expect(!(npu_status() & TSL_REG_STATUS_IRQ), "STATUS.IRQ cleared after the wait");

  put_cmd(s, 1, 0, 0, 0, 0);
  npu_load_stream(0, s, 2);
  rc = npu_run(0, 2, 100000, &info);
  expect(rc == NPU_ERR_HW && info.err_code == TSL_ERR_BAD_OPCODE && info.err_index == 1,
         "zeroed command: BAD_OPCODE at index 1");

  rc = npu_run(TSL_CMD_SRAM_BYTES - 16, 2, 100000, &info);
  expect(rc == NPU_ERR_HW && info.err_code == TSL_ERR_STREAM_RANGE && info.err_index == 0,
         "stream past the command SRAM: STREAM_RANGE at index 0");

  /* LOOP 65535 { LOOP 65535 { NOP } }: 4e9 commands, far past the watchdog */
  put_cmd(s, 0, TSL_OP_LOOP | 0xFFFFu << 8 | 2u << 24, 0, 0, 0);
  put_cmd(s, 1, TSL_OP_LOOP | 0xFFFFu << 8 | 1u << 24, 0, 0, 0);
  put_cmd(s, 2, TSL_OP_NOP, 0, 0, 0);
  npu_load_stream(0, s, 3);
  rc = npu_run(0, 3, 20000, &info);
  expect(rc == NPU_ERR_TIMEOUT && info.err_code == TSL_ERR_ABORTED && !(info.status & TSL_REG_STATUS_BUSY),
         "watchdog aborts a run that does not end: ABORTED, not busy");
  expect(npu_counter(TSL_CNT_CYCLES) > 0, "counters readable after the run");
  fetch_checks();
  return fails ? 1 : 0;
}
