`default_nettype none
// tessel_core_lite_regfile: the lite core's general registers, two read ports
// and one write port in block RAM, like tessel_core_regfile, except that a
// read at the edge of a write to the same register may return either value
// (no_rw_check). tessel_core needs the old value there and yosys spends 72
// flip-flops and 72 LUTs on iCE40 to guarantee it; the lite core never uses a
// read taken at the edge of a write (it writes when an instruction retires,
// and the next instruction's sources are read when its word arrives), so it
// does without them.
module tessel_core_lite_regfile (
  input  wire logic        clk_i,
  input  wire logic [4:0]  raddr1_i,
  output      logic [31:0] rdata1_o,
  input  wire logic [4:0]  raddr2_i,
  output      logic [31:0] rdata2_o,
  input  wire logic        we_i,
  input  wire logic [4:0]  waddr_i,
  input  wire logic [31:0] wdata_i
);
  (* no_rw_check *) logic [31:0] regs [32];
  logic [31:0] rdata1_q, rdata2_q;

  // No reset: software initialises the registers it reads; x0 is never
  // written and the core reads it as 0 without looking here.
  always_ff @(posedge clk_i) begin
    if (we_i) regs[waddr_i] <= wdata_i;
  end

  always_ff @(posedge clk_i) begin
    rdata1_q <= regs[raddr1_i];
    rdata2_q <= regs[raddr2_i];
  end

`ifndef SYNTHESIS
  // In simulation a read taken at the edge of a write to the same register
  // returns neither value (the old one inverted), so the benches would catch
  // a core that used it.
  logic coll1_q, coll2_q;
  always_ff @(posedge clk_i) begin
    coll1_q <= we_i && waddr_i == raddr1_i;
    coll2_q <= we_i && waddr_i == raddr2_i;
  end
  assign rdata1_o = coll1_q ? ~rdata1_q : rdata1_q;
  assign rdata2_o = coll2_q ? ~rdata2_q : rdata2_q;
`else
  assign rdata1_o = rdata1_q;
  assign rdata2_o = rdata2_q;
`endif
endmodule

`default_nettype wire
