/* trap_entry.S: the machine trap vector (direct mode). Saves x1..x31 and
 * the trap CSRs into a trap_frame (trap.h) below the interrupted sp, calls
 * trap_dispatch(frame), then restores everything, including mepc, and
 * returns with mret. Traps nest only if a handler re-enables MIE. */
#define FRAME_BYTES (36 * 4)
#define SAVE(n) sw x##n, (n * 4)(sp)
#define LOAD(n) lw x##n, (n * 4)(sp)

  .section .text.trap, "ax", @progbits
  .globl trap_entry
  .align 2
trap_entry:
  addi sp, sp, -FRAME_BYTES
  SAVE(1)
  /* x2 (sp) as it was before the trap */
  SAVE(3); SAVE(4); SAVE(5); SAVE(6); SAVE(7); SAVE(8); SAVE(9); SAVE(10)
  addi x5, sp, FRAME_BYTES
  sw x5, (2 * 4)(sp)
  SAVE(11); SAVE(12); SAVE(13); SAVE(14); SAVE(15); SAVE(16); SAVE(17)
  SAVE(18); SAVE(19); SAVE(20); SAVE(21); SAVE(22); SAVE(23); SAVE(24)
  SAVE(25); SAVE(26); SAVE(27); SAVE(28); SAVE(29); SAVE(30); SAVE(31)
  csrr x5, mepc
  sw x5, (32 * 4)(sp)
  csrr x5, mcause
  sw x5, (33 * 4)(sp)
  csrr x5, mtval
  sw x5, (34 * 4)(sp)

  mv a0, sp
  call trap_dispatch

  lw x5, (32 * 4)(sp)
  csrw mepc, x5
  LOAD(1)
  LOAD(3); LOAD(4); LOAD(5); LOAD(6); LOAD(7); LOAD(8); LOAD(9); LOAD(10)
  LOAD(11); LOAD(12); LOAD(13); LOAD(14); LOAD(15); LOAD(16); LOAD(17)
  LOAD(18); LOAD(19); LOAD(20); LOAD(21); LOAD(22); LOAD(23); LOAD(24)
  LOAD(25); LOAD(26); LOAD(27); LOAD(28); LOAD(29); LOAD(30); LOAD(31)
  addi sp, sp, FRAME_BYTES
  mret
