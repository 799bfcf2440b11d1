// dram_model_test.cpp: cmocka tests of the DRAM model's timing and storage
// (sim/dram_model.*), under ASan/UBSan; main() also runs the ELF and option
// tests (elf_options_test.c) and prints "N passed, N failed".
//
// The tests play the SoC's side of the port by hand: step() is one clock
// edge (commit the handshakes, then let the model drive the next inputs).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

extern "C" {  // this cmocka.h has no C++ guards
#include <cmocka.h>
}

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "dram_model.h"

extern "C" int run_elf_options_tests(int *total);

namespace {

constexpr uint64_t Base = 0x80000000ull;

// One edge; returns false on a protocol error.
bool step(DramModel &d, const MemPortOut &o, uint64_t edge) {
  bool ok = d.commit(o, edge);
  d.drive(edge);
  return ok;
}

MemPortOut read_req(uint32_t addr, uint32_t len, uint32_t id) {
  MemPortOut o;
  o.req_valid = true;
  o.req_addr = addr;
  o.req_len = len;
  o.req_id = id;
  o.r_ready = o.b_ready = true;
  return o;
}

MemPortOut idle() {
  MemPortOut o;
  o.r_ready = o.b_ready = true;
  return o;
}

// Issues a read at edge 0 and returns the edges at which its beats transfer.
std::vector<uint64_t> read_beat_edges(DramModel &d, uint32_t addr, uint32_t beats) {
  std::vector<uint64_t> edges;
  assert_true(d.in().req_ready);
  assert_true(step(d, read_req(addr, beats - 1, 3), 0));
  for (uint64_t e = 1; e < 10000 && edges.size() < beats; e++) {
    if (d.in().r_valid) {
      edges.push_back(e);
      assert_int_equal(d.in().r_id, 3);
      assert_int_equal(d.in().r_last, edges.size() == beats);
    }
    assert_true(step(d, idle(), e));
  }
  return edges;
}

void latency_is_counted_from_the_request(void **) {
  for (uint32_t lat : {1u, 2u, 20u, 137u}) {
    DramModel d(Base, 1 << 20, 8.0, lat);
    auto e = read_beat_edges(d, 0x80000100u, 1);
    assert_int_equal(e.size(), 1);
    assert_int_equal(e[0], lat);
  }
}

void bandwidth_spaces_the_beats(void **) {
  struct { double bw; uint64_t gap; } cases[] = {{8.0, 1}, {4.0, 2}, {0.5, 16}, {64.0, 1}, {2.0, 4}};
  for (auto c : cases) {
    DramModel d(Base, 1 << 20, c.bw, 5);
    auto e = read_beat_edges(d, 0x80000000u, 8);
    assert_int_equal(e.size(), 8);
    for (size_t i = 2; i < e.size(); i++) assert_int_equal(e[i] - e[i - 1], c.gap);
  }
}

void fractional_bandwidth_averages_out(void **) {
  DramModel d(Base, 1 << 20, 3.0, 1);  // 3 bytes/cycle: 8 beats of 8 bytes in ~21 cycles
  auto e = read_beat_edges(d, 0x80000000u, 64);
  assert_int_equal(e.size(), 64);
  uint64_t span = e.back() - e[1];  // 62 beats after the bucket's first one
  assert_true(span >= 62 * 8 / 3 - 2 && span <= 62 * 8 / 3 + 2);
}

void writes_store_bytes_by_strobe_and_answer_after_latency(void **) {
  DramModel d(Base, 1 << 20, 8.0, 4);
  uint8_t init[16];
  for (int i = 0; i < 16; i++) init[i] = uint8_t(0xa0 + i);
  assert_true(d.write_bytes(0x80000010u, init, 16));
  MemPortOut o = idle();
  o.req_valid = true;
  o.req_write = true;
  o.req_addr = 0x80000010u;
  o.req_len = 1;
  o.req_id = 5;
  assert_true(step(d, o, 0));
  uint64_t e = 1, last_edge = 0;
  int beat = 0;
  while (beat < 2 && e < 100) {
    MemPortOut w = idle();
    w.w_valid = true;
    w.w_data = beat == 0 ? 0x1122334455667788ull : 0x99aabbccddeeff00ull;
    w.w_strb = beat == 0 ? 0x0f : 0xf0;
    w.w_last = beat == 1;
    if (d.in().w_ready) {
      beat++;
      last_edge = e;
    }
    assert_true(step(d, w, e++));
  }
  assert_int_equal(beat, 2);
  uint64_t b_edge = 0;
  for (; e < 100 && !b_edge; e++) {
    if (d.in().b_valid) b_edge = e;
    assert_true(step(d, idle(), e));
  }
  assert_int_equal(b_edge, last_edge + 4);
  assert_int_equal(d.in().b_valid, false);
  uint8_t got[16];
  assert_true(d.read_bytes(0x80000010u, got, 16));
  const uint8_t want[16] = {0x88, 0x77, 0x66, 0x55, 0xa4, 0xa5, 0xa6, 0xa7,
                            0xa8, 0xa9, 0xaa, 0xab, 0xcc, 0xbb, 0xaa, 0x99};
  assert_memory_equal(got, want, 16);
}

void out_of_range_answers_err(void **) {
  DramModel d(Base, 4096, 8.0, 2);
  // A burst straddling the end: the first beat is inside, the second not.
  assert_true(step(d, read_req(0x80000ff8u, 1, 0), 0));
  std::vector<bool> errs;
  for (uint64_t e = 1; e < 50 && errs.size() < 2; e++) {
    if (d.in().r_valid) errs.push_back(d.in().r_err);
    assert_true(step(d, idle(), e));
  }
  assert_int_equal(errs.size(), 2);
  assert_false(errs[0]);
  assert_true(errs[1]);
  assert_int_equal(d.stats().errors, 1);
}

void read_data_held_while_not_ready(void **) {
  DramModel d(Base, 1 << 20, 8.0, 1);
  uint8_t v[16];
  for (int i = 0; i < 16; i++) v[i] = uint8_t(i);
  d.write_bytes(0x80000000u, v, 16);
  assert_true(step(d, read_req(0x80000000u, 1, 0), 0));
  MemPortOut stall = idle();
  stall.r_ready = false;
  for (uint64_t e = 1; e < 6; e++) {
    assert_true(d.in().r_valid);
    assert_int_equal(d.in().r_data, 0x0706050403020100ull);
    assert_true(step(d, stall, e));
  }
  assert_true(step(d, idle(), 6));  // beat 0 taken
  assert_true(d.in().r_valid);
  assert_int_equal(d.in().r_data, 0x0f0e0d0c0b0a0908ull);
}

void limits_requests_in_flight(void **) {
  DramModel d(Base, 1 << 20, 0.01, 1000);
  uint64_t e = 0;
  for (unsigned i = 0; i < DramModel::MaxInflight; i++) {
    assert_true(d.in().req_ready);
    assert_true(step(d, read_req(0x80000000u + 8 * i, 0, 0), e++));
  }
  assert_false(d.in().req_ready);
  assert_true(d.busy());
}

void reports_bad_last_flag(void **) {
  DramModel d(Base, 1 << 20, 8.0, 1);
  MemPortOut o = idle();
  o.req_valid = true;
  o.req_write = true;
  o.req_addr = 0x80000000u;
  o.req_len = 3;
  assert_true(step(d, o, 0));
  MemPortOut w = idle();
  w.w_valid = true;
  w.w_last = true;  // on beat 0 of 4
  assert_true(d.in().w_ready);
  assert_false(step(d, w, 1));
  assert_non_null(std::strstr(d.error().c_str(), "last"));
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(latency_is_counted_from_the_request),
      cmocka_unit_test(bandwidth_spaces_the_beats),
      cmocka_unit_test(fractional_bandwidth_averages_out),
      cmocka_unit_test(writes_store_bytes_by_strobe_and_answer_after_latency),
      cmocka_unit_test(out_of_range_answers_err),
      cmocka_unit_test(read_data_held_while_not_ready),
      cmocka_unit_test(limits_requests_in_flight),
      cmocka_unit_test(reports_bad_last_flag),
  };
  int failed = cmocka_run_group_tests_name("sim-dram-model", tests, nullptr, nullptr);
  int total = int(sizeof tests / sizeof tests[0]);
  int total2 = 0;
  failed += run_elf_options_tests(&total2);
  total += total2;
  std::fflush(stderr);
  std::printf("\n%d passed, %d failed\n", total - failed, failed);
  return failed ? 1 : 0;
}
