/* npu_seq_mem.c: memcpy and memset a word at a time, for the firmware of the
 * core-sequenced NPU (docs/npu-seq.md), which links them ahead of picolibc's.
 *
 * Debian's picolibc for rv32im moves a byte per loop turn (6 instructions a
 * byte). The C model copies every queued command (npu_qcmd_t, with its
 * configuration snapshot: some 450 bytes at npu2) and clears its state with
 * struct assignments and memsets; on the core those two functions were 44%
 * of the digits model's instructions. These move a word per turn when the
 * pointers share their alignment (the structs always do), bytes otherwise.
 * Built without LTO and with -fno-builtin (NPU_SEQ_MEM_CFLAGS), so that GCC
 * does not turn their loops back into calls to themselves. */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
  uint8_t *d = dst;
  const uint8_t *s = src;
  if ((((uintptr_t)d ^ (uintptr_t)s) & 3u) == 0) {
    for (; n && ((uintptr_t)d & 3u); n--) *d++ = *s++;
    uint32_t *dw = (uint32_t *)d;
    const uint32_t *sw = (const uint32_t *)s;
    for (; n >= 16; n -= 16, dw += 4, sw += 4) {
      uint32_t a = sw[0], b = sw[1], c = sw[2], e = sw[3];
      dw[0] = a, dw[1] = b, dw[2] = c, dw[3] = e;
    }
    for (; n >= 4; n -= 4) *dw++ = *sw++;
    d = (uint8_t *)dw;
    s = (const uint8_t *)sw;
  }
  while (n--) *d++ = *s++;
  return dst;
}

void *memset(void *dst, int c, size_t n) {
  uint8_t *d = dst;
  for (; n && ((uintptr_t)d & 3u); n--) *d++ = (uint8_t)c;
  uint32_t w = (uint8_t)c * 0x01010101u, *dw = (uint32_t *)d;
  for (; n >= 16; n -= 16, dw += 4) dw[0] = w, dw[1] = w, dw[2] = w, dw[3] = w;
  for (; n >= 4; n -= 4) *dw++ = w;
  for (d = (uint8_t *)dw; n; n--) *d++ = (uint8_t)c;
  return dst;
}
