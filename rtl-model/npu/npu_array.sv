// npu_array: the Dim x Dim weight-stationary int8 array.
//
// Two weight buffers (banks): one is preloaded Pl rows per cycle (wld_*) while
// the other computes, so the preload of the next (tap, channel block) pass hides
// under the streaming of the current one. Each cycle one input row of Dim int8
// lanes enters (in_valid_i) against bank in_bank_i; one cycle later out_o holds
//   out[n] = base[n] + sum_k in[k] * W[k][n]       (int32, wraps mod 2^32)
// where base is the accumulator row read for this input (0 when overwriting).
//
// The skew of a physical systolic array (Dim cycles of fill and drain) is
// collapsed into one pipeline stage: results, order and throughput (one row
// per cycle) are those of the array, its latency is shorter.
`default_nettype none

module npu_array #(
  parameter int unsigned Dim = tessel_target_pkg::Dim,
  parameter int unsigned Pl  = 1,                   // rows preloaded per cycle (a power of two <= Dim)
  localparam int unsigned Rw = (Dim > 1) ? $clog2(Dim) : 1
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  // weight preload: rows k .. k+Pl-1 (input channels) of bank wld_bank_i, k = wld_row_i
  input  wire logic              wld_valid_i,
  input  wire logic              wld_bank_i,
  input  wire logic [Rw-1:0]     wld_row_i,
  input  wire logic [Pl*Dim*8-1:0] wld_data_i,
  // compute: one input row per cycle
  input  wire logic              in_valid_i,
  input  wire logic              in_bank_i,
  input  wire logic [Dim*8-1:0]  in_row_i,
  input  wire logic [Dim*32-1:0] in_base_i,
  output      logic              out_valid_o,
  output      logic [Dim*32-1:0] out_o
);
  // bank b, row k (input channel k), lane n (output channel n): wb_q[k][n*8 +: 8].
  // Rows are written only when preloaded and the result register only when a
  // row enters: an idle array costs the simulator nothing per cycle.
  localparam int unsigned RowBits = Dim * 8;
  logic [RowBits-1:0] w0_q [Dim];
  logic [RowBits-1:0] w1_q [Dim];
  logic [Dim*32-1:0] out_d, out_q;
  logic              valid_q;

  // the multiply-accumulate: Dim x Dim int8 products per cycle
  logic [31:0] s;
  logic [RowBits-1:0] wrow;
  always_comb begin
    out_d = '0;
    s     = '0;
    wrow  = '0;
    if (in_valid_i) begin
      for (int n = 0; n < Dim; n++) begin
        s = in_base_i[n*32 +: 32];
        for (int k = 0; k < Dim; k++) begin
          wrow = in_bank_i ? w1_q[k] : w0_q[k];
          s = s + 32'($signed(in_row_i[k*8 +: 8]) * $signed(wrow[n*8 +: 8]));
        end
        out_d[n*32 +: 32] = s;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
    end else begin
      valid_q <= in_valid_i;
    end
  end

  // data registers without reset (their contents are only used when valid);
  // written with enables, like a register file
  always_ff @(posedge clk_i) begin
    if (in_valid_i) out_q <= out_d;
    for (int k = 0; k < Pl; k++) begin
      if (wld_valid_i && !wld_bank_i) w0_q[wld_row_i + Rw'(k)] <= wld_data_i[k*RowBits +: RowBits];
      if (wld_valid_i && wld_bank_i) w1_q[wld_row_i + Rw'(k)] <= wld_data_i[k*RowBits +: RowBits];
    end
  end

  assign out_valid_o = valid_q;
  assign out_o       = out_q;
endmodule

`default_nettype wire
