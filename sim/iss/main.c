/* main.c: tessel-iss, the instruction-set simulator's command line.
 *
 *   tessel-iss FIRMWARE.elf [--max-insns N] [--trace-commits F] [--stats]
 *
 * Exit status follows tessel-sim: the firmware's EXIT value (0..119) passes
 * through; tohost 1 exits 0 and an odd tohost v (test v>>1 failed) exits with
 * v>>1 clamped to 1..119; the ISS's own outcomes are 120 and up. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "bus.h"
#include "elf.h"
#include "hart.h"
#include "host_file.h"

enum {
  EXIT_BAD_INPUT = 120, /* usage error, unreadable or malformed ELF */
  EXIT_LIMIT = 121,     /* --max-insns reached */
  EXIT_INTERNAL = 122,  /* simulator failure (out of memory, I/O) */
  EXIT_PROTOCOL = 123,  /* firmware ended with an invalid EXIT or tohost value */
};

#define DEFAULT_MAX_INSNS 1000000000ull
/* Largest ELF read: IMEM + DMEM + the 64 MiB DRAM with room for symbols. */
#define MAX_ELF_BYTES (256u << 20)

static void usage(FILE *f) {
  fprintf(f,
          "usage: tessel-iss FIRMWARE.elf [--max-insns N] [--trace-commits FILE] [--stats]\n"
          "Runs an RV32IM bare-metal ELF on the Tessel memory map, one instruction per step.\n"
          "  --max-insns N        stop after N steps (default %llu)\n"
          "  --trace-commits F    write one line per retired instruction to F\n"
          "  --stats              print retired instructions, traps and host speed to stderr\n"
          "Exit status: the firmware's EXIT value 0..119; tohost 1 -> 0; tohost odd v -> v>>1\n"
          "(clamped to 1..119); 120 bad input or usage; 121 step limit reached;\n"
          "122 internal error; 123 EXIT value above 119 or even tohost value.\n",
          DEFAULT_MAX_INSNS);
}

static int parse_u64(const char *s, unsigned long long *out) {
  char *end;
  if (*s < '0' || *s > '9') return -1;
  errno = 0;
  *out = strtoull(s, &end, 0);
  return (errno || *end) ? -1 : 0;
}

/* Reads the whole ELF; returns NULL with *why set on failure.  Only a
 * regular file is read (host_file.h): a FIFO blocked open() forever; one
 * past MAX_ELF_BYTES is refused by its size ("File too large"). */
static uint8_t *read_file(const char *path, size_t *size, const char **why) {
  uint8_t *buf = host_file_read_all(path, MAX_ELF_BYTES, size, why);
  if (!buf && *why == host_file_too_big) *why = strerror(EFBIG);
  return buf;
}

int main(int argc, char **argv) {
  const char *elf_path = NULL, *trace_path = NULL;
  unsigned long long max_insns = DEFAULT_MAX_INSNS;
  int stats = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--version")) {
      printf("tessel-iss %s (RV32IM, Zicsr)\n", TESSEL_VERSION);
      return 0;
    } else if (!strcmp(argv[i], "--max-insns")) {
      if (i + 1 >= argc || parse_u64(argv[i + 1], &max_insns) != 0 || max_insns == 0) {
        fprintf(stderr, "tessel-iss: --max-insns needs a positive integer\n");
        return EXIT_BAD_INPUT;
      }
      i++;
    } else if (!strcmp(argv[i], "--stats")) {
      stats = 1;
    } else if (!strcmp(argv[i], "--trace-commits")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "tessel-iss: --trace-commits needs a file name\n");
        return EXIT_BAD_INPUT;
      }
      trace_path = argv[++i];
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "tessel-iss: unknown option '%s'\n", argv[i]);
      usage(stderr);
      return EXIT_BAD_INPUT;
    } else if (elf_path) {
      fprintf(stderr, "tessel-iss: more than one firmware file ('%s', '%s')\n", elf_path, argv[i]);
      return EXIT_BAD_INPUT;
    } else {
      elf_path = argv[i];
    }
  }
  if (!elf_path) {
    usage(stderr);
    return EXIT_BAD_INPUT;
  }

  size_t size = 0;
  const char *why = "";
  uint8_t *image = read_file(elf_path, &size, &why);
  if (!image) {
    fprintf(stderr, "tessel-iss: %s: %s\n", elf_path, why);
    return EXIT_BAD_INPUT;
  }
  bus_t bus;
  if (bus_init(&bus, stdout) != 0) {
    fprintf(stderr, "tessel-iss: out of memory\n");
    free(image);
    return EXIT_INTERNAL;
  }
  elf_info info;
  char err[256];
  int rc = iss_load_elf(image, size, &bus, &info, err, sizeof err);
  free(image);
  if (rc != 0) {
    fprintf(stderr, "tessel-iss: %s: %s\n", elf_path, err);
    bus_free(&bus);
    return EXIT_BAD_INPUT;
  }
  bus.has_tohost = info.has_tohost;
  bus.tohost_addr = info.tohost_addr;

  hart_t hart;
  hart_reset(&hart, &bus, info.entry);
  if (trace_path) {
    hart.trace = host_file_open_out(trace_path, "w", &why);
    if (!hart.trace) {
      fprintf(stderr, "tessel-iss: %s: %s\n", trace_path, why);
      bus_free(&bus);
      return EXIT_BAD_INPUT;
    }
  }

  unsigned long long steps = 0, traps = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (bus.halt == BUS_RUN && steps < max_insns) {
    traps += hart_step(&hart) == STEP_TRAPPED;
    steps++;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  /* UART output lost on the way to stdout (a full disk) is an I/O failure. */
  int stdout_bad = fflush(stdout) != 0 || ferror(stdout);
  if (stats) {
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    fprintf(stderr, "tessel-iss: %llu instructions retired, %llu traps, %.3f s, %.1f M instructions/s\n",
            (unsigned long long)hart.minstret, traps, secs,
            secs > 0 ? (double)steps / secs / 1e6 : 0.0);
  }

  int status;
  if (bus.halt == BUS_EXIT) {
    if (bus.halt_value <= 119) {
      status = (int)bus.halt_value;
    } else {
      fprintf(stderr, "tessel-iss: firmware wrote EXIT value %u (valid: 0..119)\n", bus.halt_value);
      status = EXIT_PROTOCOL;
    }
  } else if (bus.halt == BUS_TOHOST) {
    uint32_t v = bus.halt_value;
    if (v == 1) {
      status = 0;
    } else if (v & 1) {
      uint32_t test = v >> 1;
      fprintf(stderr, "tessel-iss: test %u failed (tohost 0x%x)\n", test, v);
      status = test > 119 ? 119 : (int)test;
    } else {
      fprintf(stderr, "tessel-iss: firmware wrote even value 0x%x to tohost (expected 1 or odd)\n", v);
      status = EXIT_PROTOCOL;
    }
  } else {
    fprintf(stderr, "tessel-iss: stopped after %llu steps (--max-insns) at pc 0x%08x\n", steps,
            hart.pc);
    status = EXIT_LIMIT;
  }
  if (stdout_bad) {
    fprintf(stderr, "tessel-iss: writing the UART output to stdout failed\n");
    status = EXIT_INTERNAL;
  }
  if (hart.trace && fclose(hart.trace) != 0) {
    fprintf(stderr, "tessel-iss: %s: write failed\n", trace_path);
    status = EXIT_INTERNAL;
  }
  bus_free(&bus);
  return status;
}
