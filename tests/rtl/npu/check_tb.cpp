// check_tb: npu_check (the dispatcher's combinational checks) against the C
// model's npu_check() on random commands, configuration registers, loop
// offsets and DRAM window sizes. The RTL does its range arithmetic at the
// widths each value can reach (not 64 bits); this bench is what holds it to
// the C model's int64 results: the error code of every command must agree,
// and for accepted commands the effective slot fields too. Offsets, fields
// and strides are biased to land near the edges of the memories and of the
// DRAM window, and to the largest values the loop stack can reach.
//   check_tb [N]   N random commands per opcode (default 4000)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "Vnpu_check.h"
#include "verilated.h"

extern "C" {
#include "npu_internal.h"
#include "tessel_isa.h"
}
#include "tb_target.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next() {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static int64_t R(int64_t lo, int64_t hi) { return lo + (int64_t)(next() % (uint64_t)(hi - lo + 1)); }

// a field value: small, at an edge, or anywhere in its width
static uint32_t field(int width) {
  uint64_t max = width >= 32 ? 0xFFFFFFFFull : ((1ull << width) - 1);
  switch (next() % 24 < 1 ? 0 : 1 + next() % 5) {   // 0 (a bad count) is rare
  case 0: return 0;
  case 1: return (uint32_t)R(1, 3 < (int64_t)max ? 3 : (int64_t)max);
  case 2: return (uint32_t)max;
  case 3: return (uint32_t)(max - (uint64_t)R(0, max < 3 ? (int64_t)max : 3));
  default: return (uint32_t)(next() & max);
  }
}

static void put(uint32_t w[4], int lsb, int width, uint32_t v) {
  for (int i = 0; i < width; i++) {
    int b = lsb + i;
    w[b / 32] = (w[b / 32] & ~(1u << (b % 32))) | (((v >> i) & 1u) << (b % 32));
  }
}

// A plausible value for a field, by its name: small counts, rows near the
// memories' sizes, DRAM offsets near a small window, so that commands get
// past the field checks and reach the range checks and their edges.
static bool sane_value(const char *op, const char *f, int64_t dim, uint32_t *v) {
  auto is = [&](const char *n) { return strcmp(f, n) == 0; };
  bool cfg = strncmp(op, "CFG_", 4) == 0;
  if (is("n0")) *v = (uint32_t)R(1, dim);
  else if (is("mem")) *v = (uint32_t)R(0, 2);
  else if (is("pad_top") || is("pad_bottom") || is("pad_left") || is("pad_right")) *v = (uint32_t)R(0, 1);
  else if (is("nx") || is("ny") || is("nz") || is("oh") || is("ow") || is("kh") || is("kw") || is("ncb"))
    *v = (uint32_t)R(1, 5);
  else if (is("rows")) *v = (uint32_t)R(1, 40);
  else if (cfg && (is("stride_y") || is("stride_x")) && strcmp(op, "CFG_EXEC") == 0) *v = (uint32_t)R(1, 3);
  else if (is("dil_y") || is("dil_x") || is("pool_s")) *v = (uint32_t)R(1, 3);
  else if (cfg && (is("stride_x") || is("stride_y") || is("stride_z"))) *v = (uint32_t)R(0, 600);
  else if (is("in_h") || is("in_w")) *v = (uint32_t)R(1, 12);
  else if (is("in_pitch") || is("out_pitch") || is("src_pitch") || is("spad_pitch") || is("cb_stride"))
    *v = (uint32_t)R(1, 20);
  else if (is("pool_k")) *v = (uint32_t)R(0, 3);
  else if (is("src_h") || is("src_w")) *v = (uint32_t)R(1, 8);
  else if (is("shift")) *v = (uint32_t)R(0, 50);
  else if (is("iy0") || is("ix0")) *v = (uint32_t)(R(-4, 10) & 0xFFF);
  else if (is("dram")) *v = (uint32_t)R(0, 5000);
  else if (is("row") || is("acc") || is("wgt") || is("in") || is("out") || is("a") || is("b") ||
           is("src_row") || is("dst_row") || is("param"))
    *v = (uint32_t)R(0, 140);
  else if (is("pop_prev") || is("pop_next") || is("push_prev") || is("push_next") || is("raw")) *v = 0;
  else return false;
  return true;
}

// a random command of opcode op: every field random, reserved bits clear
// but, when `reserved`, now and then one set (a configuration register never
// has one: such a CFG_* fails its own check)
static void random_cmd(unsigned op, uint32_t w[4], bool reserved, bool sane, int64_t dim) {
  memset(w, 0, 16);
  const tsl_cmd_desc_t *d = tsl_cmd_desc(op);
  if (d)
    for (int i = 0; i < d->nfields; i++) {
      uint32_t v = field(d->fields[i].width);
      if (sane && next() % 16) sane_value(d->name, d->fields[i].name, dim, &v);
      put(w, d->fields[i].lsb, d->fields[i].width, v);
    }
  w[0] = (w[0] & ~0xFFu) | op;
  if (d && next() % 4) w[0] &= ~0xF00u;                  // mostly no token flags
  if (reserved && next() % 50 == 0) {
    int b = (int)R(8, 127);
    w[b / 32] |= 1u << (b % 32);
  }
}

static const int kSlotBits[TSL_NSLOTS] = {32, 16, 16, 16, 8, 8, 32, 16};

// a loop offset the dispatcher can hold: sum over levels of i * stride
static int64_t random_off(int slot, int64_t depth) {
  int64_t smax = (int64_t)1 << (kSlotBits[slot] - 1);
  switch (next() % 5) {
  case 0: return 0;
  case 1: return R(-300, 300);
  case 2: return R(-70000, 70000);
  default: {
    int64_t s = 0;
    for (int64_t l = 0; l < depth; l++) {
      int64_t it = next() % 2 ? 65534 : R(0, 65534);
      int64_t st = next() % 2 ? (next() % 2 ? smax - 1 : -smax) : R(-smax, smax - 1);
      s += it * st;
    }
    return s;
  }
  }
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  int per_op = argc > 1 ? atoi(argv[1]) : 4000;
  if (per_op < 1) {
    fprintf(stderr, "check_tb: N must be >= 1\n");
    return 2;
  }
  tsl_target_t t = *tb_target();
  npu_model_t *m = npu_model_new(&t);
  if (!m) {
    fprintf(stderr, "check_tb: npu_model_new failed\n");
    return 2;
  }
  Vnpu_check *top = new Vnpu_check;
  static const unsigned ops[] = {TSL_OP_CFG_LOAD, TSL_OP_LOAD,   TSL_OP_CFG_EXEC, TSL_OP_MATMUL,
                                 TSL_OP_DWCONV,   TSL_OP_CFG_VEC, TSL_OP_VADD,    TSL_OP_VPOOL,
                                 TSL_OP_ENOP,     TSL_OP_CFG_STORE, TSL_OP_CFG_EPI, TSL_OP_STORE, 0x3F};
  int pass = 0, fail = 0;
  for (unsigned op : ops) {
    int bad = 0, seen[16] = {0};
    for (int n = 0; n < per_op; n++) {
      // configuration registers: random CFG_* commands, decoded for the model
      bool sane = next() % 4 != 0;
      uint32_t cfg[5][4];
      static const unsigned cops[5] = {TSL_OP_CFG_LOAD, TSL_OP_CFG_EXEC, TSL_OP_CFG_VEC, TSL_OP_CFG_STORE,
                                       TSL_OP_CFG_EPI};
      for (int k = 0; k < 5; k++) random_cmd(cops[k], cfg[k], false, sane, t.dim);
      // small geometries are where the range edges are: bias CFG_EXEC/EPI/STORE pitches
      tsl_cfg_load_decode(cfg[0], &m->cfg.load);
      tsl_cfg_exec_decode(cfg[1], &m->cfg.exec);
      tsl_cfg_vec_decode(cfg[2], &m->cfg.vec);
      tsl_cfg_store_decode(cfg[3], &m->cfg.store);
      tsl_cfg_epi_decode(cfg[4], &m->cfg.epi);
      uint32_t w[4];
      random_cmd(op, w, true, sane, t.dim);
      int64_t off[TSL_NSLOTS];
      for (int k = 0; k < TSL_NSLOTS; k++) off[k] = sane && next() % 2 ? R(-6, 6) : random_off(k, t.loop_depth);
      // now and then put a row slot right at an edge of its memory
      if (next() % 3 == 0) {
        int k = (int)R(1, 3);
        int64_t edge = next() % 2 ? 0 : (next() % 2 ? t.spad_rows : t.acc_rows);
        int64_t fld = (int64_t)(k == 1 ? (w[1] & 0xFFFF) : k == 2 ? (w[2] & 0xFFFF) : (w[1] >> 16));
        off[k] = edge - fld + R(-3, 3);
      }
      uint32_t dram_size = sane ? (uint32_t)R(0, 6000) : next() % 2 ? (uint32_t)R(0, 1 << 20) : (uint32_t)next();
      m->dram_size = dram_size;
      npu_qcmd_t q;
      char msg[200];
      npu_cfg_t before = m->cfg;
      int want = npu_check(m, w, off, 0, &q, msg, sizeof msg);
      m->cfg = before;

      for (int i = 0; i < 4; i++) top->cmd_i[i] = w[i];
      for (int k = 0; k < TSL_NSLOTS; k++) {
        top->off_i[2 * k] = (uint32_t)(uint64_t)off[k];
        top->off_i[2 * k + 1] = (uint32_t)((uint64_t)off[k] >> 32);
      }
      for (int i = 0; i < 4; i++) {
        top->cfg_load_i[i] = cfg[0][i];
        top->cfg_exec_i[i] = cfg[1][i];
        top->cfg_vec_i[i] = cfg[2][i];
        top->cfg_store_i[i] = cfg[3][i];
        top->cfg_epi_i[i] = cfg[4][i];
      }
      top->dram_size_i = dram_size;
      top->en_i = 1;
      top->eval();
      int got = top->err_o;
      bool ok = got == want;
      // accepted: the effective slot fields the units get
      if (ok && want == TSL_ERR_NONE) {
        uint32_t e[4] = {top->eff_o[0], top->eff_o[1], top->eff_o[2], top->eff_o[3]};
        switch (op) {
        case TSL_OP_LOAD:
          ok = e[1] == (uint32_t)q.u.load.dram && (e[2] & 0xFFFF) == (uint32_t)(q.u.load.row & 0xFFFF);
          break;
        case TSL_OP_STORE:
          ok = e[1] == (uint32_t)q.u.store.dram && (e[2] & 0xFFFF) == (uint32_t)(q.u.store.dst_row & 0xFFFF) &&
               (e[2] >> 16) == (uint32_t)(q.u.store.src_row & 0xFFFF) &&
               (e[3] & 0xFFFF) == (uint32_t)(q.u.store.param & 0xFFFF);
          break;
        case TSL_OP_MATMUL:
          ok = (e[1] >> 16) == (uint32_t)(q.u.mm.wgt & 0xFFFF) && (e[2] & 0xFFFF) == (uint32_t)(q.u.mm.acc & 0xFFFF);
          break;
        default: break;
        }
      }
      if (want >= 0 && want < 16) seen[want]++;
      if (!ok && bad < 5)
        printf("FAIL op 0x%02X: RTL error %d, model %d (%s); cmd %08X %08X %08X %08X\n", op, got, want, msg, w[0],
               w[1], w[2], w[3]);
      bad += !ok;
    }
    printf("%s check op 0x%02X (%s): %d commands, codes:", bad ? "FAIL" : "PASS", op,
           tsl_cmd_desc(op) ? tsl_cmd_desc(op)->name : "none", per_op);
    for (int c = 0; c < 16; c++)
      if (seen[c]) printf(" %s %d", tsl_err_name(c), seen[c]);
    printf("\n");
    bad ? fail++ : pass++;
  }
  delete top;
  npu_model_free(m);
  printf("%d passed, %d failed\n", pass, fail);
  return fail ? 1 : 0;
}
