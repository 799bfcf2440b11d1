// tb.h: macros shared by the core bench's assembly programs.
// A program starts with TB_START, then checks results with CHECK(n, reg, value);
// the first failing check ends the run with EXIT = n, TB_PASS ends it with 0.
// x30 and x31 belong to the macros; an unexpected trap exits with
// 0x10000 + mcause (0x20000 + cause for interrupts).
#define TB_PUTC   0x20000000
#define TB_EXIT   0x20000004
#define TB_IRQ    0x20000008
#define TB_IRQ_AT 0x2000000C
#define TB_MARK   0x20000010
#define TB_FAULT  0x30000000   /* any access here gets a bus error */

#define TB_START                     \
  .section .text.init;               \
  .globl _start;                     \
_start:                              \
  la sp, _stack_top;                 \
  la x31, tb_unexpected_trap;        \
  csrw mtvec, x31;                   \
  j tb_main;                         \
tb_unexpected_trap:                  \
  csrr x30, mcause;                  \
  srli x31, x30, 31;                 \
  addi x31, x31, 1;                  \
  slli x31, x31, 16;                 \
  andi x30, x30, 0xff;               \
  add x30, x30, x31;                 \
  j tb_fail;                         \
tb_fail:                             \
  li x31, TB_EXIT;                   \
  sw x30, 0(x31);                    \
1: j 1b;                             \
tb_main:

#define TB_PASS                      \
  li x31, TB_EXIT;                   \
  sw zero, 0(x31);                   \
1: j 1b

#define CHECK(n, reg, val)           \
  li x31, val;                       \
  beq reg, x31, 101f;                \
  li x30, n;                         \
  j tb_fail;                         \
101:

// A trap handler that records the trap and resumes: s7 counts traps, s8 gets
// mstatus, s9 mepc, s10 mcause, s11 mtval (all as seen in the handler). It
// resumes after the trapping instruction, or at ra for a fetch fault (the
// tests reach fault addresses with jalr ra). Install with USE_RECORDING_HANDLER.
#define TB_RECORDING_HANDLER         \
tb_recording_handler:                \
  addi s7, s7, 1;                    \
  csrr s8, mstatus;                  \
  csrr s9, mepc;                     \
  csrr s10, mcause;                  \
  csrr s11, mtval;                   \
  li x31, 1;                         \
  beq s10, x31, 102f;                \
  addi x31, s9, 4;                   \
  csrw mepc, x31;                    \
  mret;                              \
102:                                 \
  csrw mepc, ra;                     \
  mret

#define USE_RECORDING_HANDLER        \
  la x31, tb_recording_handler;      \
  csrw mtvec, x31;                   \
  li s7, 0

// Expect exactly one more trap (count in s7, n the check number) with cause c.
#define EXPECT_TRAP(n, count, c)     \
  CHECK(n, s7, count);               \
  CHECK(n, s10, c)

// CHECK against an address (a symbol, optionally plus an offset).
#define CHECK_LA(n, reg, sym)        \
  la x31, sym;                       \
  beq reg, x31, 101f;                \
  li x30, n;                         \
  j tb_fail;                         \
101:
