// npu_counters: the 64-bit counters of docs/profile-format.md, cleared at
// START; each adds its increment of the cycle (zero outside a run). Written
// only at START and during a run (en_i), so an idle NPU costs the simulator
// no 64-bit adds and no copy of the counters per cycle.
`default_nettype none

module npu_counters #(
  localparam int unsigned N = tessel_isa_pkg::NumCounters
) (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,
  input  wire logic          clr_i,
  input  wire logic          en_i,          // a run: the increments may be non-zero
  input  wire logic [N*32-1:0] inc_i,
  output      logic [N*64-1:0] cnt_o
);
  logic [N*64-1:0] cnt_d, cnt_q;
  always_comb begin
    cnt_d = '0;
    if (en_i && !clr_i)
      for (int i = 0; i < N; i++) cnt_d[i*64 +: 64] = cnt_q[i*64 +: 64] + 64'(inc_i[i*32 +: 32]);
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) cnt_q <= '0;
    else if (clr_i || en_i) cnt_q <= cnt_d;
  end
  assign cnt_o = cnt_q;
endmodule

`default_nettype wire
