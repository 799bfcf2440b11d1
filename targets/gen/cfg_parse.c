/* cfg_parse.c: reads a target configuration (key = value lines, '#'
 * comments) and checks it against the params of the ISA description. */
#include "isa_desc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_file.h"

static void trim(char **s) {
  while (**s == ' ' || **s == '\t') (*s)++;
  char *e = *s + strlen(*s);
  while (e > *s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r')) *--e = 0;
}

/* A target name goes into generated C strings, SV comments and build paths
 * (build/gen/<name>/): letters, digits, '_' and '-', starting with a letter,
 * so none of them needs quoting. */
static int name_ok(const char *s) {
  if (!isalpha((unsigned char)*s)) return 0;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-') return 0;
  return 1;
}

static uint32_t fnv1a(uint32_t h, const char *s) {
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

int cfg_parse(const char *path, const Isa *isa, Target *t, char *err, int errlen) {
  memset(t, 0, sizeof *t);
  int seen[MAX_ITEMS] = {0};
  int have_name = 0, lineno = 0;
  const char *why;
  FILE *fp = host_file_open_in(path, &why); /* a FIFO blocked fopen */
  if (!fp) {
    snprintf(err, (size_t)errlen, "%s: cannot open: %s", path, why);
    return -1;
  }
  char line[256];
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, fp)) {
    lineno++;
    /* A line fgets had to split would have its tail read as a line of its
     * own (a long comment turning into a key): refuse it instead. */
    if (!strchr(line, '\n') && !feof(fp)) {
      snprintf(err, (size_t)errlen, "%s:%d: line longer than %d characters", path, lineno,
               (int)sizeof line - 2);
      rc = -1;
      break;
    }
    char *h = strchr(line, '#');
    if (h) *h = 0;
    char *s = line;
    trim(&s);
    if (!*s) continue;
    char *eq = strchr(s, '=');
    if (!eq) {
      snprintf(err, (size_t)errlen, "%s:%d: expected 'key = value'", path, lineno);
      rc = -1;
      break;
    }
    *eq = 0;
    char *key = s, *val = eq + 1;
    trim(&key);
    trim(&val);
    if (strcmp(key, "name") == 0) {
      if (have_name) {
        snprintf(err, (size_t)errlen, "%s:%d: name given twice", path, lineno);
        rc = -1;
      } else if (!*val || strlen(val) >= MAX_NAME || !name_ok(val)) {
        snprintf(err, (size_t)errlen,
                 "%s:%d: bad name '%s' (a letter, then up to %d letters, digits, '_' or '-')", path,
                 lineno, val, MAX_NAME - 2);
        rc = -1;
      }
      snprintf(t->name, sizeof t->name, "%s", val);
      have_name = 1;
      continue;
    }
    int i = isa_param_index(isa, key);
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 0);
    if (i < 0) {
      snprintf(err, (size_t)errlen, "%s:%d: unknown key '%s'", path, lineno, key);
      rc = -1;
    } else if (!*val || *end) {
      snprintf(err, (size_t)errlen, "%s:%d: '%s' is not a number", path, lineno, val);
      rc = -1;
    } else if (errno == ERANGE) {
      snprintf(err, (size_t)errlen, "%s:%d: %s = %s outside %lld..%lld", path, lineno, key, val,
               isa->params[i].a, isa->params[i].b);
      rc = -1;
    } else if (v < isa->params[i].a || v > isa->params[i].b) {
      snprintf(err, (size_t)errlen, "%s:%d: %s = %lld outside %lld..%lld", path, lineno, key, v,
               isa->params[i].a, isa->params[i].b);
      rc = -1;
    } else if (seen[i]) {
      snprintf(err, (size_t)errlen, "%s:%d: %s given twice", path, lineno, key);
      rc = -1;
    } else {
      seen[i] = 1;
      t->values[i] = v;
    }
  }
  /* fgets also stops on a read error (a directory given as CFG): say so
   * rather than report the keys the unread text would have held. */
  if (rc == 0 && ferror(fp)) {
    snprintf(err, (size_t)errlen, "%s: read error (not a readable file?)", path);
    rc = -1;
  }
  fclose(fp);
  if (rc) return rc;
  if (!have_name) {
    snprintf(err, (size_t)errlen, "%s: missing 'name'", path);
    return -1;
  }
  for (int i = 0; i < isa->nparams; i++)
    if (!seen[i] && isa->params[i].has_def) t->values[i] = isa->params[i].def;
    else if (!seen[i]) {
      snprintf(err, (size_t)errlen, "%s: missing '%s'", path, isa->params[i].name);
      return -1;
    }
  /* Cross-key rules the RTL relies on. */
  long long dim = t->values[isa_param_index(isa, "dim")];
  long long cmd = t->values[isa_param_index(isa, "cmd_sram_bytes")];
  if (cmd % 16) {
    snprintf(err, (size_t)errlen, "%s: cmd_sram_bytes must be a multiple of 16", path);
    return -1;
  }
  if (dim > 16) {
    snprintf(err, (size_t)errlen, "%s: dim must be at most 16 (5-bit n0 fields)", path);
    return -1;
  }
  /* The scratchpad is split into preload_rows_per_cycle ways read together
   * (npu_spad's Ways, npu_array's Pl): a power of two, at most dim, dividing
   * spad_rows, or the RTL builds a different memory than the C model. */
  int pl_i = isa_param_index(isa, "preload_rows_per_cycle");
  if (pl_i >= 0) {
    long long pl = t->values[pl_i], spad = t->values[isa_param_index(isa, "spad_rows")];
    if ((pl & (pl - 1)) != 0 || pl > dim || spad % pl != 0) {
      snprintf(err, (size_t)errlen,
               "%s: preload_rows_per_cycle = %lld must be a power of two, at most dim (%lld), dividing spad_rows",
               path, pl, dim);
      return -1;
    }
  }
  /* The memory port moves 8-byte beats; the RTL's largest burst is
   * dram_burst_bytes / 8 beats, so other values would differ from the
   * cost model's bursts. */
  int burst_i = isa_param_index(isa, "dram_burst_bytes");
  if (burst_i >= 0 && t->values[burst_i] % 8 != 0) {
    snprintf(err, (size_t)errlen, "%s: dram_burst_bytes = %lld must be a multiple of 8 (8-byte beats)", path,
             t->values[burst_i]);
    return -1;
  }
  /* STORE's epilogue and the vector unit take a row in dim / lanes groups
   * of lanes (npu_store, npu_vec), so the lanes divide dim (0 stands for
   * dim). */
  static const char *lanes[] = {"requant_lanes", "vec_lanes"};
  for (int k = 0; k < 2; k++) {
    int li = isa_param_index(isa, lanes[k]);
    if (li >= 0 && t->values[li] != 0 && (t->values[li] > dim || dim % t->values[li] != 0)) {
      snprintf(err, (size_t)errlen, "%s: %s = %lld must be 0 (dim) or divide dim (%lld)", path, lanes[k],
               t->values[li], dim);
      return -1;
    }
  }
  static const char *banked[2][2] = {{"spad_rows", "spad_banks"}, {"acc_rows", "acc_banks"}};
  for (int b = 0; b < 2; b++) {
    long long rows = t->values[isa_param_index(isa, banked[b][0])];
    long long banks = t->values[isa_param_index(isa, banked[b][1])];
    if (rows % banks) {
      snprintf(err, (size_t)errlen, "%s: %s must be a multiple of %s", path, banked[b][0], banked[b][1]);
      return -1;
    }
  }
  char buf[96];
  uint32_t hsh = fnv1a(2166136261u, "tessel-target\n");
  for (int i = 0; i < isa->nparams; i++) {
    /* A key added with a default leaves the hash of every target that keeps
     * the default as it was: packages built for it stay valid. */
    if (isa->params[i].has_def && t->values[i] == isa->params[i].def) continue;
    snprintf(buf, sizeof buf, "%s=%lld\n", isa->params[i].name, t->values[i]);
    hsh = fnv1a(hsh, buf);
  }
  snprintf(buf, sizeof buf, "isa=%d\n", isa->version);
  t->hash = fnv1a(hsh, buf);
  return 0;
}
