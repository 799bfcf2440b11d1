// npu_counters: the counters of docs/profile-format.md, cleared at START;
// each adds its increment of the cycle (zero outside a run). Each holds
// CounterBits bits (the target's counter_bits) and wraps there; the output
// keeps 64 bits per counter, zero above, so registers and MARK records read
// the same at every width. Written only at START and during a run (en_i), so
// an idle NPU costs the simulator no adds and no copy of the counters per cycle.
`default_nettype none

module npu_counters #(
  parameter int unsigned CounterBits = tessel_target_pkg::CounterBits,
  localparam int unsigned N = tessel_isa_pkg::NumCounters
) (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,
  input  wire logic          clr_i,
  input  wire logic          en_i,          // a run: the increments may be non-zero
  input  wire logic [N*32-1:0] inc_i,
  output      logic [N*64-1:0] cnt_o
);
  localparam int unsigned W = CounterBits;
  logic [N*W-1:0] cnt_d, cnt_q;
  always_comb begin
    cnt_d = '0;
    if (en_i && !clr_i)
      for (int i = 0; i < N; i++) cnt_d[i*W +: W] = cnt_q[i*W +: W] + W'(inc_i[i*32 +: 32]);
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) cnt_q <= '0;
    else if (clr_i || en_i) cnt_q <= cnt_d;
  end
  always_comb begin
    for (int i = 0; i < N; i++) cnt_o[i*64 +: 64] = 64'(cnt_q[i*W +: W]);
  end
endmodule

`default_nettype wire
