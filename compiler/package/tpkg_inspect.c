/* tpkg_inspect: a human-readable dump of a .tpkg (see tpkg_inspect.h).
 * The package is validated first, so every offset printed is in bounds. */
#include "tpkg_inspect.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "tessel_isa.h"
#include "tpkg.h"

static const char *const sect_names[TPKG_NSECT + 1] = {"?",  "STRINGS", "NODES",  "KERNELS", "STREAMS",
                                                       "IO", "FALLBACK", "WINDOW", "WEIGHTS"};

static void print_shape(FILE *out, uint32_t rank, const uint32_t *dims) {
  fputc('[', out);
  for (uint32_t i = 0; i < rank; i++) fprintf(out, "%s%u", i ? "," : "", dims[i]);
  fputc(']', out);
}

static void print_window(FILE *out, const tpkg_window *w) {
  fprintf(out, "window: %u bytes\n", w->window_bytes);
  fprintf(out, "  weights  0x%08X %u bytes\n", w->weights_offset, w->weights_bytes);
  fprintf(out, "  io       0x%08X %u bytes\n", w->io_offset, w->io_bytes);
  fprintf(out, "  scratch  0x%08X %u bytes\n", w->scratch_offset, w->scratch_bytes);
  fprintf(out, "  marks    0x%08X %u bytes\n", w->marks_offset, w->marks_bytes);
}

static void print_io(FILE *out, const tpkg_view *v) {
  fprintf(out, "io: %u\n", v->n_io);
  for (uint32_t i = 0; i < v->n_io; i++) {
    tpkg_io io;
    tpkg_view_io(v, i, &io);
    fprintf(out, "  %s '%s' %s ", io.dir == TPKG_DIR_INPUT ? "input " : "output", io.name, tpkg_dtype_name(io.dtype));
    print_shape(out, io.rank, io.dims);
    fprintf(out, " %s", tpkg_layout_name(io.layout));
    if (io.block) fprintf(out, " block %u", io.block);
    fprintf(out, " scale %g zp %d at 0x%08X (%u bytes)\n", (double)io.scale, io.zero_point, io.offset, io.size);
  }
}

static void print_kernels(FILE *out, const tpkg_view *v) {
  fprintf(out, "kernels: %u (%u commands)\n", v->n_kernels, v->n_cmds);
  for (uint32_t k = 0; k < v->n_kernels; k++) {
    tpkg_kernel_view kv;
    tpkg_view_kernel(v, k, &kv);
    fprintf(out, "  kernel %u '%s' id %u: %u commands at %u, estimate %llu cycles, useful MACs %llu, compulsory DRAM %llu bytes\n",
            k, kv.name, kv.mark_id, kv.cmd_count, kv.cmd_first, (unsigned long long)kv.estimate_cycles,
            (unsigned long long)kv.useful_macs, (unsigned long long)kv.compulsory_dram_bytes);
    fprintf(out, "    onnx:");
    for (uint32_t j = 0; j < kv.node_count; j++) fprintf(out, "%s %s", j ? "," : "", tpkg_view_node(v, kv.node_first + j));
    fputc('\n', out);
    for (uint32_t j = 0; j < kv.cmd_count; j++) {
      uint32_t w[4];
      char line[512];
      tsl_cmd_from_bytes(tpkg_view_cmd(v, kv.cmd_first + j), w);
      tsl_disasm(w, line, sizeof line);
      fprintf(out, "    %04u: %s\n", j, line);
    }
  }
}

static void print_fallbacks(FILE *out, const tpkg_view *v) {
  fprintf(out, "fallback ops: %u\n", v->n_fallbacks);
  uint32_t pos = 0;
  for (uint32_t i = 0; i < v->n_fallbacks; i++) {
    tpkg_fallback f;
    tpkg_view_fallback_at(v, &pos, &f);
    fprintf(out, "  fallback %u %s '%s' before kernel %u (%u bytes)", i, tpkg_op_name(f.op), f.name, f.before_kernel,
            f.bytes);
    if (f.ahead || f.behind) /* the kernel records the NPU may run meanwhile */
      fprintf(out, ", beside kernels %u..%u", f.before_kernel - f.behind, f.before_kernel + f.ahead - 1);
    fprintf(out, "\n");
    for (uint32_t k = 0; k < f.n_in + f.n_out; k++) {
      tpkg_operand o;
      tpkg_fallback_operand(&f, k, &o);
      fprintf(out, "    %s %s ", k < f.n_in ? "in " : "out", tpkg_dtype_name(o.dtype));
      print_shape(out, o.rank, o.dims);
      fprintf(out, " %s", tpkg_layout_name(o.layout));
      if (o.block) fprintf(out, " block %u", o.block);
      if (o.scale != 0.0f) fprintf(out, " scale %g zp %d", (double)o.scale, o.zp);
      fprintf(out, " at 0x%08X (%u bytes)\n", o.offset, o.size);
    }
    if (f.n_ints) {
      fprintf(out, "    ints");
      for (uint32_t k = 0; k < f.n_ints; k++) fprintf(out, " %d", tpkg_fallback_int(&f, k));
      fputc('\n', out);
    }
    if (f.n_floats) {
      fprintf(out, "    floats");
      for (uint32_t k = 0; k < f.n_floats; k++) fprintf(out, " %g", (double)tpkg_fallback_float(&f, k));
      fputc('\n', out);
    }
  }
}

/* Where the ONNX nodes run: the kernels' nodes on the NPU, the fallback
 * records' (Relayout records move data for another node) on the core. */
static void print_placement(FILE *out, const tpkg_view *v) {
  uint32_t nodes = 0, core = 0, relayout = 0, pos = 0, kernels = 0;
  uint64_t macs = 0;
  for (uint32_t k = 0; k < v->n_kernels; k++) {
    tpkg_kernel_view kv, prev;
    tpkg_view_kernel(v, k, &kv);
    if (k) tpkg_view_kernel(v, k - 1, &prev);
    if (k && prev.mark_id == kv.mark_id) continue; /* a later segment of the same kernel */
    kernels++;
    nodes += kv.node_count;
    macs += kv.useful_macs;
  }
  for (uint32_t i = 0; i < v->n_fallbacks; i++) {
    tpkg_fallback f;
    tpkg_view_fallback_at(v, &pos, &f);
    if (f.op == TPKG_OP_RELAYOUT) relayout++;
    else core++;
  }
  fprintf(out, "placement: %u kernels on the NPU (%u ONNX nodes, %llu MACs), %u ops on the control core (and %u "
               "relayouts)\n", kernels, nodes, (unsigned long long)macs, core, relayout);
}

void tpkg_print(FILE *out, const uint8_t *pkg, size_t len) {
  tpkg_view v;
  if (tpkg_check(pkg, len, 0, TPKG_CHECK_ANY_TARGET, &v, NULL) != TPKG_OK) {
    fprintf(out, "(invalid package)\n");
    return;
  }
  fprintf(out, "tpkg version %u, %u bytes, target '%s' hash 0x%08X, ISA version %u, header crc 0x%08X\n", v.version,
          v.total_bytes, v.target_name, v.target_hash, v.isa_version, tpkg_rd32(pkg + TPKG_H_CRC));
  fprintf(out, "sections:\n");
  for (unsigned s = 1; s <= TPKG_NSECT; s++)
    fprintf(out, "  %-8s offset %8u size %8u crc 0x%08X\n", sect_names[s], v.sect_offset[s], v.sect_size[s], v.sect_crc[s]);
  print_window(out, &v.window);
  print_io(out, &v);
  print_placement(out, &v);
  print_kernels(out, &v);
  print_fallbacks(out, &v);
}

static const char *const usage_inspect =
    "usage: tessel inspect PKG.tpkg\n"
    "  validates a model package (any target; every CRC, offset and command) and\n"
    "  prints its header, sections, DRAM window, I/O, kernels with disassembled\n"
    "  streams and fallback records; a bad package is an error (exit 1)\n";

static const cli_opt inspect_options[] = {{0}};

int tpkg_inspect_main(int argc, char **argv) {
  const char *path = NULL;
  cli_opts p;
  cli_opts_init(&p, "inspect", inspect_options, argc, argv, 1);
  for (int id; (id = cli_opts_next(&p)) != CLI_OPTS_END;) {
    if (id == CLI_OPTS_HELP) {
      fputs(usage_inspect, stdout);
      return CLI_OK;
    }
    if (id == CLI_OPTS_ERROR) return cli_opts_fail(&p, usage_inspect);
    if (path) {
      fprintf(stderr, "tessel inspect: unexpected argument '%s'\n%s", p.value, usage_inspect);
      return CLI_USAGE;
    }
    path = p.value;
  }
  if (!path) {
    fprintf(stderr, "tessel inspect: no package given\n%s", usage_inspect);
    return CLI_USAGE;
  }
  diag d = {{0}};
  uint8_t *b;
  size_t n;
  if (tpkg_read_file(path, &b, &n, &d)) {
    fprintf(stderr, "tessel inspect: %s\n", d.msg);
    return CLI_BAD_INPUT;
  }
  tpkg_error e;
  if (tpkg_check(b, n, 0, TPKG_CHECK_ANY_TARGET, NULL, &e) != TPKG_OK) {
    tpkg_diag(&d, &e);
    fprintf(stderr, "tessel inspect: %s: %s\n", path, d.msg);
    free(b);
    return CLI_BAD_INPUT;
  }
  tpkg_print(stdout, b, n);
  free(b);
  return CLI_OK;
}
