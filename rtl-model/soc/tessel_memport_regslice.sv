// tessel_memport_regslice: a register slice on all four channels of a
// memory port (docs/memory-port.md). Every output on both sides comes
// straight from a flop and no input reaches the other side within a cycle,
// so the SoC's port is fully registered: a board's memory controller meets
// timing against flops only, and in simulation the harness's inputs do not
// feed the core's logic combinationally (which keeps the Verilator model
// fast). Each channel is a 2-entry FIFO: full throughput, one cycle of
// latency each way.
`default_nettype none

module tessel_memport_regslice #(
  parameter int unsigned IdW = 6
) (
  input  wire logic           clk_i,
  input  wire logic           rst_ni,
  // Master side (from the arbiter).
  input  wire logic           m_req_valid_i,
  output      logic           m_req_ready_o,
  input  wire logic           m_req_write_i,
  input  wire logic [31:0]    m_req_addr_i,
  input  wire logic [7:0]     m_req_len_i,
  input  wire logic [IdW-1:0] m_req_id_i,
  input  wire logic           m_w_valid_i,
  output      logic           m_w_ready_o,
  input  wire logic [63:0]    m_w_data_i,
  input  wire logic [7:0]     m_w_strb_i,
  input  wire logic           m_w_last_i,
  output      logic           m_r_valid_o,
  input  wire logic           m_r_ready_i,
  output      logic [63:0]    m_r_data_o,
  output      logic [IdW-1:0] m_r_id_o,
  output      logic           m_r_last_o,
  output      logic           m_r_err_o,
  output      logic           m_b_valid_o,
  input  wire logic           m_b_ready_i,
  output      logic [IdW-1:0] m_b_id_o,
  output      logic           m_b_err_o,
  // Slave side (the SoC's port).
  output      logic           s_req_valid_o,
  input  wire logic           s_req_ready_i,
  output      logic           s_req_write_o,
  output      logic [31:0]    s_req_addr_o,
  output      logic [7:0]     s_req_len_o,
  output      logic [IdW-1:0] s_req_id_o,
  output      logic           s_w_valid_o,
  input  wire logic           s_w_ready_i,
  output      logic [63:0]    s_w_data_o,
  output      logic [7:0]     s_w_strb_o,
  output      logic           s_w_last_o,
  input  wire logic           s_r_valid_i,
  output      logic           s_r_ready_o,
  input  wire logic [63:0]    s_r_data_i,
  input  wire logic [IdW-1:0] s_r_id_i,
  input  wire logic           s_r_last_i,
  input  wire logic           s_r_err_i,
  input  wire logic           s_b_valid_i,
  output      logic           s_b_ready_o,
  input  wire logic [IdW-1:0] s_b_id_i,
  input  wire logic           s_b_err_i
);

  localparam int unsigned ReqW = 1 + 32 + 8 + IdW;
  localparam int unsigned WW   = 64 + 8 + 1;
  localparam int unsigned RW   = 64 + IdW + 2;
  localparam int unsigned BW   = IdW + 1;

  logic req_full, req_empty, w_full, w_empty, r_full, r_empty, b_full, b_empty;

  // Request channel.
  tessel_fifo #(.Width(ReqW), .Depth(2)) u_req (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (m_req_valid_i),
    .data_i  ({m_req_write_i, m_req_addr_i, m_req_len_i, m_req_id_i}),
    .pop_i   (s_req_ready_i),
    .head_o  ({s_req_write_o, s_req_addr_o, s_req_len_o, s_req_id_o}),
    .empty_o (req_empty),
    .full_o  (req_full)
  );
  assign m_req_ready_o = !req_full;
  assign s_req_valid_o = !req_empty;

  // Write-data channel.
  tessel_fifo #(.Width(WW), .Depth(2)) u_w (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (m_w_valid_i),
    .data_i  ({m_w_data_i, m_w_strb_i, m_w_last_i}),
    .pop_i   (w_fire),
    .head_o  ({s_w_data_o, s_w_strb_o, s_w_last_o}),
    .empty_o (w_empty),
    .full_o  (w_full)
  );
  assign m_w_ready_o = !w_full;
  // The port promises that write data never comes before its request: the
  // two channels have separate slices, and a request can sit in its slice
  // while the memory is not ready. So W beats pass only while some write
  // request that went out on the port still lacks data.
  logic [4:0] wpend_q, wpend_d;   // writes sent on the port, data incomplete
  logic       w_fire;
  assign s_w_valid_o = !w_empty && wpend_q != 5'd0;
  assign w_fire      = s_w_valid_o && s_w_ready_i;

  always_comb begin
    wpend_d = wpend_q;
    if (s_req_valid_o && s_req_ready_i && s_req_write_o) wpend_d = wpend_d + 5'd1;
    if (w_fire && s_w_last_o)                            wpend_d = wpend_d - 5'd1;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) wpend_q <= 5'd0;
    else         wpend_q <= wpend_d;
  end

  // Read-response channel.
  tessel_fifo #(.Width(RW), .Depth(2)) u_r (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (s_r_valid_i),
    .data_i  ({s_r_data_i, s_r_id_i, s_r_last_i, s_r_err_i}),
    .pop_i   (m_r_ready_i),
    .head_o  ({m_r_data_o, m_r_id_o, m_r_last_o, m_r_err_o}),
    .empty_o (r_empty),
    .full_o  (r_full)
  );
  assign s_r_ready_o = !r_full;
  assign m_r_valid_o = !r_empty;

  // Write-response channel.
  tessel_fifo #(.Width(BW), .Depth(2)) u_b (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (s_b_valid_i),
    .data_i  ({s_b_id_i, s_b_err_i}),
    .pop_i   (m_b_ready_i),
    .head_o  ({m_b_id_o, m_b_err_o}),
    .empty_o (b_empty),
    .full_o  (b_full)
  );
  assign s_b_ready_o = !b_full;
  assign m_b_valid_o = !b_empty;

endmodule

`default_nettype wire
