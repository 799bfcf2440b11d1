// cpi.c: CPU-bound integer code for the core's CPI figure (make bench-core-cpi):
// a bitwise CRC-32, an insertion sort and an 8x8 matrix multiply, repeated.
// It checks its own results, so it is also a test program (EXIT 0 = right).
// Cycles are counted between the two writes to the bench's MARK register.
#include <stdint.h>

#define MARK (*(volatile uint32_t *)0x20000010u)
// the final check value, from the same code compiled for the host
#define CPI_EXPECTED 0x166bbf5fu

enum { kBytes = 256, kSortN = 48, kDim = 8, kRounds = 4 };

static uint8_t buf[kBytes];
static int32_t keys[kSortN];
static int32_t ma[kDim][kDim], mb[kDim][kDim], mc[kDim][kDim];

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s;
}

static uint32_t crc32(const uint8_t *p, int n) {
  uint32_t c = 0xffffffffu;
  for (int i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return ~c;
}

static void insertion_sort(int32_t *a, int n) {
  for (int i = 1; i < n; i++) {
    int32_t v = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

static void matmul(void) {
  for (int i = 0; i < kDim; i++)
    for (int j = 0; j < kDim; j++) {
      int32_t s = 0;
      for (int k = 0; k < kDim; k++) s += ma[i][k] * mb[k][j];
      mc[i][j] = s;
    }
}

int main(void) {
  uint32_t seed = 1, check = 0;
  MARK = 1;
  for (int r = 0; r < kRounds; r++) {
    for (int i = 0; i < kBytes; i++) buf[i] = (uint8_t)(lcg(&seed) >> 24);
    check ^= crc32(buf, kBytes);
    for (int i = 0; i < kSortN; i++) keys[i] = (int32_t)lcg(&seed) >> 8;
    insertion_sort(keys, kSortN);
    for (int i = 1; i < kSortN; i++)
      if (keys[i - 1] > keys[i]) return 1;
    check = check * 31u + (uint32_t)keys[kSortN / 2];
    for (int i = 0; i < kDim; i++)
      for (int j = 0; j < kDim; j++) {
        ma[i][j] = (int32_t)(lcg(&seed) >> 20) - 2048;
        mb[i][j] = (int32_t)(lcg(&seed) >> 20) - 2048;
      }
    matmul();
    for (int i = 0; i < kDim; i++) check = check * 31u + (uint32_t)mc[i][(i * 3) % kDim];
    check += (uint32_t)(mc[1][2] / 7) + (uint32_t)(mc[3][4] % 13);  // div and rem too
  }
  MARK = 2;
#ifdef CPI_HOST
  return (int)(check & 0x7fffffff);
#else
  return check == CPI_EXPECTED ? 0 : 2;
#endif
}
