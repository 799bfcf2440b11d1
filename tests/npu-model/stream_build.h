/* stream_build.h: hand-writing command streams in tests. SB_ADD encodes one
 * command with designated initialisers and fails the test if a field does
 * not fit:  SB_ADD(sb, load, .mem = TSL_MEM_SPAD, .n0 = 8, ...); */
#ifndef STREAM_BUILD_H
#define STREAM_BUILD_H

#include <stdint.h>

#include "tessel_isa.h"

enum { SB_MAX = 4096 };

typedef struct {
  uint8_t buf[16 * SB_MAX]; /* the stream, 16 bytes per command */
  uint32_t n;               /* commands */
  int bad;                  /* an encode failed or the buffer overflowed */
} sb_t;

#define SB_ADD(sb, kind, ...)                                                   \
  do {                                                                          \
    tsl_##kind##_t c_ = {__VA_ARGS__};                                          \
    uint32_t w_[4];                                                             \
    if (tsl_##kind##_encode(&c_, w_) != 0 || (sb)->n >= SB_MAX) (sb)->bad = 1;  \
    else tsl_cmd_to_bytes(w_, (sb)->buf + 16u * (sb)->n++);                     \
  } while (0)

/* Appends raw words (for invalid commands). */
static inline void sb_raw(sb_t *sb, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3) {
  uint32_t w[4] = {w0, w1, w2, w3};
  if (sb->n >= SB_MAX) {
    sb->bad = 1;
    return;
  }
  tsl_cmd_to_bytes(w, sb->buf + 16u * sb->n++);
}

#endif
