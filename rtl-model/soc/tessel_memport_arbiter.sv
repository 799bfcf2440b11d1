// tessel_memport_arbiter: shares one memory port (docs/memory-port.md)
// between NumMasters masters (0 = core I-bus, 1 = core D-bus, 2 = NPU DMA).
//
// Requests: round robin; a request that was offered but not yet taken keeps
// its grant, so the port sees stable fields. The master index is prepended
// to the id ({index, id}); responses are routed back on those bits and the
// master sees its own id. Write data follows write requests in the order
// they were granted: a FIFO of granted writers picks whose W beats pass.
`default_nettype none

module tessel_memport_arbiter #(
  parameter int unsigned NumMasters = 2,
  parameter int unsigned IdW        = 4,   // id bits of each master
  parameter int unsigned IdxW       = 2,   // master-index bits on the port
  parameter int unsigned WDepth     = 8,   // writes granted, data not done
  localparam int unsigned N  = NumMasters,
  localparam int unsigned SW = IdW + IdxW, // id width on the port
  localparam int unsigned NW = (N > 1) ? $clog2(N) : 1  // index width inside
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  // Masters (flattened: master i uses bits [i*W +: W]).
  input  wire logic [N-1:0]     m_req_valid_i,
  output      logic [N-1:0]     m_req_ready_o,
  input  wire logic [N-1:0]     m_req_write_i,
  input  wire logic [N*32-1:0]  m_req_addr_i,
  input  wire logic [N*8-1:0]   m_req_len_i,
  input  wire logic [N*IdW-1:0] m_req_id_i,
  input  wire logic [N-1:0]     m_w_valid_i,
  output      logic [N-1:0]     m_w_ready_o,
  input  wire logic [N*64-1:0]  m_w_data_i,
  input  wire logic [N*8-1:0]   m_w_strb_i,
  input  wire logic [N-1:0]     m_w_last_i,
  output      logic [N-1:0]     m_r_valid_o,
  input  wire logic [N-1:0]     m_r_ready_i,
  output      logic [63:0]      m_r_data_o,
  output      logic [IdW-1:0]   m_r_id_o,
  output      logic             m_r_last_o,
  output      logic             m_r_err_o,
  output      logic [N-1:0]     m_b_valid_o,
  input  wire logic [N-1:0]     m_b_ready_i,
  output      logic [IdW-1:0]   m_b_id_o,
  output      logic             m_b_err_o,
  // The port.
  output      logic             s_req_valid_o,
  input  wire logic             s_req_ready_i,
  output      logic             s_req_write_o,
  output      logic [31:0]      s_req_addr_o,
  output      logic [7:0]       s_req_len_o,
  output      logic [SW-1:0]    s_req_id_o,
  output      logic             s_w_valid_o,
  input  wire logic             s_w_ready_i,
  output      logic [63:0]      s_w_data_o,
  output      logic [7:0]       s_w_strb_o,
  output      logic             s_w_last_o,
  input  wire logic             s_r_valid_i,
  output      logic             s_r_ready_o,
  input  wire logic [63:0]      s_r_data_i,
  input  wire logic [SW-1:0]    s_r_id_i,
  input  wire logic             s_r_last_i,
  input  wire logic             s_r_err_i,
  input  wire logic             s_b_valid_i,
  output      logic             s_b_ready_o,
  input  wire logic [SW-1:0]    s_b_id_i,
  input  wire logic             s_b_err_i
);

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
      eligible[i] = m_req_valid_i[i] && !(m_req_write_i[i] && wq_full);
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

  assign s_req_valid_o = gnt_valid;
  assign s_req_write_o = m_req_write_i[gnt];
  assign s_req_addr_o  = m_req_addr_i[gnt*32 +: 32];
  assign s_req_len_o   = m_req_len_i[gnt*8 +: 8];
  assign s_req_id_o    = {IdxW'(gnt), m_req_id_i[gnt*IdW +: IdW]};
  assign req_fire      = gnt_valid && s_req_ready_i;

  always_comb begin
    m_req_ready_o = '0;
    if (gnt_valid) m_req_ready_o[gnt] = s_req_ready_i;
  end

  always_comb begin
    rr_d       = rr_q;
    lock_d     = gnt_valid && !s_req_ready_i;
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
    .push_i  (req_fire && s_req_write_o),
    .data_i  (gnt),
    .pop_i   (w_fire && s_w_last_o),
    .head_o  (wq_head),
    .empty_o (wq_empty),
    .full_o  (wq_full)
  );

  assign s_w_valid_o = !wq_empty && m_w_valid_i[wq_head];
  assign s_w_data_o  = m_w_data_i[wq_head*64 +: 64];
  assign s_w_strb_o  = m_w_strb_i[wq_head*8 +: 8];
  assign s_w_last_o  = m_w_last_i[wq_head];
  assign w_fire      = s_w_valid_o && s_w_ready_i;

  always_comb begin
    m_w_ready_o = '0;
    if (!wq_empty) m_w_ready_o[wq_head] = s_w_ready_i;
  end

  // ---- responses: routed on the id's master-index bits ---------------------
  logic [IdxW-1:0] r_idx, b_idx;
  logic [NW-1:0]   r_sel, b_sel;
  assign r_idx = s_r_id_i[SW-1:IdW];
  assign b_idx = s_b_id_i[SW-1:IdW];
  assign r_sel = r_idx[NW-1:0];
  assign b_sel = b_idx[NW-1:0];

  assign m_r_data_o = s_r_data_i;
  assign m_r_id_o   = s_r_id_i[IdW-1:0];
  assign m_r_last_o = s_r_last_i;
  assign m_r_err_o  = s_r_err_i;
  assign m_b_id_o   = s_b_id_i[IdW-1:0];
  assign m_b_err_o  = s_b_err_i;

  always_comb begin
    m_r_valid_o = '0;
    m_b_valid_o = '0;
    s_r_ready_o = 1'b0;
    s_b_ready_o = 1'b0;
    if ({1'b0, r_idx} < (IdxW+1)'(N)) begin
      m_r_valid_o[r_sel] = s_r_valid_i;
      s_r_ready_o        = m_r_ready_i[r_sel];
    end
    if ({1'b0, b_idx} < (IdxW+1)'(N)) begin
      m_b_valid_o[b_sel] = s_b_valid_i;
      s_b_ready_o        = m_b_ready_i[b_sel];
    end
  end

endmodule

`default_nettype wire
