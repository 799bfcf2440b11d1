// board_tb.cpp: the iCEBreaker as the FPGA sees it, around a Verilator
// model of icebreaker_top: either the RTL or the yosys netlist of the
// bitstream (SB_* cells from yosys's ice40/cells_sim.v). Only the board's
// pins are used, so both builds run the same bench:
//
//   * a SPI flash (commands 0xAB wake-up and 0x03 read) holding the images
//     at the offsets the top was built with (--image0 FILE, --image1 FILE);
//   * the UART TX pin, decoded at --clks-per-bit clocks per bit, to stdout;
//   * the LEDs: green on = running; green off again = exited (red: with a
//     non-zero code); red without green = the flash image was refused.
//
// Exit status: 0 the firmware exited with 0, 1 it exited non-zero, 2 the
// boot loader refused the image, 3 cycle limit, 4 usage error.
// BOARD_TB_DEBUG=1 in the environment prints every byte the flash receives.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "host_file.h"
#include "Vicebreaker_top.h"
#include "verilated.h"

namespace {

constexpr uint32_t kFlashBytes = 2u << 20;  // enough for offsets below 2 MiB
constexpr uint32_t kImage0 = 0x100000;      // board.cfg flash_firmware
constexpr uint32_t kImage1 = 0x140000;      // board.cfg flash_package

struct Options {
  const char *image0 = nullptr;
  const char *image1 = nullptr;
  uint64_t max_cycles = 20000000;
  unsigned clks_per_bit = 104;
};

// SPI flash, mode 0: samples MOSI on SCK rising, drives MISO after falling.
struct Flash {
  std::vector<uint8_t> mem = std::vector<uint8_t>(kFlashBytes, 0xFF);
  unsigned bit = 0, nbytes = 0;
  uint8_t in = 0, cmd = 0, cur = 0;
  uint32_t addr = 0;
  bool reading = false;
  int out_bit = 0;
  bool miso = true;
  bool awake = false;
  uint64_t reads_asleep = 0;  // a read before 0xAB: the loader's bug

  void deselect() {
    bit = nbytes = 0;
    reading = false;
    out_bit = 0;
  }
  void rising(bool mosi) {
    in = uint8_t((in << 1) | (mosi ? 1 : 0));
    if (++bit < 8) return;
    bit = 0;
    uint8_t b = in;
    if (getenv("BOARD_TB_DEBUG")) fprintf(stderr, "flash: byte %02x (n %u)\n", b, nbytes);
    if (nbytes == 0) {
      cmd = b;
      if (cmd == 0xAB) awake = true;
      if (cmd == 0x03 && !awake) reads_asleep++;
    } else if (cmd == 0x03 && nbytes <= 3) {
      addr = (addr << 8) | b;
      if (nbytes == 3) {
        addr &= 0xFFFFFF;
        reading = true;
        out_bit = 0;
      }
    }
    nbytes++;
  }
  void falling() {
    if (!reading) return;
    if (out_bit == 0) {
      cur = addr < mem.size() ? mem[addr] : 0xFF;
      addr = (addr + 1) & 0xFFFFFF;
      out_bit = 8;
    }
    out_bit--;
    miso = (cur >> out_bit) & 1;
  }
};

// UART receiver on the board's TX pin (8N1).
struct UartRx {
  unsigned cpb;
  bool busy = false;
  uint64_t start = 0;
  unsigned nbit = 0;
  uint8_t byte = 0;
  std::string text;
  explicit UartRx(unsigned c) : cpb(c) {}
  void sample(uint64_t cycle, bool tx) {
    if (!busy) {
      if (!tx) {
        busy = true;
        start = cycle;
        nbit = 0;
        byte = 0;
      }
      return;
    }
    // Data bit i is sampled in its middle: start + cpb * (1.5 + i).
    uint64_t at = start + cpb * (3 + 2 * nbit) / 2;
    if (cycle != at) return;
    if (nbit < 8) {
      byte = uint8_t(byte | ((tx ? 1 : 0) << nbit));
      nbit++;
    } else {
      busy = false;  // stop bit
      if (tx) {
        text.push_back(char(byte));
        fputc(byte, stdout);
        fflush(stdout);
      } else {
        fprintf(stderr, "board_tb: UART framing error at cycle %llu\n", (unsigned long long)cycle);
      }
    }
  }
};

bool load_image(Flash &flash, const char *path, uint32_t off) {
  // Only a regular file (host_file.h): a FIFO blocked fopen forever.
  const char *why = nullptr;
  FILE *f = host_file_open_in(path, &why);
  if (!f) {
    fprintf(stderr, "board_tb: %s: cannot open: %s\n", path, why);
    return false;
  }
  size_t n = fread(flash.mem.data() + off, 1, flash.mem.size() - off, f);
  bool too_big = !feof(f) && fgetc(f) != EOF;
  bool unreadable = ferror(f);
  fclose(f);
  if (unreadable) {
    fprintf(stderr, "board_tb: %s: cannot read\n", path);
    return false;
  }
  if (too_big) {
    fprintf(stderr, "board_tb: %s: larger than the flash window at 0x%x\n", path, off);
    return false;
  }
  (void)n;
  return true;
}

int usage(const char *why) {
  fprintf(stderr, "board_tb: %s\n", why);
  fprintf(stderr,
          "usage: board_tb [--image0 FILE] [--image1 FILE] [--max-cycles N] [--clks-per-bit N]\n");
  return 4;
}

}  // namespace

int main(int argc, char **argv) {
  Options opt;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a != "--image0" && a != "--image1" && a != "--max-cycles" && a != "--clks-per-bit")
      return usage(("unknown option '" + a + "'").c_str());
    if (i + 1 >= argc) return usage((a + " needs a value").c_str());
    const char *v = argv[++i];
    if (a == "--image0") {
      opt.image0 = v;
      continue;
    }
    if (a == "--image1") {
      opt.image1 = v;
      continue;
    }
    // Numbers: digits only (no sign, no blanks), and no silent clamping
    // of an out-of-range value (strtoull's ERANGE) or truncation to unsigned.
    char *end = nullptr;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 0);
    if (v[0] < '0' || v[0] > '9' || *end != '\0' || errno == ERANGE)
      return usage((a + ": '" + v + "' is not a number").c_str());
    if (a == "--max-cycles") {
      if (n == 0) return usage("--max-cycles must be at least 1");
      opt.max_cycles = n;
    } else {
      if (n < 4 || n > 1000000) return usage("--clks-per-bit must be 4..1000000");
      opt.clks_per_bit = unsigned(n);
    }
  }

  Flash flash;
  if (opt.image0 && !load_image(flash, opt.image0, kImage0)) return 4;
  if (opt.image1 && !load_image(flash, opt.image1, kImage1)) return 4;

  auto ctx = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<Vicebreaker_top>(ctx.get());
  UartRx uart(opt.clks_per_bit);

  top->btn_ni = 0;  // held for a few cycles: the power-on counter starts at 0
  top->uart_rx_i = 1;
  top->flash_miso_i = 1;
  top->clk_i = 0;
  top->eval();

  bool prev_sck = false, was_running = false;
  uint64_t boot_cycles = 0, cycle = 0, drain = 0;
  int status = 3;
  for (cycle = 0; cycle < opt.max_cycles; cycle++) {
    if (cycle == 4) top->btn_ni = 1;
    top->flash_miso_i = flash.miso;
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->eval();

    bool cs_n = top->flash_cs_no, sck = top->flash_sck_o;
    if (cs_n) {
      flash.deselect();
    } else if (sck && !prev_sck) {
      flash.rising(top->flash_mosi_o);
    } else if (!sck && prev_sck) {
      flash.falling();
    }
    prev_sck = sck;
    uart.sample(cycle, top->uart_tx_o);

    bool green = !top->led_green_no, red = !top->led_red_no;
    if (drain > 0) {
      if (--drain == 0) break;
      continue;
    }
    if (green && !was_running) {
      was_running = true;
      boot_cycles = cycle;
    } else if (!green && was_running) {
      status = red ? 1 : 0;
      drain = 2ull * 10 * opt.clks_per_bit;  // let a last byte on the wire finish
    } else if (red && !was_running && cycle > 16) {
      status = 2;
      break;
    }
  }

  top->final();
  const char *what[] = {"exit 0", "exit non-zero (red LED)", "boot image refused (red LED)",
                        "cycle limit"};
  fprintf(stderr, "board_tb: %s after %llu cycles (flash boot %llu cycles, UART %zu bytes)\n",
          what[status], (unsigned long long)cycle, (unsigned long long)boot_cycles,
          uart.text.size());
  if (flash.reads_asleep) fprintf(stderr, "board_tb: flash read before the 0xAB wake-up\n");
  return status;
}
