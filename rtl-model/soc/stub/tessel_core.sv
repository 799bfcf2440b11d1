// tessel_core (stub): stands in for rtl-model/core/tessel_core.sv until the
// real core lands, so the SoC lints and builds. It issues no requests and
// retires nothing. sim/rules.mk only uses it when the real core is absent.
`default_nettype none

module tessel_core #(parameter bit FastMul = 1'b1) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic [31:0] boot_addr_i,
  output      logic        ibus_req_valid_o,
  input  wire logic        ibus_req_ready_i,
  output      logic [31:0] ibus_req_addr_o,
  input  wire logic        ibus_rsp_valid_i,
  input  wire logic [31:0] ibus_rsp_rdata_i,
  input  wire logic        ibus_rsp_err_i,
  output      logic        dbus_req_valid_o,
  input  wire logic        dbus_req_ready_i,
  output      logic        dbus_req_we_o,
  output      logic [3:0]  dbus_req_be_o,
  output      logic [31:0] dbus_req_addr_o,
  output      logic [31:0] dbus_req_wdata_o,
  input  wire logic        dbus_rsp_valid_i,
  input  wire logic [31:0] dbus_rsp_rdata_i,
  input  wire logic        dbus_rsp_err_i,
  input  wire logic        irq_timer_i,
  input  wire logic        irq_external_i,
  output      logic        commit_valid_o,
  output      logic [31:0] commit_pc_o,
  output      logic [31:0] commit_insn_o,
  output      logic        commit_rd_we_o,
  output      logic [4:0]  commit_rd_o,
  output      logic [31:0] commit_rd_wdata_o
);
  assign ibus_req_valid_o  = 1'b0;
  assign ibus_req_addr_o   = boot_addr_i;
  assign dbus_req_valid_o  = 1'b0;
  assign dbus_req_we_o     = 1'b0;
  assign dbus_req_be_o     = 4'h0;
  assign dbus_req_addr_o   = 32'h0;
  assign dbus_req_wdata_o  = 32'h0;
  assign commit_valid_o    = 1'b0;
  assign commit_pc_o       = 32'h0;
  assign commit_insn_o     = 32'h0;
  assign commit_rd_we_o    = 1'b0;
  assign commit_rd_o       = 5'h0;
  assign commit_rd_wdata_o = 32'h0;
  logic unused;
  assign unused = ^{clk_i, rst_ni, FastMul, ibus_req_ready_i, ibus_rsp_valid_i, ibus_rsp_rdata_i,
                    ibus_rsp_err_i, dbus_req_ready_i, dbus_rsp_valid_i, dbus_rsp_rdata_i,
                    dbus_rsp_err_i, irq_timer_i, irq_external_i};
endmodule

`default_nettype wire
