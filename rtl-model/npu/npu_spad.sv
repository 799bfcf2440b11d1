// npu_spad: the scratchpad. Depth rows of Dim int8, one write port, read port
// A (one row) and read port B (Ways consecutive rows b, b+1, .., b+Ways-1 at
// any b; data one cycle after the address, as npu_sram).
//
// Why: the array preloads PreloadRowsPerCycle weight rows per cycle
// (targets/*.cfg), so a weight tile of Dim rows takes Dim/Ways cycles and a
// tile used for few output rows (late CNN layers) does not idle the array.
// The rows are interleaved over Ways memories (row r in way r % Ways, word
// r / Ways): Ways consecutive rows are one row in each way, so every memory
// keeps the two read ports and one write port of npu_sram (block RAM on
// boards) and the total size does not change.
`default_nettype none

module npu_spad #(
  parameter int unsigned Dim   = tessel_target_pkg::Dim,
  parameter int unsigned Depth = tessel_target_pkg::SpadRows,
  parameter int unsigned Ways  = 1,                 // a power of two dividing Depth
  localparam int unsigned Aw = $clog2(Depth),
  localparam int unsigned Ww = (Ways > 1) ? $clog2(Ways) : 1,
  localparam int unsigned Rb = Dim * 8
) (
  input  wire logic               clk_i,
  input  wire logic               a_re_i,
  input  wire logic [Aw-1:0]      a_addr_i,
  output      logic [Rb-1:0]      a_rdata_o,
  input  wire logic               b_re_i,
  input  wire logic [Aw-1:0]      b_addr_i,
  output      logic [Ways*Rb-1:0] b_rdata_o,        // row b_addr + k at [k*Rb +: Rb]
  input  wire logic               we_i,
  input  wire logic [Aw-1:0]      waddr_i,
  input  wire logic [Rb-1:0]      wdata_i
);
  if (Ways == 1) begin : g_one
    npu_sram #(.Width(Rb), .Depth(Depth)) u_mem (
      .clk_i,
      .a_re_i, .a_addr_i, .a_rdata_o,
      .b_re_i, .b_addr_i, .b_rdata_o,
      .we_i, .waddr_i, .wdata_i
    );
  end else begin : g_ways
    localparam int unsigned Wd = Depth / Ways;
    localparam int unsigned Iw = Aw - Ww;           // word index bits of a way
    logic [Rb-1:0] a_way [Ways];
    logic [Rb-1:0] b_way [Ways];
    logic [Ww-1:0] a_sel_q, b_sel_q;                 // way of the row read last cycle (A) / of row b (B)

    for (genvar j = 0; j < Ways; j++) begin : g_way
      // way j holds row b + ((j - b) mod Ways) of a B read: word (b + that) / Ways
      logic [Ww-1:0] boff;
      logic [Aw-1:0] brow;
      assign boff = Ww'(j) - b_addr_i[Ww-1:0];
      assign brow = b_addr_i + Aw'(boff);
      npu_sram #(.Width(Rb), .Depth(Wd)) u_mem (
        .clk_i,
        .a_re_i    (a_re_i && a_addr_i[Ww-1:0] == Ww'(j)),
        .a_addr_i  (Iw'(a_addr_i >> Ww)),
        .a_rdata_o (a_way[j]),
        .b_re_i    (b_re_i),
        .b_addr_i  (Iw'(brow >> Ww)),
        .b_rdata_o (b_way[j]),
        .we_i      (we_i && waddr_i[Ww-1:0] == Ww'(j)),
        .waddr_i   (Iw'(waddr_i >> Ww)),
        .wdata_i   (wdata_i)
      );
    end

    // the selects follow the data: registered with the read
    always_ff @(posedge clk_i) begin
      if (a_re_i) a_sel_q <= a_addr_i[Ww-1:0];
      if (b_re_i) b_sel_q <= b_addr_i[Ww-1:0];
    end

    always_comb begin
      a_rdata_o = a_way[a_sel_q];
      b_rdata_o = '0;
      for (int k = 0; k < Ways; k++) b_rdata_o[k*Rb +: Rb] = b_way[Ww'(b_sel_q + Ww'(k))];
    end
  end
endmodule

`default_nettype wire
