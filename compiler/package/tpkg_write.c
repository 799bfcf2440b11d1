/* tpkg_write: serialises a tpkg_package (tpkg.h) into the .tpkg format.
 *
 * Two passes: first every section's size is computed (in 64 bits, so a
 * package over 4 GiB is an error rather than a wrap), then one zeroed buffer
 * is filled section by section, the CRCs are computed last (sections first,
 * then the header that holds their CRCs). The result is validated with
 * tpkg_check before it is returned. */
#include "tpkg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "in_file.h"
#include "out_file.h"
#include "tessel_isa.h"

static uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

static size_t str_len(const char *s) { return s ? strlen(s) : 0; }

/* Appends s (or "") with its NUL at *pos of the strings section; returns its offset. */
static uint32_t put_str(uint8_t *sec, uint32_t *pos, const char *s) {
  uint32_t at = *pos;
  size_t n = str_len(s);
  if (n) memcpy(sec + at, s, n);
  sec[at + n] = 0;
  *pos = at + (uint32_t)n + 1;
  return at;
}

static void put_dims(uint8_t *p, const uint32_t *dims) {
  for (unsigned i = 0; i < TPKG_MAX_RANK; i++) tpkg_wr32(p + 4 * i, dims[i]);
}

static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

int tpkg_write(const tpkg_package *p, uint8_t **out, size_t *len, diag *d) {
  *out = NULL;
  *len = 0;
  /* 1. Sizes. */
  if (str_len(p->target_name) >= TPKG_NAME_BYTES)
    return diag_set(d, "package: target name '%s' is longer than %u bytes", p->target_name, TPKG_NAME_BYTES - 1);
  if (p->window.weights_bytes != p->n_weights)
    return diag_set(d, "package: window.weights_bytes %u differs from the %u bytes of weights",
                    p->window.weights_bytes, p->n_weights);
  uint64_t strings = 1, nodes = 0, cmds = 0;
  for (uint32_t i = 0; i < p->n_kernels; i++) {
    const tpkg_kernel *k = &p->kernels[i];
    strings += str_len(k->name) + 1;
    for (uint32_t j = 0; j < k->n_onnx_nodes; j++) strings += str_len(k->onnx_nodes[j]) + 1;
    nodes += k->n_onnx_nodes;
    cmds += k->n_cmds;
  }
  for (uint32_t i = 0; i < p->n_io; i++) strings += str_len(p->io[i].name) + 1;
  uint64_t fb_bytes = 0;
  for (uint32_t i = 0; i < p->n_fallbacks; i++) {
    const tpkg_fb_record *f = &p->fallbacks[i];
    strings += str_len(f->name) + 1;
    if (f->n_in + f->n_out > TPKG_FB_MAX_OPERANDS || f->n_ints > TPKG_FB_MAX_INTS || f->n_floats > TPKG_FB_MAX_FLOATS)
      return diag_set(d, "package: fallback '%s' has %u operands, %u ints and %u floats (at most %u, %u, %u)",
                      f->name ? f->name : "", f->n_in + f->n_out, f->n_ints, f->n_floats, TPKG_FB_MAX_OPERANDS,
                      TPKG_FB_MAX_INTS, TPKG_FB_MAX_FLOATS);
    fb_bytes += tpkg_fallback_bytes(f->n_in + f->n_out, f->n_ints, f->n_floats);
  }

  uint64_t size[TPKG_NSECT + 1] = {0}, off[TPKG_NSECT + 1] = {0};
  size[TPKG_SECT_STRINGS] = strings;
  size[TPKG_SECT_NODES] = nodes * 4;
  size[TPKG_SECT_KERNELS] = (uint64_t)p->n_kernels * TPKG_KERNEL_BYTES;
  size[TPKG_SECT_STREAMS] = cmds * 16;
  size[TPKG_SECT_IO] = (uint64_t)p->n_io * TPKG_IO_BYTES;
  size[TPKG_SECT_FALLBACK] = fb_bytes;
  size[TPKG_SECT_WINDOW] = TPKG_WINDOW_BYTES;
  size[TPKG_SECT_WEIGHTS] = p->n_weights;
  uint64_t pos = TPKG_HEADER_BYTES;
  for (unsigned s = 1; s <= TPKG_NSECT; s++) {
    pos = align_up(pos, s == TPKG_SECT_WEIGHTS ? TPKG_WEIGHTS_ALIGN : TPKG_ALIGN);
    off[s] = pos;
    pos += size[s];
  }
  uint64_t total = align_up(pos, TPKG_ALIGN);
  if (total > 0xFFFFFFFFu) return diag_set(d, "package: %llu bytes exceed the format's 4 GiB", (unsigned long long)total);

  uint8_t *b = calloc(1, (size_t)total);
  if (!b) return diag_set(d, "package: out of memory for %llu bytes", (unsigned long long)total);

  /* 2. Sections. */
  uint8_t *str = b + off[TPKG_SECT_STRINGS];
  uint32_t spos = 1; /* offset 0 is the empty string */
  uint32_t node_i = 0, cmd_i = 0;
  for (uint32_t i = 0; i < p->n_kernels; i++) {
    const tpkg_kernel *k = &p->kernels[i];
    uint8_t *r = b + off[TPKG_SECT_KERNELS] + (uint64_t)i * TPKG_KERNEL_BYTES;
    tpkg_wr32(r + TPKG_K_NAME, put_str(str, &spos, k->name));
    tpkg_wr32(r + TPKG_K_NODE_FIRST, node_i);
    tpkg_wr32(r + TPKG_K_NODE_COUNT, k->n_onnx_nodes);
    for (uint32_t j = 0; j < k->n_onnx_nodes; j++, node_i++)
      tpkg_wr32(b + off[TPKG_SECT_NODES] + 4ull * node_i, put_str(str, &spos, k->onnx_nodes[j]));
    tpkg_wr32(r + TPKG_K_CMD_FIRST, cmd_i);
    tpkg_wr32(r + TPKG_K_CMD_COUNT, k->n_cmds);
    for (uint32_t j = 0; j < k->n_cmds; j++, cmd_i++)
      for (unsigned w = 0; w < 4; w++) tpkg_wr32(b + off[TPKG_SECT_STREAMS] + 16ull * cmd_i + 4 * w, k->cmds[j][w]);
    tpkg_wr32(r + TPKG_K_MARK_ID, k->mark_id);
    tpkg_wr64(r + TPKG_K_EST_CYCLES, k->estimate_cycles);
    tpkg_wr64(r + TPKG_K_USEFUL_MACS, k->useful_macs);
    tpkg_wr64(r + TPKG_K_COMPULSORY, k->compulsory_dram_bytes);
  }
  for (uint32_t i = 0; i < p->n_io; i++) {
    const tpkg_io *io = &p->io[i];
    uint8_t *r = b + off[TPKG_SECT_IO] + (uint64_t)i * TPKG_IO_BYTES;
    tpkg_wr32(r + TPKG_IO_NAME, put_str(str, &spos, io->name));
    r[TPKG_IO_DIR] = io->dir;
    r[TPKG_IO_DTYPE] = io->dtype;
    r[TPKG_IO_LAYOUT] = io->layout;
    r[TPKG_IO_RANK] = io->rank;
    put_dims(r + TPKG_IO_DIMS, io->dims);
    tpkg_wr32(r + TPKG_IO_SCALE, f32_bits(io->scale));
    tpkg_wr32(r + TPKG_IO_ZP, (uint32_t)io->zero_point);
    tpkg_wr32(r + TPKG_IO_OFFSET, io->offset);
    tpkg_wr32(r + TPKG_IO_SIZE, io->size);
    tpkg_wr32(r + TPKG_IO_BLOCK, io->block);
  }
  uint8_t *fr = b + off[TPKG_SECT_FALLBACK];
  for (uint32_t i = 0; i < p->n_fallbacks; i++) {
    const tpkg_fb_record *f = &p->fallbacks[i];
    uint32_t n_ops = f->n_in + f->n_out, bytes = tpkg_fallback_bytes(n_ops, f->n_ints, f->n_floats);
    tpkg_wr32(fr + TPKG_FB_OP, f->op);
    tpkg_wr32(fr + TPKG_FB_NAME, put_str(str, &spos, f->name));
    tpkg_wr32(fr + TPKG_FB_BEFORE, f->before_kernel);
    tpkg_wr32(fr + TPKG_FB_BYTES, bytes);
    tpkg_wr16(fr + TPKG_FB_AHEAD, (uint16_t)f->ahead), tpkg_wr16(fr + TPKG_FB_BEHIND, (uint16_t)f->behind);
    fr[TPKG_FB_N_IN] = (uint8_t)f->n_in, fr[TPKG_FB_N_OUT] = (uint8_t)f->n_out;
    fr[TPKG_FB_N_INTS] = (uint8_t)f->n_ints, fr[TPKG_FB_N_FLOATS] = (uint8_t)f->n_floats;
    for (uint32_t k = 0; k < n_ops; k++) {
      const tpkg_operand *o = &f->operands[k];
      uint8_t *q = fr + TPKG_FB_HEADER_BYTES + k * TPKG_FB_OPERAND_BYTES;
      q[TPKG_FBO_DTYPE] = o->dtype, q[TPKG_FBO_LAYOUT] = o->layout, q[TPKG_FBO_RANK] = o->rank;
      tpkg_wr32(q + TPKG_FBO_OFFSET, o->offset);
      tpkg_wr32(q + TPKG_FBO_SIZE, o->size);
      for (unsigned j = 0; j < TPKG_FB_MAX_RANK; j++) tpkg_wr32(q + TPKG_FBO_DIMS + 4 * j, j < o->rank ? o->dims[j] : 0);
      tpkg_wr32(q + TPKG_FBO_SCALE, f32_bits(o->scale));
      tpkg_wr32(q + TPKG_FBO_ZP, (uint32_t)o->zp);
      tpkg_wr32(q + TPKG_FBO_BLOCK, o->block);
    }
    uint8_t *prm = fr + TPKG_FB_HEADER_BYTES + n_ops * TPKG_FB_OPERAND_BYTES;
    for (uint32_t k = 0; k < f->n_ints; k++) tpkg_wr32(prm + 4 * k, (uint32_t)f->ints[k]);
    for (uint32_t k = 0; k < f->n_floats; k++) tpkg_wr32(prm + 4 * (f->n_ints + k), f32_bits(f->floats[k]));
    fr += bytes;
  }
  {
    uint8_t *r = b + off[TPKG_SECT_WINDOW];
    const tpkg_window *w = &p->window;
    tpkg_wr32(r + TPKG_W_BYTES, w->window_bytes);
    tpkg_wr32(r + TPKG_W_WEIGHTS_OFFSET, w->weights_offset);
    tpkg_wr32(r + TPKG_W_WEIGHTS_BYTES, w->weights_bytes);
    tpkg_wr32(r + TPKG_W_IO_OFFSET, w->io_offset);
    tpkg_wr32(r + TPKG_W_IO_BYTES, w->io_bytes);
    tpkg_wr32(r + TPKG_W_SCRATCH_OFFSET, w->scratch_offset);
    tpkg_wr32(r + TPKG_W_SCRATCH_BYTES, w->scratch_bytes);
    tpkg_wr32(r + TPKG_W_MARKS_OFFSET, w->marks_offset);
    tpkg_wr32(r + TPKG_W_MARKS_BYTES, w->marks_bytes);
  }
  if (p->n_weights) memcpy(b + off[TPKG_SECT_WEIGHTS], p->weights, p->n_weights);

  /* 3. Header and table, CRCs last. */
  memcpy(b + TPKG_H_MAGIC, TPKG_MAGIC, 4);
  tpkg_wr16(b + TPKG_H_VERSION, TPKG_VERSION);
  tpkg_wr16(b + TPKG_H_HEADER_BYTES, TPKG_HEADER_BYTES);
  tpkg_wr32(b + TPKG_H_TOTAL, (uint32_t)total);
  tpkg_wr32(b + TPKG_H_TARGET_HASH, p->target_hash);
  if (p->target_name) memcpy(b + TPKG_H_TARGET_NAME, p->target_name, strlen(p->target_name));
  tpkg_wr32(b + TPKG_H_ISA_VERSION, TSL_ISA_VERSION);
  tpkg_wr32(b + TPKG_H_NSECT, TPKG_NSECT);
  for (unsigned s = 1; s <= TPKG_NSECT; s++) {
    uint8_t *e = b + TPKG_HEADER_FIXED + (s - 1) * TPKG_SECT_ENTRY;
    tpkg_wr32(e + 0, s);
    tpkg_wr32(e + 4, (uint32_t)off[s]);
    tpkg_wr32(e + 8, (uint32_t)size[s]);
    tpkg_wr32(e + 12, crc32(b + off[s], (size_t)size[s]));
  }
  tpkg_wr32(b + TPKG_H_CRC, crc32(b, TPKG_HEADER_BYTES));

  /* 4. The firmware's validator on our own output. */
  tpkg_view v;
  tpkg_error e;
  if (tpkg_check(b, (size_t)total, p->target_hash, 0, &v, &e) != TPKG_OK) {
    free(b);
    diag_set(d, "package: invalid: ");
    return tpkg_diag(d, &e);
  }
  *out = b;
  *len = (size_t)total;
  return 0;
}

int tpkg_diag(diag *d, const tpkg_error *e) {
  char val[32], tail[128];
  snprintf(val, sizeof val, e->value > 4096 ? "0x%llX" : "%llu", (unsigned long long)e->value);
  if (e->index >= 0) snprintf(tail, sizeof tail, " (item %lld, value %s)", (long long)e->index, val);
  else snprintf(tail, sizeof tail, " (value %s)", val);
  if (d && d->msg[0]) {
    /* Append to a prefix a caller already set. */
    size_t n = strlen(d->msg);
    snprintf(d->msg + n, sizeof d->msg - n, "%s: %s%s", tpkg_err_name(e->code), e->msg, tail);
    return -1;
  }
  return diag_set(d, "bad package: %s: %s%s", tpkg_err_name(e->code), e->msg, tail);
}

int tpkg_write_file(const tpkg_package *p, const char *path, diag *d) {
  uint8_t *b;
  size_t n;
  if (tpkg_write(p, &b, &n, d)) return -1;
  int rc = out_file_write(path, b, n, d);
  free(b);
  return rc;
}

int tpkg_read_file(const char *path, uint8_t **out, size_t *len, diag *d) {
  *out = NULL;
  *len = 0;
  FILE *f = in_file_open_max(path, 1ll << 30, "a package", d);
  if (!f) return -1;
  size_t cap = 1 << 16, n = 0;
  uint8_t *b = malloc(cap);
  while (b) {
    n += fread(b + n, 1, cap - n, f);
    if (n < cap) break;
    if (cap >= (1u << 30)) {
      free(b);
      fclose(f);
      return diag_set(d, "%s: larger than 1 GiB: not a package", path);
    }
    uint8_t *nb = realloc(b, cap * 2);
    if (!nb) free(b);
    b = nb;
    cap *= 2;
  }
  int err = !b || ferror(f);
  fclose(f);
  if (err) {
    free(b);
    return diag_set(d, "%s: read failed", path);
  }
  *out = b;
  *len = n;
  return 0;
}
