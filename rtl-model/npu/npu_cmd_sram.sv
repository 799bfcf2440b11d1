// npu_cmd_sram: the command SRAM, CmdSramBytes as 16-byte rows. The control
// core reads and writes 32-bit words with byte enables (port c*); the
// dispatcher reads a whole command per cycle (port d*). Reads return one
// cycle after the address.
`default_nettype none

module npu_cmd_sram #(
  parameter int unsigned Bytes = tessel_target_pkg::CmdSramBytes,
  localparam int unsigned Rows = Bytes / 16,
  localparam int unsigned Aw = $clog2(Rows)
) (
  input  wire logic          clk_i,
  input  wire logic          c_en_i,
  input  wire logic          c_we_i,
  input  wire logic [Aw-1:0] c_row_i,
  input  wire logic [1:0]    c_lane_i,
  input  wire logic [3:0]    c_be_i,
  input  wire logic [31:0]   c_wdata_i,
  output      logic [31:0]   c_rdata_o,
  input  wire logic          d_re_i,
  input  wire logic [Aw-1:0] d_row_i,
  output      logic [127:0]  d_rdata_o
);
  logic [127:0] mem_q [Rows];
  logic [127:0] c_row_q;
  logic [1:0]   lane_q;

  // A memory: byte-enabled write and registered reads (block-RAM inference).
  always_ff @(posedge clk_i) begin
    if (c_en_i && c_we_i) begin
      for (int b = 0; b < 4; b++) begin
        if (c_be_i[b]) mem_q[c_row_i][32'(c_lane_i)*32 + b*8 +: 8] <= c_wdata_i[b*8 +: 8];
      end
    end
    if (c_en_i && !c_we_i) c_row_q <= mem_q[c_row_i];
    lane_q <= c_lane_i;
    if (d_re_i) d_rdata_o <= mem_q[d_row_i];
  end

  assign c_rdata_o = c_row_q[32'(lane_q)*32 +: 32];
endmodule

`default_nettype wire
