/* minimal.c: the smallest complete firmware that runs a linked model
 * package; docs/runtime-firmware.md shows it as "A complete minimal
 * example", and suite fw-app builds and runs it so the text stays true.
 * Linked with linker/sim-pkg.ld and a package from `tessel compile --emit-c`
 * (here the digits CNN: float32 [1,1,8,8] in, float32 [1,10] out). */
#include <stdio.h>
#include <string.h>

#include "tessel_rt.h"

/* The package (the file --emit-c wrote) and the window area (sim-pkg.ld). */
extern const uint8_t tessel_pkg[];
extern const uint32_t tessel_pkg_size;
extern uint8_t __tessel_window_start[], __tessel_window_end[];

/* An 8x8 "1", pixels in 0..1 as the model was trained. */
static const float image[64] = {
    0, 0, 0, 1, 1, 0, 0, 0, /**/ 0, 0, 1, 1, 1, 0, 0, 0, /**/ 0, 0, 0, 1, 1, 0, 0, 0, /**/
    0, 0, 0, 1, 1, 0, 0, 0, /**/ 0, 0, 0, 1, 1, 0, 0, 0, /**/ 0, 0, 0, 1, 1, 0, 0, 0, /**/
    0, 0, 0, 1, 1, 0, 0, 0, /**/ 0, 0, 1, 1, 1, 1, 0, 0,
};

int main(void) {
  static tfw_model m; /* the runtime allocates nothing: the caller owns the model */
  tfw_error e;
  char msg[160];

  /* Validate the package, copy its weights into the window, load the streams. */
  if (tfw_load(&m, tfw_npu_backend(), tessel_pkg, tessel_pkg_size, __tessel_window_start,
               (uint32_t)(__tessel_window_end - __tessel_window_start), 0, &e) != TFW_OK) {
    printf("load failed: %s\n", tfw_format_error(&e, msg, sizeof msg));
    return 1;
  }

  /* Check the I/O is what this code writes and reads. */
  tpkg_io in, out;
  if (!tfw_input(&m, 0, &in) || !tfw_output(&m, 0, &out) || in.dtype != TPKG_DT_F32 ||
      in.layout != TPKG_LAYOUT_PLAIN || in.size != sizeof image || out.dtype != TPKG_DT_F32) {
    printf("the package's I/O is not float32 [1,1,8,8] -> float32 [N]\n");
    return 2;
  }

  /* Input into the window, run, read the output from the window. */
  memcpy(tfw_io_data(&m, &in), image, sizeof image);
  if (tfw_run(&m, &e) != TFW_OK) {
    printf("run failed: %s\n", tfw_format_error(&e, msg, sizeof msg));
    return 3;
  }
  const float *p = tfw_io_data(&m, &out);
  uint32_t best = 0;
  for (uint32_t k = 1; k < out.size / sizeof(float); k++)
    if (p[k] > p[best]) best = k;
  printf("class %lu, probability %d/1000\n", (unsigned long)best, (int)(p[best] * 1000.0f + 0.5f));
  return 0;
}
