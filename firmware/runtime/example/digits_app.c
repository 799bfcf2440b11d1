/* digits_app.c: an example firmware that links a model package into its own
 * image and runs it with the runtime library (docs/runtime-firmware.md).
 *
 * The package is the digits CNN compiled with `tessel compile --emit-c`: a C
 * array `tessel_pkg` in section .tessel_pkg, which linker/sim-pkg.ld places
 * at the start of DRAM, followed by the .tessel_window area for the NPU's
 * DRAM window. The images, their labels and the int8 reference's outputs
 * come from digits_images.h (generated at build time by digits-data).
 *
 * For each image: copy it into the model's input, tfw_run, take the argmax
 * of the output; print predicted class, label, reference class and the core
 * cycles of the inference; after the first, the per-kernel NPU cycles and
 * per-fallback-op core cycles. Exit status: 0 when every prediction equals
 * the int8 reference's, 1 when one does not, 2 for an unexpected model
 * (wrong I/O), 10 + -TFW_E_* when the runtime reports an error. */
#include <stdio.h>
#include <string.h>

#include "digits_images.h"
#include "tessel_fw.h"
#include "tessel_rt.h"
#include "tessel_target.h"

/* From the file `tessel compile --emit-c` wrote. */
extern const uint8_t tessel_pkg[];
extern const uint32_t tessel_pkg_size;

/* From linker/sim-pkg.ld. */
extern uint8_t __tessel_window_start[], __tessel_window_end[];

/* Extra tfw_load flags: bench-fw-app builds a copy with
 * -DDIGITS_LOAD_FLAGS=TFW_LOAD_LAZY_WEIGHTS to show what the weights CRC costs. */
#ifndef DIGITS_LOAD_FLAGS
#define DIGITS_LOAD_FLAGS 0u
#endif

#define EXIT_MISMATCH 1
#define EXIT_BAD_MODEL 2
#define EXIT_RUNTIME 10 /* + -TFW_E_* */

/* Static pools: the runtime allocates nothing, so the firmware keeps the
 * model and its statistics. Sized for this package; checked after load. */
#define MAX_KERNELS 16
#define MAX_FALLBACKS 16
static tfw_model model;
static tfw_kernel_stats kstats[MAX_KERNELS];
static uint64_t fb_cycles[MAX_FALLBACKS];

static int report(const tfw_error *e) {
  char buf[160];
  printf("digits-app: %s\n", tfw_format_error(e, buf, sizeof buf));
  return EXIT_RUNTIME - e->code;
}

/* Where the window goes. The weights can stay in place (no copy, no second
 * copy of them in RAM) only when nothing of the window lies before them:
 * window bytes below the weights would cover the package's own tables
 * (kernels, I/O, fallback records), which the runtime reads on every run.
 * So: in place when the package puts the weights at window offset 0 and the
 * rest of the window fits before __tessel_window_end; else the window is the
 * .tessel_window area and tfw_load copies the weights into it. */
static uint8_t *place_window(const uint8_t *pkg, uint32_t len, uint32_t *bytes, int *in_place, tfw_error *e) {
  tpkg_view v;
  tpkg_error pe = {0};
  /* A lazy check for the layout only; tfw_load validates again, in full. */
  tpkg_err_code pc = tpkg_check(pkg, len, TSL_TARGET_HASH, TPKG_CHECK_LAZY_WEIGHTS, &v, &pe);
  if (pc != TPKG_OK) {
    *e = (tfw_error){TFW_E_PACKAGE, (int)pc, -1, pe.index, pe.value, pe.msg};
    return NULL;
  }
  uint8_t *in_place_base = (uint8_t *)pkg + v.sect_offset[TPKG_SECT_WEIGHTS];
  *in_place = v.window.weights_offset == 0 && (uintptr_t)in_place_base % 8 == 0 &&
              (uintptr_t)in_place_base + v.window.window_bytes <= (uintptr_t)__tessel_window_end;
  if (*in_place) {
    *bytes = (uint32_t)(__tessel_window_end - in_place_base);
    return in_place_base;
  }
  *bytes = (uint32_t)(__tessel_window_end - __tessel_window_start);
  return __tessel_window_start;
}

/* The input must be float32 [1,1,8,8] and the output float32 [1,10], both
 * plain (row-major) layout: what the digits model's graph says. */
static int io_is(const tpkg_io *io, uint32_t size) {
  return io && io->dtype == TPKG_DT_F32 && io->layout == TPKG_LAYOUT_PLAIN && io->size == size;
}

static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static void print_stats(tfw_model *m) {
  tpkg_kernel_view kv;
  tfw_run_stats(m); /* the counters from the NPU's records of the run */
  tpkg_fallback f;
  printf("per kernel (NPU counters of the last run):\n");
  printf("  %-3s %-32s %10s %8s %10s\n", "#", "kernel", "npu cycles", "MACs", "DRAM rd B");
  for (uint32_t k = 0; k < m->pkg.n_kernels; k++) {
    tpkg_view_kernel(&m->pkg, k, &kv);
    const uint64_t *c = kstats[k].counters;
    printf("  %-3lu %-32.32s %10lu %8lu %10lu\n", (unsigned long)k, kv.name, (unsigned long)c[TSL_CNT_CYCLES],
           (unsigned long)c[TSL_CNT_MACS], (unsigned long)c[TSL_CNT_DRAM_RD_BYTES]);
  }
  printf("per fallback op (core cycles of the last run):\n");
  for (uint32_t i = 0; i < m->pkg.n_fallbacks; i++) {
    tpkg_view_fallback(&m->pkg, i, &f);
    printf("  %-3lu %-12s %-19.19s %10lu\n", (unsigned long)i, tpkg_op_name(f.op), f.name,
           (unsigned long)fb_cycles[i]);
  }
}

int main(void) {
  tfw_error e = {.code = TFW_OK, .kernel = -1, .index = -1};
  uint32_t window_bytes;
  int in_place;

  /* 1. Load: validate, place the weights, give the NPU its window, put the
   *    command streams in command SRAM. */
  uint64_t t0 = timer_now();
  uint8_t *window = place_window(tessel_pkg, tessel_pkg_size, &window_bytes, &in_place, &e);
  if (!window) return report(&e);
  uint64_t t1 = timer_now();
  if (tfw_load(&model, tfw_npu_backend(), tessel_pkg, tessel_pkg_size, window, window_bytes,
               (in_place ? TFW_LOAD_WEIGHTS_PLACED : 0u) | DIGITS_LOAD_FLAGS, &e) != TFW_OK)
    return report(&e);
  uint64_t t2 = timer_now();
  printf("digits-app: package %lu bytes at 0x%08lx for %s; window %lu bytes at 0x%08lx (weights %s%s)\n",
         (unsigned long)tessel_pkg_size, (unsigned long)(uintptr_t)tessel_pkg, model.pkg.target_name,
         (unsigned long)model.window_bytes, (unsigned long)(uintptr_t)window, in_place ? "in place" : "copied",
         (DIGITS_LOAD_FLAGS & TFW_LOAD_LAZY_WEIGHTS) ? ", CRC not checked" : "");
  printf("digits-app: layout check %lu cycles, tfw_load %lu cycles\n", (unsigned long)(t1 - t0),
         (unsigned long)(t2 - t1));

  /* 2. Check the model is the one this firmware was written for. */
  tpkg_io in_io, out_io;
  const tpkg_io *in = tfw_input(&model, 0, &in_io), *out = tfw_output(&model, 0, &out_io);
  if (tfw_num_inputs(&model) != 1 || tfw_num_outputs(&model) != 1 || !io_is(in, 64 * 4) || !io_is(out, 10 * 4)) {
    printf("digits-app: the package is not the digits model (one float32 [1,1,8,8] input, one float32 [1,10] "
           "output expected)\n");
    return EXIT_BAD_MODEL;
  }
  if (model.pkg.n_kernels > MAX_KERNELS || model.pkg.n_fallbacks > MAX_FALLBACKS) {
    printf("digits-app: %lu kernels / %lu fallback ops: more than the statistics arrays hold\n",
           (unsigned long)model.pkg.n_kernels, (unsigned long)model.pkg.n_fallbacks);
    return EXIT_BAD_MODEL;
  }
  tfw_set_stats(&model, kstats, fb_cycles);
  float *x = tfw_io_data(&model, in);
  const float *y = tfw_io_data(&model, out);

  /* 3. Run every image. */
  int agree = 0, exact = 0, correct = 0;
  uint64_t total = 0;
  for (int i = 0; i < DIGITS_COUNT; i++) {
    memcpy(x, digits_images[i], sizeof digits_images[i]);
    uint64_t start = timer_now();
    if (tfw_run(&model, &e) != TFW_OK) return report(&e);
    uint64_t cycles = timer_now() - start;
    total += cycles;
    int best = 0, same_bits = 1;
    for (int k = 0; k < 10; k++) {
      if (y[k] > y[best]) best = k;
      same_bits &= f32_bits(y[k]) == digits_ref_bits[i][k];
    }
    agree += best == digits_ref_class[i];
    exact += same_bits;
    correct += best == digits_labels[i];
    printf("image %2d: predicted %d label %d reference %d cycles %lu%s\n", i, best, digits_labels[i],
           digits_ref_class[i], (unsigned long)cycles, best == digits_ref_class[i] ? "" : "  MISMATCH");
    if (i == 0) print_stats(&model);
  }

  /* 4. Summary. */
  printf("digits-app: %d/%d predictions equal the int8 reference, %d/%d outputs bit-exact, %d/%d equal the "
         "label; %lu cycles per inference on average\n",
         agree, DIGITS_COUNT, exact, DIGITS_COUNT, correct, DIGITS_COUNT, (unsigned long)(total / DIGITS_COUNT));
  return agree == DIGITS_COUNT ? 0 : EXIT_MISMATCH;
}
