/* npu_driver.c: checks of the NPU driver itself (suite npu-driver).
 *
 * Without an NPU (its windows answer with a bus error): npu_init reports
 * NPU_ERR_NO_DEVICE instead of trapping, and bad arguments are refused before
 * any register access. With an NPU: init passes, a NOP stream ends DONE
 * through the interrupt, an all-zero command ends with BAD_OPCODE at its
 * index, a stream past the command SRAM with STREAM_RANGE, a never-ending
 * stream is aborted by the watchdog (ABORTED), and STATUS.IRQ is cleared.
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
  return fails ? 1 : 0;
}
