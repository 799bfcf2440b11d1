// tessel_memport_regslice: a register slice on all four channels of a
// memory port (docs/memory-port.md). Every output on both sides comes
// straight from a flop and no input reaches the other side within a cycle,
// so the SoC's port is fully registered: a board's memory controller meets
// timing against flops only, and in simulation the harness's inputs do not
// feed the core's logic combinationally (which keeps the Verilator model
// fast). Each channel is a 2-entry FIFO: full throughput, one cycle of
// latency each way.
`default_nettype none

module tessel_memport_regslice (
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,
  // Master side (from the arbiter).
  input  wire tessel_memport_pkg::req_t m_req_i,
  output      tessel_memport_pkg::rsp_t m_rsp_o,
  // Slave side (the SoC's port).
  output      tessel_memport_pkg::req_t s_req_o,
  input  wire tessel_memport_pkg::rsp_t s_rsp_i
);

  localparam int unsigned IdW  = tessel_memport_pkg::IdW;
  localparam int unsigned ReqW = 1 + tessel_memport_pkg::AddrW + tessel_memport_pkg::LenW + IdW;
  localparam int unsigned WW   = tessel_memport_pkg::DataW + tessel_memport_pkg::StrbW + 1;
  localparam int unsigned RW   = tessel_memport_pkg::DataW + IdW + 2;
  localparam int unsigned BW   = IdW + 1;

  logic req_full, req_empty, w_full, w_empty, r_full, r_empty, b_full, b_empty;

  // Request channel.
  tessel_fifo #(.Width(ReqW), .Depth(2)) u_req (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (m_req_i.req_valid),
    .data_i  ({m_req_i.req_write, m_req_i.req_addr, m_req_i.req_len, m_req_i.req_id}),
    .pop_i   (s_rsp_i.req_ready),
    .head_o  ({s_req_o.req_write, s_req_o.req_addr, s_req_o.req_len, s_req_o.req_id}),
    .empty_o (req_empty),
    .full_o  (req_full)
  );
  assign m_rsp_o.req_ready = !req_full;
  assign s_req_o.req_valid = !req_empty;

  // Write-data channel.
  tessel_fifo #(.Width(WW), .Depth(2)) u_w (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (m_req_i.w_valid),
    .data_i  ({m_req_i.w_data, m_req_i.w_strb, m_req_i.w_last}),
    .pop_i   (w_fire),
    .head_o  ({s_req_o.w_data, s_req_o.w_strb, s_req_o.w_last}),
    .empty_o (w_empty),
    .full_o  (w_full)
  );
  assign m_rsp_o.w_ready = !w_full;
  // The port promises that write data never comes before its request: the
  // two channels have separate slices, and a request can sit in its slice
  // while the memory is not ready. So W beats pass only while some write
  // request that went out on the port still lacks data.
  logic [4:0] wpend_q, wpend_d;   // writes sent on the port, data incomplete
  logic       w_fire;
  assign s_req_o.w_valid = !w_empty && wpend_q != 5'd0;
  assign w_fire          = s_req_o.w_valid && s_rsp_i.w_ready;

  always_comb begin
    wpend_d = wpend_q;
    if (s_req_o.req_valid && s_rsp_i.req_ready && s_req_o.req_write) wpend_d = wpend_d + 5'd1;
    if (w_fire && s_req_o.w_last)                                    wpend_d = wpend_d - 5'd1;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) wpend_q <= 5'd0;
    else         wpend_q <= wpend_d;
  end

  // Read-response channel.
  tessel_fifo #(.Width(RW), .Depth(2)) u_r (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (s_rsp_i.r_valid),
    .data_i  ({s_rsp_i.r_data, s_rsp_i.r_id, s_rsp_i.r_last, s_rsp_i.r_err}),
    .pop_i   (m_req_i.r_ready),
    .head_o  ({m_rsp_o.r_data, m_rsp_o.r_id, m_rsp_o.r_last, m_rsp_o.r_err}),
    .empty_o (r_empty),
    .full_o  (r_full)
  );
  assign s_req_o.r_ready = !r_full;
  assign m_rsp_o.r_valid = !r_empty;

  // Write-response channel.
  tessel_fifo #(.Width(BW), .Depth(2)) u_b (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (s_rsp_i.b_valid),
    .data_i  ({s_rsp_i.b_id, s_rsp_i.b_err}),
    .pop_i   (m_req_i.b_ready),
    .head_o  ({m_rsp_o.b_id, m_rsp_o.b_err}),
    .empty_o (b_empty),
    .full_o  (b_full)
  );
  assign s_req_o.b_ready = !b_full;
  assign m_rsp_o.b_valid = !b_empty;

endmodule

`default_nettype wire
