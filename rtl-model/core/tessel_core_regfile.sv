`default_nettype none
// tessel_core_regfile: the 31 general registers x1..x31 (x0 reads 0), two
// asynchronous read ports and one write port. A write lands at the clock
// edge; the pipeline forwards a same-cycle write itself.
module tessel_core_regfile (
  input  logic        clk_i,
  input  logic [4:0]  raddr1_i,
  output logic [31:0] rdata1_o,
  input  logic [4:0]  raddr2_i,
  output logic [31:0] rdata2_o,
  input  logic        we_i,
  input  logic [4:0]  waddr_i,
  input  logic [31:0] wdata_i
);
  logic [31:0] regs_q [32];

  // No reset: software initialises the registers it reads, as on any RISC-V.
  always_ff @(posedge clk_i) begin
    if (we_i && waddr_i != 5'd0) regs_q[waddr_i] <= wdata_i;
  end

  assign rdata1_o = (raddr1_i == 5'd0) ? 32'd0 : regs_q[raddr1_i];
  assign rdata2_o = (raddr2_i == 5'd0) ? 32'd0 : regs_q[raddr2_i];
endmodule
