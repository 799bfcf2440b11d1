`default_nettype none
// tessel_cpu: the SoC's control core, either variant behind one set of ports
// (docs/core.md): tessel_core (Lite = 0; FastMul picks its multiplier) or
// tessel_core_lite (Lite = 1; its M unit is always iterative). The two have
// the same ports, so each is connected by name to these (.*).
module tessel_cpu #(
  parameter bit Lite    = 1'b0,
  parameter bit FastMul = 1'b1
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic [31:0] boot_addr_i,
  // instruction bus
  output      logic        ibus_req_valid_o,
  input  wire logic        ibus_req_ready_i,
  output      logic [31:0] ibus_req_addr_o,
  input  wire logic        ibus_rsp_valid_i,
  input  wire logic [31:0] ibus_rsp_rdata_i,
  input  wire logic        ibus_rsp_err_i,
  // data bus
  output      logic        dbus_req_valid_o,
  input  wire logic        dbus_req_ready_i,
  output      logic        dbus_req_we_o,
  output      logic [3:0]  dbus_req_be_o,
  output      logic [31:0] dbus_req_addr_o,
  output      logic [31:0] dbus_req_wdata_o,
  input  wire logic        dbus_rsp_valid_i,
  input  wire logic [31:0] dbus_rsp_rdata_i,
  input  wire logic        dbus_rsp_err_i,
  // interrupts (level)
  input  wire logic        irq_timer_i,
  input  wire logic        irq_external_i,
  // retirement
  output      logic        commit_valid_o,
  output      logic [31:0] commit_pc_o,
  output      logic [31:0] commit_insn_o,
  output      logic        commit_rd_we_o,
  output      logic [4:0]  commit_rd_o,
  output      logic [31:0] commit_rd_wdata_o
);

  if (Lite) begin : g_lite
    tessel_core_lite u_core (.*);
  end else begin : g_full
    tessel_core #(.FastMul(FastMul)) u_core (.*);
  end

endmodule

`default_nettype wire
