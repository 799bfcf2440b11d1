/* onnx_depth: how deep a model's messages nest, found without recursion
 * before protobuf-c decodes them (see onnx_internal.h).
 *
 * protobuf-c decodes nested messages recursively, several hundred bytes of
 * stack per level, with no limit: graph attributes of If/Loop nodes nested
 * 3,000 deep (a 73 KB file) overflowed the 8 MB stack. This walks the wire
 * format with an explicit stack, following only the fields through which
 * ONNX's messages can nest (graphs in attributes, types in types), and
 * skips everything else. Malformed bytes end the walk quietly: protobuf-c
 * then rejects them with the usual message. */
#include <stddef.h>
#include <stdint.h>

#include "onnx_internal.h"

/* The messages on a nesting path. */
enum { M_NONE, M_MODEL, M_GRAPH, M_NODE, M_ATTR, M_VALUE, M_TYPE, M_TYPE_ONE, M_TYPE_MAP, M_TRAIN, M_FUNC };

/* The message type field f of a message of type m holds, or M_NONE
 * (onnx.proto's field numbers). */
static int child(int m, uint64_t f) {
  switch (m) {
  case M_MODEL: return f == 7 ? M_GRAPH : f == 20 ? M_TRAIN : f == 25 ? M_FUNC : M_NONE;
  case M_TRAIN: return f == 1 || f == 2 ? M_GRAPH : M_NONE;
  case M_FUNC: return f == 7 ? M_NODE : f == 11 ? M_ATTR : M_NONE;
  case M_GRAPH: return f == 1 ? M_NODE : f == 11 || f == 12 || f == 13 ? M_VALUE : M_NONE;
  case M_NODE: return f == 5 ? M_ATTR : M_NONE;
  case M_ATTR: return f == 6 || f == 11 ? M_GRAPH : f == 14 || f == 15 ? M_TYPE : M_NONE;
  case M_VALUE: return f == 2 ? M_TYPE : M_NONE;
  case M_TYPE: return f == 4 || f == 9 ? M_TYPE_ONE : f == 5 ? M_TYPE_MAP : M_NONE;
  case M_TYPE_ONE: return f == 1 ? M_TYPE : M_NONE; /* Sequence, Optional: elem_type */
  case M_TYPE_MAP: return f == 2 ? M_TYPE : M_NONE; /* value_type */
  default: return M_NONE;
  }
}

/* A varint at *p (before end) into *v; 0 when cut short or too long. */
static int varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  *v = 0;
  for (int shift = 0; shift < 64 && *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return 1;
  }
  return 0;
}

int onnx_nesting_depth(const uint8_t *buf, size_t len, int limit) {
  struct { int type; const uint8_t *end; } st[ONNX_MAX_NESTING + 1];
  if (limit > ONNX_MAX_NESTING) limit = ONNX_MAX_NESTING;
  int top = 0, deepest = 0;
  st[0].type = M_MODEL, st[0].end = buf + len;
  const uint8_t *p = buf;
  for (;;) {
    while (top > 0 && p >= st[top].end) top--;
    if (p >= st[top].end) return deepest;
    uint64_t key, v;
    if (!varint(&p, st[top].end, &key)) return deepest;
    switch (key & 7) {
    case 0: if (!varint(&p, st[top].end, &v)) return deepest; break;
    case 1: if (st[top].end - p < 8) return deepest; p += 8; break;
    case 5: if (st[top].end - p < 4) return deepest; p += 4; break;
    case 2: {
      if (!varint(&p, st[top].end, &v) || v > (uint64_t)(st[top].end - p)) return deepest;
      int c = child(st[top].type, key >> 3);
      if (c == M_NONE) {
        p += v;
        break;
      }
      if (top == limit) return limit + 1;
      top++;
      st[top].type = c, st[top].end = p + v;
      if (top > deepest) deepest = top;
      break;
    }
    default: return deepest; /* groups and bad wire types: protobuf-c refuses them */
    }
  }
}
