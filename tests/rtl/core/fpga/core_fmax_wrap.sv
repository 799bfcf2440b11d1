`default_nettype none
// core_fmax_wrap: puts tessel_core (or tessel_core_lite) between flops for a timing estimate on
// iCE40 (make bench-core-fmax). Inputs come from flops fed by an LFSR, outputs
// go into flops reduced to one pin, so only flop-to-flop paths through the
// core are timed, as in the SoC, whose memories answer from registers.
module core_fmax_wrap (
  input  logic clk_i,
  input  logic rst_ni,
  output logic out_o
);
  logic [127:0] lfsr_q;
  logic         rst_q;
  logic [31:0]  boot_q, irsp_q, drsp_q;
  logic [7:0]   ctl_q;
  always_ff @(posedge clk_i) begin
    lfsr_q <= {lfsr_q[126:0], lfsr_q[127] ^ lfsr_q[125] ^ lfsr_q[100] ^ lfsr_q[98] ^ rst_ni};
    rst_q  <= rst_ni;
    boot_q <= lfsr_q[31:0];
    irsp_q <= lfsr_q[63:32];
    drsp_q <= lfsr_q[95:64];
    ctl_q  <= lfsr_q[103:96];
  end

  logic        iv, dv, dwe, cv, cwe;
  logic [31:0] ia, da, dwd, cpc, cin, cwd;
  logic [3:0]  dbe;
  logic [4:0]  crd;
  // CORE_LITE (make bench-core-fmax's third run): the lite core, same ports
`ifdef CORE_LITE
  tessel_core_lite u_core (
`else
  tessel_core u_core (
`endif
    .clk_i             (clk_i),
    .rst_ni            (rst_q),
    .boot_addr_i       (boot_q),
    .ibus_req_valid_o  (iv),
    .ibus_req_ready_i  (ctl_q[0]),
    .ibus_req_addr_o   (ia),
    .ibus_rsp_valid_i  (ctl_q[1]),
    .ibus_rsp_rdata_i  (irsp_q),
    .ibus_rsp_err_i    (ctl_q[2]),
    .dbus_req_valid_o  (dv),
    .dbus_req_ready_i  (ctl_q[3]),
    .dbus_req_we_o     (dwe),
    .dbus_req_be_o     (dbe),
    .dbus_req_addr_o   (da),
    .dbus_req_wdata_o  (dwd),
    .dbus_rsp_valid_i  (ctl_q[4]),
    .dbus_rsp_rdata_i  (drsp_q),
    .dbus_rsp_err_i    (ctl_q[5]),
    .irq_timer_i       (ctl_q[6]),
    .irq_external_i    (ctl_q[7]),
    .commit_valid_o    (cv),
    .commit_pc_o       (cpc),
    .commit_insn_o     (cin),
    .commit_rd_we_o    (cwe),
    .commit_rd_o       (crd),
    .commit_rd_wdata_o (cwd)
  );

  logic [205:0] out_q;
  always_ff @(posedge clk_i) begin
    out_q <= {iv, dv, dwe, cv, cwe, ia, da, dwd, cpc, cin, cwd, dbe, crd};
    out_o <= ^out_q;
  end
endmodule
