// npu_cmd_sram: the command SRAM, CmdSramBytes. The control core reads and
// writes 32-bit words with byte enables (port c*); the dispatcher reads a
// whole 16-byte command per cycle (port d*). Reads return one cycle after the
// address.
//
// Why two arrays: a block RAM (iCE40 SB_RAM40_4K, and most FPGAs') has one
// read and one write port, so two readers need two copies of the contents.
// One array of 128-bit rows read by both made yosys build two 128-bit wide
// copies (8 block RAMs each on the iCE40, whatever the depth). Here the core's
// copy is 32 bits wide (1 KiB = 2 block RAMs) and only the dispatcher's is
// 128 bits wide; every write goes to both, so both always hold the same bytes.
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
  output      tessel_isa_pkg::cmd_t d_rdata_o
);
  // read and written through one port: a read never meets a write, so yosys
  // need not emulate a collision (no_rw_check)
  (* no_rw_check *)
  logic [31:0]  cmem_q [Rows * 4];   // the core's copy, one word per entry
  tessel_isa_pkg::cmd_t dmem_q [Rows];       // the dispatcher's copy, one command per entry
  logic [Aw+1:0] c_word;
  assign c_word = {c_row_i, c_lane_i};

  // Two memories: byte-enabled writes to both, registered reads (block-RAM
  // inference).
  always_ff @(posedge clk_i) begin
    if (c_en_i && c_we_i) begin
      for (int b = 0; b < 4; b++) begin
        if (c_be_i[b]) cmem_q[c_word][b*8 +: 8] <= c_wdata_i[b*8 +: 8];
      end
    end
    if (c_en_i && !c_we_i) c_rdata_o <= cmem_q[c_word];
  end

  always_ff @(posedge clk_i) begin
    if (c_en_i && c_we_i) begin
      for (int b = 0; b < 4; b++) begin
        if (c_be_i[b]) dmem_q[c_row_i][32'(c_lane_i)*32 + b*8 +: 8] <= c_wdata_i[b*8 +: 8];
      end
    end
    if (d_re_i) d_rdata_o <= dmem_q[d_row_i];
  end
endmodule

`default_nettype wire
