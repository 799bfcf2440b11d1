/* sim_options: tessel-sim's command line, parsed and range-checked, and
 * its exit statuses (which --help documents). */
#ifndef TESSEL_SIM_OPTIONS_H
#define TESSEL_SIM_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit statuses. 0..119 belong to the firmware (EXIT register, tohost). */
enum {
  SIM_EXIT_BAD_INPUT = 120, /* usage error, bad option value, unreadable or bad ELF/file */
  SIM_EXIT_LIMIT = 121,     /* --max-cycles reached */
  SIM_EXIT_INTERNAL = 122,  /* simulator failure: I/O, memory-port protocol, missing build */
  SIM_EXIT_PROTOCOL = 123,  /* firmware wrote EXIT > 119 or an even value to tohost */
};

#define SIM_MAX_LOADS 16
#define SIM_DEFAULT_MAX_CYCLES 1000000000ull
#define SIM_DEFAULT_DRAM_BW 8.0
#define SIM_DEFAULT_DRAM_LATENCY 20u
#define SIM_DEFAULT_DRAM_SIZE (64ull << 20)
#define SIM_MAX_DRAM_SIZE (2ull << 30)      /* the whole 0x80000000 window */

typedef struct {
  uint32_t addr;     /* where the file's bytes go */
  const char *path;  /* raw binary file */
} SimLoad;

typedef struct {
  uint32_t addr;     /* first DRAM byte to write out */
  uint32_t len;      /* bytes */
  const char *path;  /* output file */
} SimDump;

#define SIM_MAX_DUMPS 16

typedef struct {
  const char *elf;              /* FIRMWARE.elf */
  SimLoad loads[SIM_MAX_LOADS]; /* --load ADDR=FILE */
  int nloads;
  uint64_t max_cycles;          /* --max-cycles */
  const char *trace_fst;        /* --trace F.fst, or NULL */
  const char *trace_commits;    /* --trace-commits F, or NULL */
  uint64_t trace_from, trace_to; /* --trace-cycles FROM:TO (0:0: every cycle) */
  const char *npu_timeline;     /* --npu-timeline F: NPU runs and per-unit command spans, or NULL */
  int stats;                    /* --stats */
  double dram_bw;               /* --dram-bw, bytes per cycle */
  uint32_t dram_latency;        /* --dram-latency, cycles */
  uint64_t dram_size;           /* --dram-size, bytes */
  SimDump dumps[SIM_MAX_DUMPS]; /* --dump ADDR:LEN=FILE, written when the run ends */
  int ndumps;
  int uart_pty;                 /* --uart-pty: the UART on a pseudo-terminal, not stdin/stdout */
  const char *uart_pty_link;    /* --uart-pty-link F: also write the pty's path to F, or NULL */
  int help;                     /* --help was given: print usage, exit 0 */
  int version;                  /* --version was given: print the build's target, exit 0 */
} SimOptions;

/* Parses argv into *o (defaults for what is absent). Returns 0, or -1 with
 * the reason in err. Strings point into argv. */
int sim_options_parse(int argc, char **argv, SimOptions *o, char *err, size_t errlen);

/* Prints the usage text, options and exit statuses. */
void sim_options_usage(FILE *f);

#ifdef __cplusplus
}
#endif

#endif
