/* sim_options.c: command-line parsing for tessel-sim (see sim_options.h). */
#include "sim_options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void sim_options_usage(FILE *f) {
  fprintf(f,
          "usage: tessel-sim FIRMWARE.elf [options]\n"
          "Runs a bare-metal RV32IM ELF on the cycle-accurate Tessel SoC model from its entry\n"
          "point. UART output goes to stdout, UART input comes from stdin.\n"
          "\n"
          "options:\n"
          "  --load ADDR=FILE     also place the raw bytes of FILE at ADDR (IMEM, DMEM or DRAM);\n"
          "                       up to %d times\n"
          "  --max-cycles N       stop after N cycles (default %llu)\n"
          "  --trace F.fst        write an FST waveform of the whole run to F.fst\n"
          "  --trace-cycles A:B   with --trace: record only cycles A to B-1 (a window of a long run)\n"
          "  --npu-timeline F     write the NPU's runs and every command's busy span per unit to F\n"
          "                       ('R CYCLE' per run start, 'C UNIT START END' per command)\n"
          "  --trace-commits F    write one line per retired instruction to F:\n"
          "                       PPPPPPPP IIIIIIII[ xN=VVVVVVVV] (docs/memory-map.md)\n"
          "  --stats              print cycles, retired instructions, CPI, simulated cycles per\n"
          "                       second and DRAM traffic to stderr at the end\n"
          "  --dram-bw B          DRAM bandwidth in bytes per cycle, may be fractional\n"
          "                       (0.01..64, default %g)\n"
          "  --dram-latency L     DRAM latency in cycles from request to first data (1..100000,\n"
          "                       default %u)\n"
          "  --dram-size BYTES    DRAM size at 0x80000000, suffix K, M or G allowed, a multiple of\n"
          "                       8 up to 2G (default 64M); accesses beyond it answer a bus error\n"
          "  --dump ADDR:LEN=FILE when the run ends (whatever its status), write LEN bytes of\n"
          "                       DRAM from ADDR to FILE; up to %d times\n"
          "  --uart-pty           put the UART on a new pseudo-terminal (raw) instead of stdin/stdout;\n"
          "                       its path goes to stderr as 'tessel-sim: uart on PATH'\n"
          "  --uart-pty-link F    with --uart-pty: also write PATH and a newline to F (created when\n"
          "                       the pty is ready, so a script can wait for F)\n"
          "  --version            print the NPU target this simulator was built for and its hash\n"
          "  --help               this text\n"
          "\n"
          "exit status:\n"
          "  0..119  the firmware's own: the value written to the EXIT register; with the\n"
          "          riscv-tests tohost convention, 0 for tohost=1 (pass) and test number\n"
          "          v>>1 (clamped to 1..119) for an odd tohost value v (fail)\n"
          "  120     usage error, bad option value, unreadable or malformed ELF or --load file\n"
          "  121     cycle limit (--max-cycles) reached\n"
          "  122     internal error (I/O failure, memory-port protocol violation, missing\n"
          "          tracing build)\n"
          "  123     firmware wrote an EXIT value above 119 or an even value to tohost\n",
          SIM_MAX_LOADS, SIM_DEFAULT_MAX_CYCLES, SIM_DEFAULT_DRAM_BW, SIM_DEFAULT_DRAM_LATENCY, SIM_MAX_DUMPS);
}

static int fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* Unsigned integer, decimal or 0x-hex, no sign, no trailing junk. */
static int parse_u64(const char *s, uint64_t *out) {
  char *end;
  if (*s < '0' || *s > '9') return -1;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

/* Size with an optional K/M/G suffix (powers of 1024). */
static int parse_size(const char *s, uint64_t *out) {
  char buf[64];
  size_t n = strlen(s);
  if (n == 0 || n >= sizeof buf) return -1;
  memcpy(buf, s, n + 1);
  unsigned shift = 0;
  switch (buf[n - 1]) {
  case 'k': case 'K': shift = 10; break;
  case 'm': case 'M': shift = 20; break;
  case 'g': case 'G': shift = 30; break;
  default: break;
  }
  if (shift) buf[n - 1] = '\0';
  uint64_t v;
  if (parse_u64(buf, &v) != 0 || v > (UINT64_C(1) << 40)) return -1;
  *out = v << shift;
  return 0;
}

/* The value of option argv[*i], which must exist. */
static const char *value(int argc, char **argv, int *i) {
  if (*i + 1 >= argc) return NULL;
  return argv[++*i];
}

int sim_options_parse(int argc, char **argv, SimOptions *o, char *err, size_t errlen) {
  memset(o, 0, sizeof *o);
  o->max_cycles = SIM_DEFAULT_MAX_CYCLES;
  o->dram_bw = SIM_DEFAULT_DRAM_BW;
  o->dram_latency = SIM_DEFAULT_DRAM_LATENCY;
  o->dram_size = SIM_DEFAULT_DRAM_SIZE;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      o->help = 1;
      return 0;
    }
    if (a[0] != '-') {
      if (o->elf) return fail(err, errlen, "more than one firmware file ('%s' and '%s')", o->elf, a);
      o->elf = a;
      continue;
    }
    if (strcmp(a, "--version") == 0) {
      o->version = 1;
      return 0;
    }
    if (strcmp(a, "--stats") == 0) {
      o->stats = 1;
      continue;
    }
    if (strcmp(a, "--uart-pty") == 0) {
      o->uart_pty = 1;
      continue;
    }
    const char *v = value(argc, argv, &i);
    if (!v && (strcmp(a, "--load") == 0 || strcmp(a, "--max-cycles") == 0 ||
               strcmp(a, "--trace") == 0 || strcmp(a, "--trace-commits") == 0 || strcmp(a, "--trace-cycles") == 0 || strcmp(a, "--npu-timeline") == 0 ||
               strcmp(a, "--dram-bw") == 0 || strcmp(a, "--dram-latency") == 0 ||
               strcmp(a, "--dram-size") == 0 || strcmp(a, "--dump") == 0 ||
               strcmp(a, "--uart-pty-link") == 0))
      return fail(err, errlen, "option %s needs a value", a);
    /* An empty file name would open "" (ENOENT, after the run for some) or
     * name "<empty>.tmp" in the working directory: refuse it up front. */
    if (v && !*v && (strcmp(a, "--trace") == 0 || strcmp(a, "--trace-commits") == 0 ||
                     strcmp(a, "--npu-timeline") == 0 || strcmp(a, "--uart-pty-link") == 0))
      return fail(err, errlen, "option %s needs a file name, not ''", a);
    if (strcmp(a, "--load") == 0) {
      const char *eq = strchr(v, '=');
      char addr[32];
      uint64_t x;
      if (!eq || eq == v || (size_t)(eq - v) >= sizeof addr || eq[1] == '\0')
        return fail(err, errlen, "--load '%s': expected ADDR=FILE", v);
      memcpy(addr, v, (size_t)(eq - v));
      addr[eq - v] = '\0';
      if (parse_u64(addr, &x) != 0 || x > UINT32_MAX)
        return fail(err, errlen, "--load '%s': '%s' is not a 32-bit address", v, addr);
      if (o->nloads == SIM_MAX_LOADS) return fail(err, errlen, "more than %d --load options", SIM_MAX_LOADS);
      o->loads[o->nloads].addr = (uint32_t)x;
      o->loads[o->nloads].path = eq + 1;
      o->nloads++;
    } else if (strcmp(a, "--dump") == 0) {
      /* ADDR:LEN=FILE; the range is checked against the DRAM once its size is known */
      const char *colon = strchr(v, ':'), *eq = strchr(v, '=');
      char addr[32], len[32];
      uint64_t x, n;
      if (!colon || !eq || colon > eq || colon == v || eq == colon + 1 || eq[1] == '\0' ||
          (size_t)(colon - v) >= sizeof addr || (size_t)(eq - colon - 1) >= sizeof len)
        return fail(err, errlen, "--dump '%s': expected ADDR:LEN=FILE", v);
      memcpy(addr, v, (size_t)(colon - v));
      addr[colon - v] = '\0';
      memcpy(len, colon + 1, (size_t)(eq - colon - 1));
      len[eq - colon - 1] = '\0';
      if (parse_u64(addr, &x) != 0 || x > UINT32_MAX)
        return fail(err, errlen, "--dump '%s': '%s' is not a 32-bit address", v, addr);
      if (parse_size(len, &n) != 0 || n == 0 || n > UINT32_MAX)
        return fail(err, errlen, "--dump '%s': '%s' is not a length of 1 byte to 4G", v, len);
      if (o->ndumps == SIM_MAX_DUMPS) return fail(err, errlen, "more than %d --dump options", SIM_MAX_DUMPS);
      o->dumps[o->ndumps].addr = (uint32_t)x;
      o->dumps[o->ndumps].len = (uint32_t)n;
      o->dumps[o->ndumps].path = eq + 1;
      o->ndumps++;
    } else if (strcmp(a, "--max-cycles") == 0) {
      if (parse_u64(v, &o->max_cycles) != 0 || o->max_cycles == 0)
        return fail(err, errlen, "--max-cycles '%s': expected a positive integer", v);
    } else if (strcmp(a, "--trace") == 0) {
      o->trace_fst = v;
    } else if (strcmp(a, "--trace-commits") == 0) {
      o->trace_commits = v;
    } else if (strcmp(a, "--uart-pty-link") == 0) {
      o->uart_pty_link = v;
    } else if (strcmp(a, "--npu-timeline") == 0) {
      o->npu_timeline = v;
    } else if (strcmp(a, "--trace-cycles") == 0) {
      const char *colon = strchr(v, ':');
      char from[32];
      if (!colon || (size_t)(colon - v) >= sizeof from) return fail(err, errlen, "--trace-cycles '%s': expected FROM:TO", v);
      memcpy(from, v, (size_t)(colon - v));
      from[colon - v] = 0;
      if (parse_u64(from, &o->trace_from) != 0 || parse_u64(colon + 1, &o->trace_to) != 0 || o->trace_to <= o->trace_from)
        return fail(err, errlen, "--trace-cycles '%s': expected FROM:TO cycles with FROM < TO", v);
    } else if (strcmp(a, "--dram-bw") == 0) {
      char *end = NULL;
      errno = 0;
      /* strtod also takes leading blanks and hex floats ("0x10"): plain
       * decimal only, like every other number here */
      int decimal = ((*v >= '0' && *v <= '9') || *v == '.') && v[strspn(v, "0123456789.eE+-")] == '\0';
      double b = decimal ? strtod(v, &end) : 0.0;
      if (!decimal || errno || *end || end == v || !isfinite(b) || b < 0.01 || b > 64.0)
        return fail(err, errlen, "--dram-bw '%s': expected bytes per cycle in 0.01..64", v);
      o->dram_bw = b;
    } else if (strcmp(a, "--dram-latency") == 0) {
      uint64_t l;
      if (parse_u64(v, &l) != 0 || l < 1 || l > 100000)
        return fail(err, errlen, "--dram-latency '%s': expected cycles in 1..100000", v);
      o->dram_latency = (uint32_t)l;
    } else if (strcmp(a, "--dram-size") == 0) {
      uint64_t s;
      if (parse_size(v, &s) != 0 || s == 0 || s % 8 != 0 || s > SIM_MAX_DRAM_SIZE)
        return fail(err, errlen, "--dram-size '%s': expected a multiple of 8 bytes up to 2G", v);
      o->dram_size = s;
    } else {
      return fail(err, errlen, "unknown option '%s' (see --help)", a);
    }
  }
  if (!o->elf) return fail(err, errlen, "no firmware file given (see --help)");
  if (o->trace_to && !o->trace_fst) return fail(err, errlen, "--trace-cycles needs --trace F.fst");
  if (o->uart_pty_link && !o->uart_pty) return fail(err, errlen, "--uart-pty-link needs --uart-pty");
  return 0;
}
