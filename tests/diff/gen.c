/* gen.c: random RV32IM program generator for the differential test.
 *
 *   tessel-diff-gen SEED COUNT OUT.elf
 *
 * Writes a deterministic (per SEED) program of about COUNT random
 * instructions as a ready-to-run ELF linked at 0x80000000: ALU register and
 * immediate ops, mul/div with corner operands, lui/auipc, loads and stores of
 * every width to a 4 KiB data area at random offsets, forward branches and
 * jumps (jal, auipc+jalr) that cannot loop, csr ops on mscratch,
 * back-to-back dependencies, and exceptions (ecall, ebreak, illegal words,
 * misaligned and faulting loads/stores, misaligned jump targets) whose
 * handler reads mcause/mtval/mepc into x27..x29 and resumes after the
 * trapping instruction. It ends by writing 1 to `tohost` and prints the
 * pc of that store, so a runner can cut both commit traces there (a
 * simulator may retire a few more instructions before it stops). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CODE_BASE 0x80000000u
#define DATA_BASE 0x80010000u
#define DATA_BYTES 4096u
#define TOHOST_ADDR (DATA_BASE + DATA_BYTES)
#define MAX_WORDS 200000
#define REG_DATA 31 /* base register for loads/stores: never a destination */

static uint64_t rng_state;
static uint32_t rnd(void) {
  /* xorshift64*: small, seedable, the same on every host */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}
static uint32_t below(uint32_t n) { return rnd() % n; }

static uint32_t code[MAX_WORDS];
static uint32_t ncode;
static void emit(uint32_t w) {
  if (ncode >= MAX_WORDS) {
    fprintf(stderr, "tessel-diff-gen: program too long\n");
    exit(2);
  }
  code[ncode++] = w;
}

static uint32_t enc_r(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static uint32_t enc_i(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return ((uint32_t)imm & 0xFFFu) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static uint32_t enc_s(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  uint32_t u = (uint32_t)imm;
  return ((u >> 5) & 0x7Fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 0x1Fu) << 7 | 0x23;
}
static uint32_t enc_b(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  uint32_t u = (uint32_t)imm;
  return ((u >> 12) & 1u) << 31 | ((u >> 5) & 0x3Fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
         ((u >> 1) & 0xFu) << 8 | ((u >> 11) & 1u) << 7 | 0x63;
}
static uint32_t enc_j(int32_t imm, uint32_t rd) {
  uint32_t u = (uint32_t)imm;
  return ((u >> 20) & 1u) << 31 | ((u >> 1) & 0x3FFu) << 21 | ((u >> 11) & 1u) << 20 |
         ((u >> 12) & 0xFFu) << 12 | rd << 7 | 0x6F;
}

/* li rd, value as lui + addi (always two words: simpler to count). */
static void emit_li(uint32_t rd, uint32_t value) {
  uint32_t hi = (value + 0x800u) & 0xFFFFF000u;
  emit(hi | rd << 7 | 0x37);
  emit(enc_i((int32_t)(value - hi), rd, 0, rd, 0x13));
}

/* Recently written registers, to make back-to-back dependencies common. */
static uint32_t recent[4];
static uint32_t pick_dest(void) {
  uint32_t rd = below(20) == 0 ? 0 : 1 + below(30); /* x0 now and then; never x31 */
  recent[below(4)] = rd;
  return rd;
}
static uint32_t pick_src(void) {
  if (below(2)) return recent[below(4)];
  return below(32);
}

static const uint32_t corners[] = {0, 1, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 2, 0xFFFFFFFEu,
                                   0x80000001u, 0xFFFF8000u, 0x00007FFFu};
static uint32_t corner(void) { return corners[below(sizeof corners / sizeof corners[0])]; }
static int32_t rand_imm12(void) {
  static const int32_t special[] = {0, 1, -1, 2047, -2048, 31, 32, -2};
  return below(4) == 0 ? special[below(8)] : (int32_t)(rnd() & 0xFFF) - 2048;
}

static void gen_alu_r(void) {
  static const uint32_t f3_f7[][2] = {{0, 0}, {0, 0x20}, {1, 0}, {2, 0}, {3, 0}, {4, 0},
                                      {5, 0}, {5, 0x20}, {6, 0}, {7, 0}};
  uint32_t k = below(10);
  emit(enc_r(f3_f7[k][1], pick_src(), pick_src(), f3_f7[k][0], pick_dest(), 0x33));
}

static void gen_muldiv(void) {
  uint32_t rs1 = pick_src(), rs2 = pick_src();
  if (below(3) == 0 && rs1 != 0 && rs1 != REG_DATA) emit_li(rs1, corner());
  if (below(3) == 0 && rs2 != 0 && rs2 != REG_DATA) emit_li(rs2, corner());
  emit(enc_r(1, rs2, rs1, below(8), pick_dest(), 0x33));
}

static void gen_alu_i(void) {
  uint32_t f3 = below(8), rs1 = pick_src(), rd = pick_dest();
  if (f3 == 1) emit(enc_i((int32_t)below(32), rs1, 1, rd, 0x13));
  else if (f3 == 5) emit(enc_i((int32_t)(below(32) | (below(2) ? 0x400u : 0)), rs1, 5, rd, 0x13));
  else emit(enc_i(rand_imm12(), rs1, f3, rd, 0x13));
}

static void gen_upper(void) {
  emit((rnd() & 0xFFFFF000u) | pick_dest() << 7 | (below(2) ? 0x37u : 0x17u));
}

static void gen_load(void) {
  static const uint32_t f3s[] = {0, 1, 2, 4, 5};
  uint32_t f3 = f3s[below(5)], size = 1u << (f3 & 3);
  int32_t off = (int32_t)(below(DATA_BYTES / size) * size) - 2048; /* x31 = DATA_BASE + 2048 */
  emit(enc_i(off, REG_DATA, f3, pick_dest(), 0x03));
}

static void gen_store(void) {
  uint32_t f3 = below(3), size = 1u << f3;
  int32_t off = (int32_t)(below(DATA_BYTES / size) * size) - 2048;
  emit(enc_s(off, pick_src(), REG_DATA, f3));
}

static void gen_csr(void) {
  /* csrrw/csrrs/csrrc (and immediate forms) on mscratch: deterministic. */
  static const uint32_t f3s[] = {1, 2, 3, 5, 6, 7};
  uint32_t f3 = f3s[below(6)];
  uint32_t src = f3 >= 5 ? below(32) : pick_src();
  emit(0x340u << 20 | src << 15 | f3 << 12 | pick_dest() << 7 | 0x73);
}

/* Forward control flow. Targets are word indices fixed up after the body is
 * generated (fix_jumps), because a target must not be the second word of a
 * pair whose first word sets up its base (auipc+jalr, lui+load/store):
 * arriving there without the first would jump or store anywhere. */
enum { JUMP_BRANCH, JUMP_JAL, JUMP_JALR };
typedef struct {
  uint32_t at;     /* index of the control instruction (auipc for jalr) */
  uint32_t target; /* index it goes to */
  uint32_t kind;   /* JUMP_* */
} jump;
static jump jumps[MAX_WORDS];
static uint32_t njumps;
static uint8_t no_land[MAX_WORDS];

/* Emits a control instruction skipping up to `left` following words (which
 * are still emitted, so they run when a branch falls through). */
static void gen_control(uint32_t left) {
  uint32_t skip = below(left < 5 ? left : 5);
  jump *j = &jumps[njumps++];
  j->at = ncode;
  switch (below(3)) {
  case 0: {
    static const uint32_t f3s[] = {0, 1, 4, 5, 6, 7};
    j->kind = JUMP_BRANCH;
    j->target = ncode + 1 + skip;
    emit(enc_b(0, pick_src(), pick_src(), f3s[below(6)]));
    break;
  }
  case 1:
    j->kind = JUMP_JAL;
    j->target = ncode + 1 + skip;
    emit(enc_j(0, pick_dest()));
    break;
  default: {
    uint32_t rx = 1 + below(30);
    j->kind = JUMP_JALR;
    j->target = ncode + 2 + skip;
    emit(rx << 7 | 0x17); /* auipc rx, 0 */
    no_land[ncode] = 1;
    emit(enc_i(0, rx, 0, pick_dest(), 0x67));
    break;
  }
  }
}

/* Moves targets off jalr words and writes the offsets into the encodings. */
static void fix_jumps(void) {
  for (uint32_t i = 0; i < njumps; i++) {
    jump *j = &jumps[i];
    while (no_land[j->target]) j->target++;
    int32_t off = (int32_t)(4 * (j->target - j->at));
    uint32_t *w = &code[j->at];
    if (j->kind == JUMP_BRANCH) *w = enc_b(off, (*w >> 20) & 31, (*w >> 15) & 31, (*w >> 12) & 7);
    else if (j->kind == JUMP_JAL) *w = enc_j(off, (*w >> 7) & 31);
    else w[1] = enc_i(off, (w[1] >> 15) & 31, 0, (w[1] >> 7) & 31, 0x67);
  }
}

/* Exceptions. The handler (emitted after the epilogue) skips the trapping
 * instruction, so each is a 1-word detour that shows up in the trace as the
 * handler's csr reads. x30 is borrowed for fault addresses. */
static void gen_trap(void) {
  static const uint32_t illegal[] = {0x00000000u, 0xFFFFFFFFu, 0x40001033u, 0x02001013u,
                                     0x00002063u, 0x00003003u, 0x00004073u, 0x10200073u,
                                     0x00001067u, 0x0000200Fu, 0x7C002573u /* csrr a0, 0x7c0 */,
                                     0xF1401073u /* csrw mhartid */};
  switch (below(7)) {
  case 0: emit(0x00000073u); break; /* ecall */
  case 1: emit(0x00100073u); break; /* ebreak */
  case 2: emit(illegal[below(sizeof illegal / sizeof illegal[0])]); break;
  case 3: { /* misaligned load: lh/lhu/lw at an odd or half-aligned offset */
    static const uint32_t f3s[] = {1, 2, 5};
    uint32_t f3 = f3s[below(3)];
    int32_t off = (int32_t)(below(DATA_BYTES / 4) * 4 + (f3 == 2 ? 1 + below(3) : 1)) - 2048;
    emit(enc_i(off, REG_DATA, f3, pick_dest(), 0x03));
    break;
  }
  case 4: { /* misaligned store */
    uint32_t f3 = 1 + below(2);
    int32_t off = (int32_t)(below(DATA_BYTES / 4) * 4 + (f3 == 2 ? 1 + below(3) : 1)) - 2048;
    emit(enc_s(off, pick_src(), REG_DATA, f3));
    break;
  }
  case 5: { /* access fault: gaps of the memory map (the ISS has no NPU, so not its windows) */
    static const uint32_t bases[] = {0x50000000u, 0x60000000u, 0x70000000u, 0xF0000000u};
    emit(bases[below(4)] | 30u << 7 | 0x37); /* lui x30, base */
    no_land[ncode] = 1;
    if (below(2)) emit(enc_i((int32_t)(below(512) * 4), 30, 2, pick_dest(), 0x03));
    else emit(enc_s((int32_t)(below(512) * 4), pick_src(), 30, below(3)));
    break;
  }
  default: { /* jalr to pc + 4k + 2: misaligned target, the jalr traps */
    uint32_t rx = 1 + below(30);
    emit(rx << 7 | 0x17); /* auipc rx, 0 */
    no_land[ncode] = 1;
    emit(enc_i((int32_t)(4 * (1 + below(3)) + 2), rx, 0, pick_dest(), 0x67));
    break;
  }
  }
}

static void gen_body(uint32_t count) {
  uint32_t start = ncode;
  while (ncode - start < count) {
    uint32_t left = count - (ncode - start);
    uint32_t kind = below(100);
    if (kind < 25) gen_alu_r();
    else if (kind < 45) gen_alu_i();
    else if (kind < 57) gen_muldiv();
    else if (kind < 62) gen_upper();
    else if (kind < 74) gen_load();
    else if (kind < 84) gen_store();
    else if (kind < 87) gen_csr();
    else if (kind < 90) gen_trap();
    else if (left > 3) gen_control(left - 3);
    else gen_alu_i();
  }
}

/* ---- ELF writer: two PT_LOAD segments and a symbol table with tohost ---- */
static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static int write_elf(const char *path, const uint8_t *data, uint32_t data_bytes) {
  static const char strtab[] = "\0tohost";
  static const char shstrtab[] = "\0.text\0.data\0.symtab\0.strtab\0.shstrtab";
  uint32_t code_bytes = ncode * 4;
  uint32_t off_code = 256, off_data = off_code + code_bytes;
  uint32_t off_sym = off_data + data_bytes, off_str = off_sym + 32;
  uint32_t off_shstr = off_str + sizeof strtab;
  uint32_t off_sh = (off_shstr + sizeof shstrtab + 3) & ~3u;
  uint32_t total = off_sh + 6 * 40;
  uint8_t *im = calloc(1, total);
  if (!im) return -1;
  memcpy(im, "\x7f" "ELF", 4);
  im[4] = 1; im[5] = 1; im[6] = 1;
  put16(im + 16, 2); put16(im + 18, 243); put32(im + 20, 1);
  put32(im + 24, CODE_BASE); put32(im + 28, 52); put32(im + 32, off_sh);
  put16(im + 40, 52); put16(im + 42, 32); put16(im + 44, 2);
  put16(im + 46, 40); put16(im + 48, 6); put16(im + 50, 5);
  uint32_t seg[2][3] = {{off_code, CODE_BASE, code_bytes}, {off_data, DATA_BASE, data_bytes}};
  for (int i = 0; i < 2; i++) {
    uint8_t *ph = im + 52 + 32 * i;
    put32(ph, 1); put32(ph + 4, seg[i][0]); put32(ph + 8, seg[i][1]); put32(ph + 12, seg[i][1]);
    put32(ph + 16, seg[i][2]); put32(ph + 20, seg[i][2]); put32(ph + 24, i ? 6 : 5);
    put32(ph + 28, 4);
  }
  for (uint32_t i = 0; i < ncode; i++) put32(im + off_code + 4 * i, code[i]);
  memcpy(im + off_data, data, data_bytes);
  uint8_t *sym = im + off_sym + 16; /* symbol 1: tohost, global object in .data */
  put32(sym, 1); put32(sym + 4, TOHOST_ADDR); put32(sym + 8, 8); sym[12] = 0x11; put16(sym + 14, 2);
  memcpy(im + off_str, strtab, sizeof strtab);
  memcpy(im + off_shstr, shstrtab, sizeof shstrtab);
  /* name, type, flags, addr, offset, size, link, info, align, entsize */
  uint32_t sh[6][10] = {
      {0},
      {1, 1, 6, CODE_BASE, off_code, code_bytes, 0, 0, 4, 0},
      {7, 1, 3, DATA_BASE, off_data, data_bytes, 0, 0, 4, 0},
      {13, 2, 0, 0, off_sym, 32, 4, 1, 4, 16},
      {21, 3, 0, 0, off_str, sizeof strtab, 0, 0, 1, 0},
      {29, 3, 0, 0, off_shstr, sizeof shstrtab, 0, 0, 1, 0},
  };
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 10; j++) put32(im + off_sh + 40 * i + 4 * j, sh[i][j]);
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(im, 1, total, f) == total;
  if (f && fclose(f) != 0) ok = 0;
  free(im);
  return ok ? 0 : -1;
}

int main(int argc, char **argv) {
  char *end1, *end2;
  if (argc != 4) {
    fprintf(stderr, "usage: tessel-diff-gen SEED COUNT OUT.elf\n");
    return 2;
  }
  unsigned long long seed = strtoull(argv[1], &end1, 0);
  unsigned long count = strtoul(argv[2], &end2, 0);
  if (*end1 || *end2 || count == 0 || count > MAX_WORDS / 4) {
    fprintf(stderr, "tessel-diff-gen: SEED must be an integer and COUNT 1..%d\n", MAX_WORDS / 4);
    return 2;
  }
  rng_state = seed * 0x9E3779B97F4A7C15ull + 1; /* never zero */

  /* Prologue: mtvec (patched below), random registers, the data base, a
   * known mscratch. */
  uint32_t mtvec_li = ncode;
  emit_li(30, 0);
  emit(0x305F1073u); /* csrw mtvec, x30 */
  for (uint32_t r = 1; r < 31; r++) emit_li(r, below(4) == 0 ? corner() : rnd());
  emit_li(REG_DATA, DATA_BASE + 2048);
  emit(0x34001073u | 0u << 15); /* csrw mscratch, x0 */
  for (int i = 0; i < 4; i++) recent[i] = 1 + below(30);

  gen_body((uint32_t)count);
  fix_jumps();

  /* Epilogue: tohost = 1, then spin until the simulator stops. */
  emit_li(30, TOHOST_ADDR);
  emit(enc_i(1, 0, 0, 29, 0x13));    /* addi x29, x0, 1 */
  uint32_t store_pc = CODE_BASE + 4 * ncode;
  emit(enc_s(0, 29, 30, 2));         /* sw x29, 0(x30) */
  emit(enc_j(0, 0));                 /* j . */

  /* Trap handler: record the trap, skip the instruction, return. */
  uint32_t handler = CODE_BASE + 4 * ncode;
  emit(0x34202DF3u);                 /* csrr x27, mcause */
  emit(0x34302E73u);                 /* csrr x28, mtval */
  emit(0x34102EF3u);                 /* csrr x29, mepc */
  emit(enc_i(4, 29, 0, 29, 0x13));   /* addi x29, x29, 4 */
  emit(0x341E9073u);                 /* csrw mepc, x29 */
  emit(0x30200073u);                 /* mret */
  uint32_t save = ncode;
  ncode = mtvec_li;
  emit_li(30, handler);
  ncode = save;

  static uint8_t data[DATA_BYTES + 64];
  for (uint32_t i = 0; i < DATA_BYTES; i += 4) put32(data + i, below(3) == 0 ? corner() : rnd());
  /* tohost and fromhost stay zero */
  if (write_elf(argv[3], data, sizeof data) != 0) {
    fprintf(stderr, "tessel-diff-gen: cannot write %s\n", argv[3]);
    return 2;
  }
  printf("%08x\n", store_pc);
  return 0;
}
