/* isa_test.h: macros for Tessel's own riscv-tests-style assembly tests.
 *
 * A test file is
 *     #include "isa_test.h"
 *     TEST_BEGIN
 *       TEST_RR(2, add, 3, 1, 2)
 *       ...
 *     TEST_END
 *     TEST_DATA_BEGIN  (optional: words the load/store tests use)
 *       ...
 *     TEST_DATA_END
 *
 * Each case puts its number in TESTNUM (gp) before checking, so a failure
 * reports it: `fail` writes (TESTNUM << 1) | 1 to `tohost`, `pass` writes 1.
 * The simulator ends the run on the first non-zero tohost write. An
 * unexpected trap fails the current case; trap tests install their own
 * handler with SET_TRAP_HANDLER. Registers: x11, x12 sources, x14 result,
 * x7 expected value, x15 bypass result; x5/x6 scratch. Tests are linked
 * with linker/dram.ld at 0x80000000, as standard riscv-tests are. */
#ifndef TESSEL_ISA_TEST_H
#define TESSEL_ISA_TEST_H

#define TESTNUM gp

#define TEST_BEGIN                                                       \
  .section .text.init, "ax", @progbits;                                  \
  .globl _start;                                                         \
_start:                                                                  \
  la t0, isa_unexpected_trap;                                            \
  csrw mtvec, t0;                                                        \
  li TESTNUM, 0;

/* pass/fail and the trap that nobody expected. A fail with TESTNUM 0 would
 * read as a pass, so it reports case 1023 instead. */
#define TEST_END                                                         \
  fence;                                                                 \
pass:                                                                    \
  li t0, 1;                                                              \
  la t1, tohost;                                                         \
  sw t0, 0(t1);                                                          \
1: j 1b;                                                                 \
fail:                                                                    \
  fence;                                                                 \
  bnez TESTNUM, 2f;                                                      \
  li TESTNUM, 1023;                                                      \
2: slli t0, TESTNUM, 1;                                                  \
  ori t0, t0, 1;                                                         \
  la t1, tohost;                                                         \
  sw t0, 0(t1);                                                          \
3: j 3b;                                                                 \
  .align 2;                                                              \
isa_unexpected_trap:                                                     \
  j fail;                                                                \
  .pushsection .tohost, "aw", @progbits;                                 \
  .align 6;                                                              \
  .globl tohost;                                                         \
tohost: .word 0, 0;                                                      \
  .align 6;                                                              \
  .globl fromhost;                                                       \
fromhost: .word 0, 0;                                                    \
  .popsection;

#define TEST_DATA_BEGIN .pushsection .data, "aw", @progbits; .align 4;
#define TEST_DATA_END .popsection;

#define SET_TRAP_HANDLER(label) la t0, label; csrw mtvec, t0;

/* Generic case: run code, then compare testreg with the expected value. */
#define TEST_CASE(n, testreg, expected, code...)                         \
  li TESTNUM, n;                                                         \
  code;                                                                  \
  li x7, expected;                                                       \
  bne testreg, x7, fail;

/* Register-register ops. */
#define TEST_RR(n, op, expected, a, b)                                   \
  TEST_CASE(n, x14, expected, li x11, a; li x12, b; op x14, x11, x12)
#define TEST_RR_SRC1_EQ_DEST(n, op, expected, a, b)                      \
  TEST_CASE(n, x11, expected, li x11, a; li x12, b; op x11, x11, x12)
#define TEST_RR_SRC2_EQ_DEST(n, op, expected, a, b)                      \
  TEST_CASE(n, x12, expected, li x11, a; li x12, b; op x12, x11, x12)
#define TEST_RR_SRCS_EQ_DEST(n, op, expected, a)                         \
  TEST_CASE(n, x11, expected, li x11, a; op x11, x11, x11)
#define TEST_RR_ZERODEST(n, op, a, b)                                    \
  TEST_CASE(n, x0, 0, li x11, a; li x12, b; op x0, x11, x12)
#define TEST_RR_ZEROSRC1(n, op, expected, b)                             \
  TEST_CASE(n, x14, expected, li x12, b; op x14, x0, x12)
#define TEST_RR_ZEROSRC2(n, op, expected, a)                             \
  TEST_CASE(n, x14, expected, li x11, a; op x14, x11, x0)
/* The result feeds the very next instruction, then one with a gap. */
#define TEST_RR_BYPASS(n, op, expected, a, b)                            \
  TEST_CASE(n, x15, expected, li x11, a; li x12, b; op x14, x11, x12;    \
            addi x15, x14, 0)                                            \
  TEST_CASE(n, x15, expected, li x11, a; li x12, b; op x14, x11, x12; \
            nop; addi x15, x14, 0)                                       \
  TEST_CASE(n, x15, expected, li x11, a; li x12, b; op x14, x11, x12; \
            nop; nop; add x15, x0, x14)

/* Register-immediate ops. */
#define TEST_IMM(n, op, expected, a, imm)                                \
  TEST_CASE(n, x14, expected, li x11, a; op x14, x11, imm)
#define TEST_IMM_SRC_EQ_DEST(n, op, expected, a, imm)                    \
  TEST_CASE(n, x11, expected, li x11, a; op x11, x11, imm)
#define TEST_IMM_ZERODEST(n, op, a, imm)                                 \
  TEST_CASE(n, x0, 0, li x11, a; op x0, x11, imm)
#define TEST_IMM_ZEROSRC(n, op, expected, imm)                           \
  TEST_CASE(n, x14, expected, op x14, x0, imm)
#define TEST_IMM_BYPASS(n, op, expected, a, imm)                         \
  TEST_CASE(n, x15, expected, li x11, a; op x14, x11, imm; addi x15, x14, 0) \
  TEST_CASE(n, x15, expected, li x11, a; op x14, x11, imm; nop;       \
            addi x15, x14, 0)

/* Loads from a labelled data word; the _USE form consumes the loaded value
 * in the very next instruction (load-use). */
#define TEST_LOAD(n, op, expected, offset, base)                         \
  TEST_CASE(n, x14, expected, la x11, base; op x14, offset(x11))
#define TEST_LOAD_USE(n, op, expected, offset, base)                     \
  TEST_CASE(n, x15, expected, la x11, base; op x14, offset(x11);         \
            addi x15, x14, 0)
#define TEST_LOAD_ZERODEST(n, op, offset, base)                          \
  TEST_CASE(n, x0, 0, la x11, base; op x0, offset(x11))

/* Store value, then read it back with ldop (which sets the expected width
 * and sign extension). */
#define TEST_STORE(n, ldop, stop, expected, value, offset, base)         \
  TEST_CASE(n, x14, expected, la x11, base; li x12, value;               \
            stop x12, offset(x11); ldop x14, offset(x11))

/* Branches: a taken branch must skip `j fail`; a not-taken one must fall
 * through. Both are tested with operands produced just before. */
#define TEST_BR_TAKEN(n, op, a, b)                                       \
  li TESTNUM, n;                                                         \
  li x11, a;                                                             \
  li x12, b;                                                             \
  op x11, x12, 1f;                                                       \
  j fail;                                                                \
1:
#define TEST_BR_NOT_TAKEN(n, op, a, b)                                   \
  li TESTNUM, n;                                                         \
  li x11, a;                                                             \
  li x12, b;                                                             \
  op x11, x12, 1f;                                                       \
  j 2f;                                                                  \
1: j fail;                                                               \
2:

/* Trap tests. EXPECT_TRAP_HANDLER defines a handler that records mcause,
 * mepc, mtval and mstatus in s0, s1, s2, s4 and resumes after the trapping instruction,
 * or at s3 if s3 is non-zero (for traps whose mepc+4 is not code). */
#define EXPECT_TRAP_HANDLER(label)                                       \
  .align 2;                                                              \
label:                                                                   \
  csrr s0, mcause;                                                       \
  csrr s1, mepc;                                                         \
  csrr s2, mtval;                                                        \
  csrr s4, mstatus;                                                      \
  beqz s3, 1f;                                                           \
  csrw mepc, s3;                                                         \
  li s3, 0;                                                              \
  mret;                                                                  \
1: addi t0, s1, 4;                                                       \
  csrw mepc, t0;                                                         \
  mret;

/* Run code, which must trap with cause (checked in s0). */
#define TEST_TRAP(n, cause, code...)                                     \
  li TESTNUM, n;                                                         \
  li s0, -1;                                                             \
  code;                                                                  \
  li x7, cause;                                                          \
  bne s0, x7, fail;

/* Run code, which must not trap. */
#define TEST_NO_TRAP(n, code...)                                         \
  li TESTNUM, n;                                                         \
  li s0, -1;                                                             \
  code;                                                                  \
  li x7, -1;                                                             \
  bne s0, x7, fail;

/* Device registers (build/gen/tessel_memmap.h, docs/memory-map.md). */
#include "tessel_memmap.h"
#define MTIME_ADDR     TSL_TIMER_MTIME
#define MTIMECMP_ADDR  TSL_TIMER_MTIMECMP
#define EXT_IRQ_ADDR   TSL_SIMCTL_EXT_IRQ

#endif
