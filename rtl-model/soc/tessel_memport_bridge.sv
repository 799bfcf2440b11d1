// tessel_memport_bridge: turns a core bus (32-bit words, in-order responses)
// into a memory-port master (docs/memory-port.md): every word access becomes
// a single-beat request on the 64-bit port with id 0.
//
// The port answers reads and writes on separate channels with no order
// between them, while the core needs its responses in order. So requests of
// one kind (read or write) may pile up in flight, and a request of the other
// kind waits until they are all answered.
`default_nettype none

module tessel_memport_bridge #(
  parameter int unsigned Depth = 4   // requests in flight (power of two)
) (
  input  wire logic           clk_i,
  input  wire logic           rst_ni,
  // Core bus.
  input  wire logic           req_valid_i,
  output      logic           req_ready_o,
  input  wire logic           req_we_i,
  input  wire logic [3:0]     req_be_i,
  input  wire logic [31:0]    req_addr_i,
  input  wire logic [31:0]    req_wdata_i,
  output      logic           rsp_valid_o,
  output      logic [31:0]    rsp_rdata_o,
  output      logic           rsp_err_o,
  // Memory-port master.
  output      tessel_memport_pkg::req_t m_req_o,
  input  wire tessel_memport_pkg::rsp_t m_rsp_i
);

  localparam int unsigned CntW = $clog2(Depth) + 1;

  // The request being handed to the port; request and write data are
  // separate channels and may be taken in different cycles.
  logic        pend_q, pend_d, req_sent_q, req_sent_d, w_sent_q, w_sent_d;
  logic        pend_we_q, pend_we_d;
  logic [3:0]  pend_be_q, pend_be_d;
  logic [31:0] pend_addr_q, pend_addr_d, pend_wdata_q, pend_wdata_d;

  logic [CntW-1:0] cnt_q, cnt_d;          // accepted from the core, unanswered
  logic            kind_we_q, kind_we_d;  // kind of those requests
  logic            pend_done, accept, rsp_fire, kind_ok;
  logic            lane_head, lane_full, lane_empty;

  assign m_req_o.req_valid = pend_q && !req_sent_q;
  assign m_req_o.req_write = pend_we_q;
  assign m_req_o.req_addr  = {pend_addr_q[31:2], 2'b00};
  assign m_req_o.req_len   = 8'd0;
  assign m_req_o.req_id    = '0;
  assign m_req_o.w_valid   = pend_q && pend_we_q && !w_sent_q;
  assign m_req_o.w_data    = {pend_wdata_q, pend_wdata_q};
  assign m_req_o.w_strb    = pend_addr_q[2] ? {pend_be_q, 4'b0000} : {4'b0000, pend_be_q};
  assign m_req_o.w_last    = 1'b1;
  assign m_req_o.r_ready   = 1'b1;   // the core always takes responses
  assign m_req_o.b_ready   = 1'b1;

  assign pend_done = pend_q && (req_sent_q || m_rsp_i.req_ready)
                     && (!pend_we_q || w_sent_q || m_rsp_i.w_ready);
  assign kind_ok   = cnt_q == '0 || kind_we_q == req_we_i;
  assign req_ready_o = (!pend_q || pend_done) && kind_ok
                       && cnt_q != CntW'(Depth) && !lane_full;
  assign accept    = req_valid_i && req_ready_o;

  // Only one kind is in flight, so at most one of these fires per cycle.
  assign rsp_fire    = m_rsp_i.r_valid || m_rsp_i.b_valid;
  assign rsp_valid_o = rsp_fire;
  assign rsp_err_o   = m_rsp_i.r_valid ? m_rsp_i.r_err : m_rsp_i.b_err;
  assign rsp_rdata_o = lane_head ? m_rsp_i.r_data[63:32] : m_rsp_i.r_data[31:0];

  always_comb begin
    pend_d       = pend_q;
    req_sent_d   = req_sent_q;
    w_sent_d     = w_sent_q;
    pend_we_d    = pend_we_q;
    pend_be_d    = pend_be_q;
    pend_addr_d  = pend_addr_q;
    pend_wdata_d = pend_wdata_q;
    kind_we_d    = kind_we_q;
    cnt_d        = cnt_q;
    if (pend_q) begin
      if (m_req_o.req_valid && m_rsp_i.req_ready) req_sent_d = 1'b1;
      if (m_req_o.w_valid && m_rsp_i.w_ready)     w_sent_d   = 1'b1;
      if (pend_done) pend_d = 1'b0;
    end
    if (accept) begin
      pend_d       = 1'b1;
      req_sent_d   = 1'b0;
      w_sent_d     = 1'b0;
      pend_we_d    = req_we_i;
      pend_be_d    = req_be_i;
      pend_addr_d  = req_addr_i;
      pend_wdata_d = req_wdata_i;
      kind_we_d    = req_we_i;
    end
    if (accept && !rsp_fire) cnt_d = cnt_q + 1'b1;
    if (!accept && rsp_fire) cnt_d = cnt_q - 1'b1;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pend_q       <= 1'b0;
      req_sent_q   <= 1'b0;
      w_sent_q     <= 1'b0;
      pend_we_q    <= 1'b0;
      pend_be_q    <= 4'h0;
      pend_addr_q  <= 32'h0;
      pend_wdata_q <= 32'h0;
      kind_we_q    <= 1'b0;
      cnt_q        <= '0;
    end else begin
      pend_q       <= pend_d;
      req_sent_q   <= req_sent_d;
      w_sent_q     <= w_sent_d;
      pend_we_q    <= pend_we_d;
      pend_be_q    <= pend_be_d;
      pend_addr_q  <= pend_addr_d;
      pend_wdata_q <= pend_wdata_d;
      kind_we_q    <= kind_we_d;
      cnt_q        <= cnt_d;
    end
  end

  // Which half of the 64-bit beat each outstanding request wants.
  tessel_fifo #(.Width(1), .Depth(Depth)) u_lanes (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (accept),
    .data_i  (req_addr_i[2]),
    .pop_i   (rsp_fire),
    .head_o  (lane_head),
    .empty_o (lane_empty),
    .full_o  (lane_full)
  );

  // Ids and last are fixed for single-beat id-0 traffic: nothing to check.
  logic unused;
  assign unused = ^{m_rsp_i.r_id, m_rsp_i.r_last, m_rsp_i.b_id, lane_empty};

endmodule

`default_nettype wire
