// npu_load_tb: bench wrapper of the LOAD unit with its SPAD, ACC and PARAM
// memories; the bench plays the DRAM side and reads the memories back.
`default_nettype none

module npu_load_tb #(
  localparam int unsigned Dim = tessel_target_pkg::Dim,
  localparam int unsigned SAw = $clog2(tessel_target_pkg::SpadRows),
  localparam int unsigned AAw = $clog2(tessel_target_pkg::AccRows),
  localparam int unsigned PAw = $clog2(tessel_target_pkg::ParamRows)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic              cmd_valid_i,
  output      logic              cmd_ready_o,
  input  wire logic [127:0]      cmd_i,
  output      logic              done_o,
  input  wire logic [31:0]       dram_base_i,
  output      logic              dma_req_valid_o,
  input  wire logic              dma_req_ready_i,
  output      logic [31:0]       dma_req_addr_o,
  output      logic [7:0]        dma_req_len_o,
  input  wire logic              dma_r_valid_i,
  output      logic              dma_r_ready_o,
  input  wire logic [63:0]       dma_r_data_i,
  input  wire logic              gnt_i,              // random write grants
  input  wire logic [SAw-1:0]    tb_spad_addr_i,
  output      logic [Dim*8-1:0]  tb_spad_rdata_o,
  input  wire logic [AAw-1:0]    tb_acc_addr_i,
  output      logic [Dim*32-1:0] tb_acc_rdata_o,
  input  wire logic [PAw-1:0]    tb_param_addr_i,
  output      logic [Dim*72-1:0] tb_param_rdata_o,
  output      logic [15:0]       dram_rd_bytes_o,
  output      logic [15:0]       spad_wr_bytes_o,
  output      logic [15:0]       acc_wr_bytes_o
);
  logic              spad_we, acc_we, param_we, busy, stall;
  logic [SAw-1:0]    spad_waddr;
  logic [AAw-1:0]    acc_waddr;
  logic [PAw-1:0]    param_waddr;
  logic [Dim*8-1:0]  spad_wdata;
  logic [Dim*32-1:0] acc_wdata;
  logic [Dim*72-1:0] param_wdata;

  npu_load u_load (
    .clr_i (1'b0),
    .clk_i, .rst_ni, .cmd_valid_i, .cmd_ready_o, .cmd_i, .done_o, .dram_base_i,
    .dma_req_valid_o, .dma_req_ready_i, .dma_req_addr_o, .dma_req_len_o,
    .dma_r_valid_i, .dma_r_ready_o, .dma_r_data_i,
    .spad_we_o (spad_we), .spad_gnt_i (gnt_i), .spad_waddr_o (spad_waddr), .spad_wdata_o (spad_wdata),
    .acc_we_o (acc_we), .acc_gnt_i (gnt_i), .acc_waddr_o (acc_waddr), .acc_wdata_o (acc_wdata),
    .param_we_o (param_we), .param_waddr_o (param_waddr), .param_wdata_o (param_wdata),
    .busy_o (busy), .stall_dram_o (stall), .dram_rd_bytes_o, .spad_wr_bytes_o, .acc_wr_bytes_o
  );

  /* verilator lint_off PINCONNECTEMPTY */
  npu_sram #(.Width(Dim*8), .Depth(tessel_target_pkg::SpadRows)) u_spad (
    .clk_i, .a_re_i (1'b0), .a_addr_i ('0), .a_rdata_o (),
    .b_re_i (1'b1), .b_addr_i (tb_spad_addr_i), .b_rdata_o (tb_spad_rdata_o),
    .we_i (spad_we && gnt_i), .waddr_i (spad_waddr), .wdata_i (spad_wdata)
  );
  npu_sram #(.Width(Dim*32), .Depth(tessel_target_pkg::AccRows)) u_acc (
    .clk_i, .a_re_i (1'b0), .a_addr_i ('0), .a_rdata_o (),
    .b_re_i (1'b1), .b_addr_i (tb_acc_addr_i), .b_rdata_o (tb_acc_rdata_o),
    .we_i (acc_we && gnt_i), .waddr_i (acc_waddr), .wdata_i (acc_wdata)
  );
  npu_sram #(.Width(Dim*72), .Depth(tessel_target_pkg::ParamRows)) u_param (
    .clk_i, .a_re_i (1'b0), .a_addr_i ('0), .a_rdata_o (),
    .b_re_i (1'b1), .b_addr_i (tb_param_addr_i), .b_rdata_o (tb_param_rdata_o),
    .we_i (param_we), .waddr_i (param_waddr), .wdata_i (param_wdata)
  );
  /* verilator lint_on PINCONNECTEMPTY */
endmodule

`default_nettype wire
