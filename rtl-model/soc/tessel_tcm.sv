// tessel_tcm: a tightly coupled memory with two synchronous-read ports.
// Port A (instruction bus) only reads; port B (data bus) reads and writes
// with byte enables; the loader port writes whole words while the core is
// held in reset (it wins over port B). Both bus ports are always ready and
// answer the cycle after a request, as FPGA block RAM does.
`default_nettype none

module tessel_tcm #(
  parameter int unsigned Bytes = 65536,
  localparam int unsigned Words = Bytes / 4,
  localparam int unsigned AW    = $clog2(Words)
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // Port A: read only.
  input  wire logic        a_req_valid_i,
  input  wire logic [31:0] a_req_addr_i,
  output      logic        a_rsp_valid_o,
  output      logic [31:0] a_rsp_rdata_o,
  // Port B: read/write.
  input  wire logic        b_req_valid_i,
  input  wire logic        b_req_we_i,
  input  wire logic [3:0]  b_req_be_i,
  input  wire logic [31:0] b_req_addr_i,
  input  wire logic [31:0] b_req_wdata_i,
  output      logic        b_rsp_valid_o,
  output      logic [31:0] b_rsp_rdata_o,
  // Loader: one word per cycle.
  input  wire logic        ld_valid_i,
  input  wire logic [31:0] ld_addr_i,
  input  wire logic [31:0] ld_data_i
);

  logic [31:0] mem [Words];

  logic [AW-1:0] a_idx, b_idx, w_idx;
  logic [3:0]    w_be;
  logic [31:0]   w_data;
  logic          a_rsp_valid_q, b_rsp_valid_q;
  logic [31:0]   a_rdata_q, b_rdata_q;

  assign a_idx = a_req_addr_i[AW+1:2];
  assign b_idx = b_req_addr_i[AW+1:2];

  // One write port, shared by the loader and the data bus.
  always_comb begin
    w_idx  = b_idx;
    w_be   = (b_req_valid_i && b_req_we_i) ? b_req_be_i : 4'b0000;
    w_data = b_req_wdata_i;
    if (ld_valid_i) begin
      w_idx  = ld_addr_i[AW+1:2];
      w_be   = 4'b1111;
      w_data = ld_data_i;
    end
  end

  // The memory array itself: a RAM macro, so it is written in the form
  // synthesis tools infer block RAM from rather than as q <= d registers.
  always_ff @(posedge clk_i) begin
    if (w_be[0]) mem[w_idx][7:0]   <= w_data[7:0];
    if (w_be[1]) mem[w_idx][15:8]  <= w_data[15:8];
    if (w_be[2]) mem[w_idx][23:16] <= w_data[23:16];
    if (w_be[3]) mem[w_idx][31:24] <= w_data[31:24];
    if (a_req_valid_i) a_rdata_q <= mem[a_idx];
    if (b_req_valid_i) b_rdata_q <= mem[b_idx];
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      a_rsp_valid_q <= 1'b0;
      b_rsp_valid_q <= 1'b0;
    end else begin
      a_rsp_valid_q <= a_req_valid_i;
      b_rsp_valid_q <= b_req_valid_i;
    end
  end

  // The decoder has already checked the window; byte offsets go to be.
  logic unused;
  assign unused = ^{a_req_addr_i, b_req_addr_i, ld_addr_i};

  assign a_rsp_valid_o = a_rsp_valid_q;
  assign a_rsp_rdata_o = a_rdata_q;
  assign b_rsp_valid_o = b_rsp_valid_q;
  assign b_rsp_rdata_o = b_rdata_q;

endmodule

`default_nettype wire
