`default_nettype none
// tessel_core_regfile: the general registers, two read ports and one write
// port, with synchronous reads so that FPGA block RAM holds it (on iCE40: four
// SB_RAM40_4K instead of ~1000 flip-flops and ~1600 LUTs of read multiplexers).
// rdataN_o is the value at the clock edge where raddrN_i was presented, before
// that edge's write: the pipeline forwards the write itself. x0 is never
// written; the pipeline reads it as 0 without looking here.
module tessel_core_regfile (
  input  wire logic        clk_i,
  input  wire logic [4:0]  raddr1_i,
  output      logic [31:0] rdata1_o,
  input  wire logic [4:0]  raddr2_i,
  output      logic [31:0] rdata2_o,
  input  wire logic        we_i,
  input  wire logic [4:0]  waddr_i,
  input  wire logic [31:0] wdata_i
);
  logic [31:0] regs [32];
  logic [31:0] rdata1_q, rdata2_q;

  // No reset: software initialises the registers it reads, as on any RISC-V.
  always_ff @(posedge clk_i) begin
    if (we_i) regs[waddr_i] <= wdata_i;
  end

  always_ff @(posedge clk_i) begin
    rdata1_q <= regs[raddr1_i];
    rdata2_q <= regs[raddr2_i];
  end

  assign rdata1_o = rdata1_q;
  assign rdata2_o = rdata2_q;
endmodule
