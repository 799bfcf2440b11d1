/* lower_dump: the lowering's stages printed in a stable text form, for
 * `tessel compile --print-after=STAGE / --print-before=STAGE` and FileCheck.
 *
 * lower_graph decides the stages kernel by kernel (a kernel's residency
 * depends on its neighbours' tilings), so a dump shows what the finished
 * program says about that stage, not a snapshot taken midway:
 *
 *   layout     every tensor: blocked or plain, channels, image, blocks, zero point, aliases
 *   fusion     the kernel list: kind, anchor node, fused pool / add / requant, in and out
 *   sram-plan  the DRAM window split, every tensor's DRAM home and SRAM residency
 *   tiling     each NPU kernel's schedule and its scratchpad/ACC/PARAM rows
 *   emission   each NPU kernel's command stream, disassembled (and its segments) */
#include <string.h>

#include "lower_internal.h"

static const char *const stage_names[LOWER_NSTAGES] = {"layout", "fusion", "sram-plan", "tiling", "emission"};

const char *lower_stage_name(int stage) {
  return stage >= 0 && stage < LOWER_NSTAGES ? stage_names[stage] : "?";
}

int lower_stage_find(const char *name) {
  for (int i = 0; name && i < LOWER_NSTAGES; i++)
    if (!strcmp(name, stage_names[i])) return i;
  return -1;
}

static const char *tensor_name(const lower_program *p, int i) {
  return i >= 0 && i < p->n_tensors ? p->tensors[i].v->name : "-";
}

static const char *kind_name(lower_kernel_kind k) {
  static const char *const names[] = {"conv", "dwconv", "vec", "fallback"};
  return names[k];
}

static void dump_layout(FILE *f, const lower_program *p) {
  for (int i = 0; i < p->n_tensors; i++) {
    const lower_tensor *t = &p->tensors[i];
    if (!t->blocked) {
      fprintf(f, "tensor '%s' plain%s bytes=%llu\n", t->v->name, t->twin ? " twin" : t->is_const ? " const" : "",
              (unsigned long long)t->bytes);
      continue;
    }
    fprintf(f, "tensor '%s' %s%s c=%lld h=%lld w=%lld blocks=%lld zp=%d bytes=%llu", t->v->name,
            t->pack_b ? "blocked-packed" : "blocked", t->rk ? " rk" : "", (long long)t->c, (long long)t->h, (long long)t->w, (long long)t->blocks, t->zp,
            (unsigned long long)t->bytes);
    if (t->alias >= 0) fprintf(f, " alias='%s'+%lld", tensor_name(p, t->alias), (long long)t->alias_off);
    fprintf(f, "\n");
  }
}

static void dump_fusion(FILE *f, const lower_program *p) {
  for (int i = 0; i < p->n_kernels; i++) {
    const lower_kernel *k = &p->kernels[i];
    const char *what = k->kind == LOWER_K_FALLBACK && k->fallback_op == LOWER_FB_RELAYOUT ? "Relayout"
                                                                                           : ir_op_name(k->node->op);
    fprintf(f, "kernel %d %s %s '%s'", i, kind_name(k->kind), what, k->node->src);
    if (k->pool) fprintf(f, " + MaxPool '%s'", k->pool->src);
    if (k->add) fprintf(f, " + %s '%s'", ir_op_name(k->add->op), k->add->src);
    fprintf(f, " in='%s' out='%s'\n", tensor_name(p, k->in), tensor_name(p, k->out));
  }
}

static void dump_sram_plan(FILE *f, const lower_program *p) {
  fprintf(f, "window io=%llu scratch=%llu weights=%llu total=%llu\n", (unsigned long long)p->io_bytes,
          (unsigned long long)(p->consts_base - p->io_bytes), (unsigned long long)p->consts_bytes,
          (unsigned long long)p->dram_bytes);
  for (int i = 0; i < p->n_tensors; i++) {
    const lower_tensor *t = &p->tensors[i];
    fprintf(f, "tensor '%s' dram=%llu bytes=%llu", t->v->name, (unsigned long long)t->dram,
            (unsigned long long)t->bytes);
    if (t->alias >= 0) fprintf(f, " in='%s'+%lld", tensor_name(p, t->alias), (long long)t->alias_off);
    if (t->spad_row >= 0)
      fprintf(f, " resident spad_row=%lld rows=%lld", (long long)t->spad_row, (long long)(t->blocks * t->h * t->w));
    fprintf(f, "\n");
  }
}

void lower_sched_print(FILE *f, const lower_kernel *k) {
  fprintf(f, " tile_oh=%d ob_group=%d ob_chunk=%d order=%s", k->sched.oh_tile, k->sched.ob_group, k->sched.ob_chunk,
          k->sched.order == 1 ? "rows" : "chunks");
  if (k->sched.wbuf == 2) fprintf(f, " wbuf=2");
  if (k->ow_tile) fprintf(f, " tile_ow=%d", k->ow_tile);
  if (k->ic_chunk) fprintf(f, " ic_chunk=%d", k->ic_chunk);
}

static void dump_tiling(FILE *f, const lower_program *p) {
  for (int i = 0; i < p->n_kernels; i++) {
    const lower_kernel *k = &p->kernels[i];
    if (k->kind == LOWER_K_FALLBACK) continue;
    fprintf(f, "kernel %d %s '%s'", i, kind_name(k->kind), k->node->src);
    if (k->kind != LOWER_K_VEC) {
      lower_sched_print(f, k);
      fprintf(f, " from=%s", k->sched_from > 0 ? "hook" : k->sched_from < 0 ? "default(hook rejected)" : "default");
    }
    fprintf(f, " spad=%lld acc=%lld param=%lld\n", (long long)k->spad_rows_used, (long long)k->acc_rows_used,
            (long long)k->param_rows_used);
  }
}

static void dump_stream(FILE *f, const lower_stream *s, const char *indent) {
  for (uint32_t c = 0; c < s->n; c++) {
    uint32_t w[4];
    for (int j = 0; j < 4; j++) {
      const uint8_t *b = s->bytes + 16 * (size_t)c + 4 * j;
      w[j] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    }
    char buf[512];
    tsl_disasm(w, buf, sizeof buf);
    fprintf(f, "%s%4u: %s\n", indent, c, buf);
  }
}

static void dump_emission(FILE *f, const lower_program *p) {
  for (int i = 0; i < p->n_kernels; i++) {
    const lower_kernel *k = &p->kernels[i];
    if (k->kind == LOWER_K_FALLBACK) continue;
    fprintf(f, "kernel %d %s '%s' cmds=%u\n", i, kind_name(k->kind), k->node->src, k->stream.n);
    dump_stream(f, &k->stream, "  ");
    for (int j = 0; j < k->n_segs; j++) {
      fprintf(f, "  segment %d cmds=%u\n", j, k->segs[j].n);
      dump_stream(f, &k->segs[j], "    ");
    }
  }
}

void lower_dump_stage(FILE *f, const lower_program *p, int stage) {
  switch (stage) {
  case LOWER_STAGE_LAYOUT: dump_layout(f, p); break;
  case LOWER_STAGE_FUSION: dump_fusion(f, p); break;
  case LOWER_STAGE_SRAM_PLAN: dump_sram_plan(f, p); break;
  case LOWER_STAGE_TILING: dump_tiling(f, p); break;
  case LOWER_STAGE_EMISSION: dump_emission(f, p); break;
  default: break;
  }
}
