// npu_sram: the NPU's on-chip memory (SPAD, ACC, PARAM and command SRAM are
// all instances). Depth words of Width bits, two synchronous read ports and one
// write port. Reads return the word one cycle after the address; a read of a
// word written in the same cycle returns the old word. Kept as a plain array so
// that the simulator models it as a memory (no per-cycle loop over all words) and yosys
// keeps it as a $mem cell (board flows map it onto block RAM).
`default_nettype none

module npu_sram #(
  parameter int unsigned Width = 64,
  parameter int unsigned Depth = 1024,
  // 0: port B is not built (b_rdata_o is 0). A memory with one reader then
  // maps to one block-RAM copy even when the module is synthesised on its own.
  parameter bit          ReadB = 1'b1,
  localparam int unsigned Aw = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             a_re_i,
  input  wire logic [Aw-1:0]    a_addr_i,
  output      logic [Width-1:0] a_rdata_o,
  input  wire logic             b_re_i,
  input  wire logic [Aw-1:0]    b_addr_i,
  output      logic [Width-1:0] b_rdata_o,
  input  wire logic             we_i,
  input  wire logic [Aw-1:0]    waddr_i,
  input  wire logic [Width-1:0] wdata_i
);
  // public: benches compare the memories with the C model's
  logic [Width-1:0] mem_q [Depth] /* verilator public_flat_rw */;

  // Memories are the one place an always_ff does more than q <= d: the write
  // enable and the registered read are what block-RAM inference looks for.
  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    if (a_re_i) a_rdata_o <= mem_q[a_addr_i];
  end
  if (ReadB) begin : g_read_b
    always_ff @(posedge clk_i) begin
      if (b_re_i) b_rdata_o <= mem_q[b_addr_i];
    end
  end else begin : g_no_read_b
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_b;
    assign unused_b = b_re_i ^ (^b_addr_i);
    /* verilator lint_on UNUSEDSIGNAL */
    assign b_rdata_o = '0;
  end
endmodule

`default_nettype wire
