// npu_store_tb: bench wrapper of the STORE unit with its SPAD, ACC and PARAM
// memories; the bench fills them through tb_* ports and plays the DRAM side.
`default_nettype none

module npu_store_tb #(
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
  input  wire logic              rgnt_i,             // random SPAD port grants
  output      logic              dma_req_valid_o,
  input  wire logic              dma_req_ready_i,
  output      logic [31:0]       dma_req_addr_o,
  output      logic [7:0]        dma_req_len_o,
  output      logic              dma_w_valid_o,
  input  wire logic              dma_w_ready_i,
  output      logic [63:0]       dma_w_data_o,
  output      logic [7:0]        dma_w_strb_o,
  output      logic              dma_w_last_o,
  input  wire logic              dma_b_valid_i,
  input  wire logic              tb_spad_we_i,
  input  wire logic [SAw-1:0]    tb_spad_addr_i,
  input  wire logic [Dim*8-1:0]  tb_spad_wdata_i,
  output      logic [Dim*8-1:0]  tb_spad_rdata_o,
  input  wire logic              tb_acc_we_i,
  input  wire logic [AAw-1:0]    tb_acc_addr_i,
  input  wire logic [Dim*32-1:0] tb_acc_wdata_i,
  input  wire logic              tb_param_we_i,
  input  wire logic [PAw-1:0]    tb_param_addr_i,
  input  wire logic [Dim*72-1:0] tb_param_wdata_i,
  output      logic [31:0]       src_rd_bytes_o,
  output      logic              src_is_acc_o,
  output      logic [15:0]       spad_wr_bytes_o,
  output      logic [15:0]       dram_wr_bytes_o
);
  logic              acc_re, spad_re, param_re, spad_we;
  logic [AAw-1:0]    acc_addr;
  logic [SAw-1:0]    spad_addr, spad_waddr;
  logic [PAw-1:0]    param_addr;
  logic [Dim*32-1:0] acc_rdata;
  logic [Dim*8-1:0]  spad_rdata, spad_wdata;
  logic [Dim*72-1:0] param_rdata;
  logic              busy, stall;

  npu_store u_store (
    .clr_i (1'b0),
    .clk_i, .rst_ni, .cmd_valid_i, .cmd_ready_o, .cmd_i, .done_o, .dram_base_i,
    .acc_re_o (acc_re), .acc_addr_o (acc_addr), .acc_rdata_i (acc_rdata),
    .spad_re_o (spad_re), .spad_rgnt_i (rgnt_i), .spad_addr_o (spad_addr), .spad_rdata_i (spad_rdata),
    .param_re_o (param_re), .param_addr_o (param_addr), .param_rdata_i (param_rdata),
    .spad_we_o (spad_we), .spad_wgnt_i (rgnt_i), .spad_waddr_o (spad_waddr), .spad_wdata_o (spad_wdata),
    .dma_req_valid_o, .dma_req_ready_i, .dma_req_addr_o, .dma_req_len_o, .dma_w_valid_o, .dma_w_ready_i,
    .dma_w_data_o, .dma_w_strb_o, .dma_w_last_o, .dma_b_valid_i,
    .busy_o (busy), .stall_dram_o (stall), .src_rd_bytes_o, .src_is_acc_o, .spad_wr_bytes_o, .dram_wr_bytes_o
  );

  npu_sram #(.Width(Dim*8), .Depth(tessel_target_pkg::SpadRows)) u_spad (
    .clk_i, .a_re_i (spad_re), .a_addr_i (spad_addr), .a_rdata_o (spad_rdata),
    .b_re_i (1'b1), .b_addr_i (tb_spad_addr_i), .b_rdata_o (tb_spad_rdata_o),
    .we_i ((spad_we && rgnt_i) || tb_spad_we_i), .waddr_i ((spad_we && rgnt_i) ? spad_waddr : tb_spad_addr_i),
    .wdata_i ((spad_we && rgnt_i) ? spad_wdata : tb_spad_wdata_i)
  );
  /* verilator lint_off PINCONNECTEMPTY */
  npu_sram #(.Width(Dim*32), .Depth(tessel_target_pkg::AccRows)) u_acc (
    .clk_i, .a_re_i (acc_re), .a_addr_i (acc_addr), .a_rdata_o (acc_rdata),
    .b_re_i (1'b0), .b_addr_i ('0), .b_rdata_o (),
    .we_i (tb_acc_we_i), .waddr_i (tb_acc_addr_i), .wdata_i (tb_acc_wdata_i)
  );
  npu_sram #(.Width(Dim*72), .Depth(tessel_target_pkg::ParamRows)) u_param (
    .clk_i, .a_re_i (param_re), .a_addr_i (param_addr), .a_rdata_o (param_rdata),
    .b_re_i (1'b0), .b_addr_i ('0), .b_rdata_o (),
    .we_i (tb_param_we_i), .waddr_i (tb_param_addr_i), .wdata_i (tb_param_wdata_i)
  );
  /* verilator lint_on PINCONNECTEMPTY */
endmodule

`default_nettype wire
