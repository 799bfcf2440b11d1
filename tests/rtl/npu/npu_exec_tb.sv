// npu_exec_tb: bench wrapper of the EXEC unit with its scratchpad and
// accumulator; the bench fills and reads the SRAMs through the tb_* ports
// while the unit is idle (SPAD reads on port A, a row one cycle after its
// address; the unit's own SPAD writes, VADD's and VPOOL's, go to the SPAD).
`default_nettype none

module npu_exec_tb #(
  localparam int unsigned Dim = tessel_target_pkg::Dim,
  localparam int unsigned SAw = $clog2(tessel_target_pkg::SpadRows),
  localparam int unsigned AAw = $clog2(tessel_target_pkg::AccRows)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic              cmd_valid_i,
  output      logic              cmd_ready_o,
  input  wire logic [127:0]      cmd_i,
  output      logic              done_o,
  output      logic              busy_o,
  input  wire logic              tb_spad_we_i,
  input  wire logic              tb_spad_re_i,
  input  wire logic [SAw-1:0]    tb_spad_addr_i,
  input  wire logic [Dim*8-1:0]  tb_spad_wdata_i,
  output      logic [Dim*8-1:0]  tb_spad_rdata_o,
  input  wire logic              tb_acc_we_i,
  input  wire logic [AAw-1:0]    tb_acc_addr_i,
  input  wire logic [Dim*32-1:0] tb_acc_wdata_i,
  output      logic [Dim*32-1:0] tb_acc_rdata_o,
  output      logic [15:0]       macs_o,
  output      logic [15:0]       spad_rd_bytes_o,
  output      logic [15:0]       acc_rd_bytes_o,
  output      logic [15:0]       acc_wr_bytes_o,
  output      logic              stall_preload_o
);
  logic              sa_re, sb_re, ar_re, aw_we, sw_we;
  logic [SAw-1:0]    sa_addr, sb_addr, sw_addr;
  logic [Dim*8-1:0]  sw_wdata;
  logic [Dim*8-1:0]  sa_rdata;
  logic [tessel_target_pkg::PreloadRowsPerCycle*Dim*8-1:0] sb_rdata;   // port B: PreloadRowsPerCycle rows
  logic [AAw-1:0]    ar_addr, aw_addr;
  logic [Dim*32-1:0] ar_rdata, aw_wdata;

  npu_exec u_exec (
    .cmd_side_i ({{18{cmd_i[47]}}, cmd_i[47:32], {12{cmd_i[107]}}, cmd_i[107:96], {12{cmd_i[119]}}, cmd_i[119:108]}),
    .clr_i (1'b0),
    .clk_i, .rst_ni, .cmd_valid_i, .cmd_ready_o, .cmd_i, .done_o,
    .spad_a_re_o (sa_re), .spad_a_addr_o (sa_addr), .spad_a_rdata_i (sa_rdata),
    .spad_b_re_o (sb_re), .spad_b_addr_o (sb_addr), .spad_b_rdata_i (sb_rdata),
    .spad_we_o (sw_we), .spad_waddr_o (sw_addr), .spad_wdata_o (sw_wdata), .spad_wr_bytes_o (),
    .acc_re_o (ar_re), .acc_raddr_o (ar_addr), .acc_rdata_i (ar_rdata),
    .acc_we_o (aw_we), .acc_waddr_o (aw_addr), .acc_wdata_o (aw_wdata),
    .busy_o, .stall_preload_o, .macs_o, .spad_rd_bytes_o, .acc_rd_bytes_o, .acc_wr_bytes_o
  );

  npu_spad #(.Dim(Dim), .Depth(tessel_target_pkg::SpadRows), .Ways(tessel_target_pkg::PreloadRowsPerCycle)) u_spad (
    .clk_i, .a_re_i (sa_re || tb_spad_re_i), .a_addr_i (sa_re ? sa_addr : tb_spad_addr_i), .a_rdata_o (sa_rdata),
    .b_re_i (sb_re), .b_addr_i (sb_addr), .b_rdata_o (sb_rdata),
    .we_i (sw_we || tb_spad_we_i), .waddr_i (sw_we ? sw_addr : tb_spad_addr_i),
    .wdata_i (sw_we ? sw_wdata : tb_spad_wdata_i)
  );

  assign tb_spad_rdata_o = sa_rdata;

  npu_sram #(.Width(Dim*32), .Depth(tessel_target_pkg::AccRows)) u_acc (
    .clk_i, .a_re_i (ar_re), .a_addr_i (ar_addr), .a_rdata_o (ar_rdata),
    .b_re_i (1'b1), .b_addr_i (tb_acc_addr_i), .b_rdata_o (tb_acc_rdata_o),
    .we_i (aw_we || tb_acc_we_i), .waddr_i (aw_we ? aw_addr : tb_acc_addr_i),
    .wdata_i (aw_we ? aw_wdata : tb_acc_wdata_i)
  );
endmodule

`default_nettype wire
