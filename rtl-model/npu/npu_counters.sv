// npu_counters: the 64-bit counters of docs/profile-format.md, cleared at
// START; each adds its increment of the cycle (zero outside a run).
`default_nettype none

module npu_counters #(
  localparam int unsigned N = tessel_isa_pkg::NumCounters
) (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,
  input  wire logic          clr_i,
  input  wire logic [N*32-1:0] inc_i,
  output      logic [N*64-1:0] cnt_o
);
  logic [N*64-1:0] cnt_d, cnt_q;
  always_comb begin
    for (int i = 0; i < N; i++) cnt_d[i*64 +: 64] = cnt_q[i*64 +: 64] + 64'(inc_i[i*32 +: 32]);
    if (clr_i) cnt_d = '0;
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) cnt_q <= '0;
    else cnt_q <= cnt_d;
  end
  assign cnt_o = cnt_q;
endmodule

`default_nettype wire
