// tessel_memport_arbiter: shares one memory port (docs/memory-port.md)
// between NumMasters masters (0 = core I-bus, 1 = core D-bus, 2 = NPU DMA).
//
// Requests: round robin; a request that was offered but not yet taken keeps
// its grant, so the port sees stable fields. The master index goes above the
// master's own id bits ({index, id[MstIdW-1:0]}, tessel_memport_pkg);
// responses are routed back on those bits and the master sees its own id.
// Write data follows write requests in the order they were granted: a FIFO
// of granted writers picks whose W beats pass. Up to 2**IdxW masters.
`default_nettype none

module tessel_memport_arbiter #(
  parameter int unsigned NumMasters = 2,
  parameter int unsigned WDepth     = 8,   // writes granted, data not done
  localparam int unsigned N    = NumMasters,
  localparam int unsigned NW   = (N > 1) ? $clog2(N) : 1,  // index width inside
  localparam int unsigned QW   = tessel_memport_pkg::ReqW,
  localparam int unsigned PW   = tessel_memport_pkg::RspW,
  localparam int unsigned MIW  = tessel_memport_pkg::MstIdW,
  localparam int unsigned IdxW = tessel_memport_pkg::IdxW
) (
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,
  // Masters: master i's req_t at [i*QW +: QW], its rsp_t at [i*PW +: PW].
  input  wire logic [N*QW-1:0]          m_req_i,
  output      logic [N*PW-1:0]          m_rsp_o,
  // The port.
  output      tessel_memport_pkg::req_t s_req_o,
  input  wire tessel_memport_pkg::rsp_t s_rsp_i
);

  // ---- the masters' handshake bits, one per master ------------------------
  logic [N-1:0] m_req_valid, m_req_write, m_w_valid, m_r_ready, m_b_ready;
  // A master whose R ready follows its request ready (the NPU's DMA does,
  // through one always block) closes a loop through m_req_i and m_rsp_o,
  // where Verilator sees each as one signal: a false loop, no bit of it
  // depends on itself (m_req_ready depends on the valids only).
  /* verilator lint_off UNOPTFLAT */
  logic [N-1:0] m_req_ready;
  /* verilator lint_on UNOPTFLAT */
  logic [N-1:0] m_w_ready, m_r_valid, m_b_valid;
  // loop temporaries: one master's structs
  /* verilator lint_off UNUSEDSIGNAL */
  tessel_memport_pkg::req_t mreq;     // only its handshake bits are read
  /* verilator lint_on UNUSEDSIGNAL */
  tessel_memport_pkg::rsp_t mrsp;

  always_comb begin
    mreq = '0;
    for (int i = 0; i < N; i++) begin
      mreq           = m_req_i[i*QW +: QW];
      m_req_valid[i] = mreq.req_valid;
      m_req_write[i] = mreq.req_write;
      m_w_valid[i]   = mreq.w_valid;
      m_r_ready[i]   = mreq.r_ready;
      m_b_ready[i]   = mreq.b_ready;
    end
  end

  // Every master sees the response channels' payload, with its own id (the
  // index bits cleared), and its own valid and ready bits.
  always_comb begin
    mrsp = '0;
    for (int i = 0; i < N; i++) begin
      mrsp           = s_rsp_i;
      mrsp.req_ready = m_req_ready[i];
      mrsp.w_ready   = m_w_ready[i];
      mrsp.r_valid   = m_r_valid[i];
      mrsp.r_id      = {IdxW'(0), s_rsp_i.r_id[MIW-1:0]};
      mrsp.b_valid   = m_b_valid[i];
      mrsp.b_id      = {IdxW'(0), s_rsp_i.b_id[MIW-1:0]};
      m_rsp_o[i*PW +: PW] = mrsp;
    end
  end

  // ---- request channel -------------------------------------------------
  logic [NW-1:0]   rr_q, rr_d;          // first master to consider
  logic            lock_q, lock_d;      // offered last cycle, not taken
  logic [NW-1:0]   lock_idx_q, lock_idx_d;
  logic [NW-1:0]   gnt;
  logic            gnt_valid, req_fire;
  logic            wq_full, wq_empty;
  logic [NW-1:0]   wq_head;
  logic [N-1:0]    eligible;
  logic [NW:0]     idx;                 // loop temporary of the grant search

  // A write may be granted only if there is room to remember its W order.
  always_comb begin
    for (int i = 0; i < N; i++) begin
      eligible[i] = m_req_valid[i] && !(m_req_write[i] && wq_full);
    end
  end

  always_comb begin
    idx       = '0;
    gnt       = lock_idx_q;
    gnt_valid = lock_q;
    if (!lock_q) begin
      for (int k = N - 1; k >= 0; k--) begin
        // Walk backwards so the last assignment is the first in rr order.
        idx = {1'b0, rr_q} + (NW+1)'(k);
        if (idx >= (NW+1)'(N)) idx = idx - (NW+1)'(N);
        if (eligible[idx[NW-1:0]]) begin
          gnt       = idx[NW-1:0];
          gnt_valid = 1'b1;
        end
      end
    end
  end

  // The granted master's request, and the master whose W beats pass: an
  // N-way select each (an index times QW, which is no power of two, would
  // make yosys build a barrel shifter).
  tessel_memport_pkg::req_t gnt_req;
  /* verilator lint_off UNUSEDSIGNAL */
  tessel_memport_pkg::req_t w_req;    // only its W payload is read
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    gnt_req = '0;
    w_req   = '0;
    for (int i = 0; i < N; i++) begin
      if (gnt == NW'(i))     gnt_req = m_req_i[i*QW +: QW];
      if (wq_head == NW'(i)) w_req   = m_req_i[i*QW +: QW];
    end
  end
  assign req_fire = gnt_valid && s_rsp_i.req_ready;

  always_comb begin
    m_req_ready = '0;
    if (gnt_valid) m_req_ready[gnt] = s_rsp_i.req_ready;
  end

  always_comb begin
    rr_d       = rr_q;
    lock_d     = gnt_valid && !s_rsp_i.req_ready;
    lock_idx_d = gnt;
    if (req_fire) rr_d = (gnt == NW'(N - 1)) ? '0 : gnt + 1'b1;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rr_q       <= '0;
      lock_q     <= 1'b0;
      lock_idx_q <= '0;
    end else begin
      rr_q       <= rr_d;
      lock_q     <= lock_d;
      lock_idx_q <= lock_idx_d;
    end
  end

  // ---- write data: in the order writes were granted ----------------------
  logic w_fire;

  tessel_fifo #(.Width(NW), .Depth(WDepth)) u_wq (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (req_fire && gnt_req.req_write),
    .data_i  (gnt),
    .pop_i   (w_fire && w_req.w_last),
    .head_o  (wq_head),
    .empty_o (wq_empty),
    .full_o  (wq_full)
  );

  logic w_valid;
  assign w_valid = !wq_empty && m_w_valid[wq_head];
  assign w_fire  = w_valid && s_rsp_i.w_ready;

  always_comb begin
    m_w_ready = '0;
    if (!wq_empty) m_w_ready[wq_head] = s_rsp_i.w_ready;
  end

  // ---- responses: routed on the id's master-index bits ---------------------
  logic [IdxW-1:0] r_idx, b_idx;
  logic [NW-1:0]   r_sel, b_sel;
  logic            r_ready, b_ready;
  assign r_idx = s_rsp_i.r_id[MIW +: IdxW];
  assign b_idx = s_rsp_i.b_id[MIW +: IdxW];
  assign r_sel = r_idx[NW-1:0];
  assign b_sel = b_idx[NW-1:0];

  always_comb begin
    m_r_valid = '0;
    m_b_valid = '0;
    r_ready   = 1'b0;
    b_ready   = 1'b0;
    if ({1'b0, r_idx} < (IdxW+1)'(N)) begin
      m_r_valid[r_sel] = s_rsp_i.r_valid;
      r_ready          = m_r_ready[r_sel];
    end
    if ({1'b0, b_idx} < (IdxW+1)'(N)) begin
      m_b_valid[b_sel] = s_rsp_i.b_valid;
      b_ready          = m_b_ready[b_sel];
    end
  end

  // ---- the port --------------------------------------------------------------
  always_comb begin
    s_req_o           = gnt_req;
    s_req_o.req_valid = gnt_valid;
    s_req_o.req_id    = {IdxW'(gnt), gnt_req.req_id[MIW-1:0]};
    s_req_o.w_valid   = w_valid;
    s_req_o.w_data    = w_req.w_data;
    s_req_o.w_strb    = w_req.w_strb;
    s_req_o.w_last    = w_req.w_last;
    s_req_o.r_ready   = r_ready;
    s_req_o.b_ready   = b_ready;
  end

endmodule

`default_nettype wire
