// memport_tb_top: the memory-port path under test in the memport bench:
// the arbiter (three masters) followed by the SoC's register slice, as in
// tessel_soc (Slice=1), or the arbiter alone (Slice=0), so the arbiter's own
// output is held to the port rules too. Test-only wrapper; the bench drives
// both ends from C++, through the flat signals below (one per field, the
// masters' side by side), which this wrapper turns into the modules'
// tessel_memport_pkg structs.
`default_nettype none

module memport_tb_top #(
  parameter int unsigned N     = 3,
  parameter bit          Slice = 1'b1,
  localparam int unsigned IdW  = tessel_memport_pkg::MstIdW,  // a master's ids
  localparam int unsigned SW   = tessel_memport_pkg::IdW      // the port's
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [N-1:0] m_req_valid_i,
  output      logic [N-1:0] m_req_ready_o,
  input  wire logic [N-1:0] m_req_write_i,
  input  wire logic [N*32-1:0] m_req_addr_i,
  input  wire logic [N*8-1:0] m_req_len_i,
  input  wire logic [N*IdW-1:0] m_req_id_i,
  input  wire logic [N-1:0] m_w_valid_i,
  output      logic [N-1:0] m_w_ready_o,
  input  wire logic [N*64-1:0] m_w_data_i,
  input  wire logic [N*8-1:0] m_w_strb_i,
  input  wire logic [N-1:0] m_w_last_i,
  output      logic [N-1:0] m_r_valid_o,
  input  wire logic [N-1:0] m_r_ready_i,
  output      logic [64-1:0] m_r_data_o,
  output      logic [IdW-1:0] m_r_id_o,
  output      logic m_r_last_o,
  output      logic m_r_err_o,
  output      logic [N-1:0] m_b_valid_o,
  input  wire logic [N-1:0] m_b_ready_i,
  output      logic [IdW-1:0] m_b_id_o,
  output      logic m_b_err_o,
  output      logic s_req_valid_o,
  input  wire logic s_req_ready_i,
  output      logic s_req_write_o,
  output      logic [32-1:0] s_req_addr_o,
  output      logic [8-1:0] s_req_len_o,
  output      logic [SW-1:0] s_req_id_o,
  output      logic s_w_valid_o,
  input  wire logic s_w_ready_i,
  output      logic [64-1:0] s_w_data_o,
  output      logic [8-1:0] s_w_strb_o,
  output      logic s_w_last_o,
  input  wire logic s_r_valid_i,
  output      logic s_r_ready_o,
  input  wire logic [64-1:0] s_r_data_i,
  input  wire logic [SW-1:0] s_r_id_i,
  input  wire logic s_r_last_i,
  input  wire logic s_r_err_i,
  input  wire logic s_b_valid_i,
  output      logic s_b_ready_o,
  input  wire logic [SW-1:0] s_b_id_i,
  input  wire logic s_b_err_i
);

  localparam int unsigned QW = tessel_memport_pkg::ReqW;
  localparam int unsigned PW = tessel_memport_pkg::RspW;

  // The bench's flat signals as the arbiter's structs: masters m, the
  // arbiter's output p, the port s.
  logic [N*QW-1:0]          m_req;
  logic [N*PW-1:0]          m_rsp;
  tessel_memport_pkg::req_t mq, p_req, s_req;
  tessel_memport_pkg::rsp_t p_rsp, s_rsp;
  /* verilator lint_off UNUSEDSIGNAL */
  tessel_memport_pkg::rsp_t mp, m0;   // a master's handshake bits; the shared payload
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    mq = '0;
    for (int i = 0; i < N; i++) begin
      mq.req_valid = m_req_valid_i[i];
      mq.req_write = m_req_write_i[i];
      mq.req_addr  = m_req_addr_i[i*32 +: 32];
      mq.req_len   = m_req_len_i[i*8 +: 8];
      mq.req_id    = SW'(m_req_id_i[i*IdW +: IdW]);
      mq.w_valid   = m_w_valid_i[i];
      mq.w_data    = m_w_data_i[i*64 +: 64];
      mq.w_strb    = m_w_strb_i[i*8 +: 8];
      mq.w_last    = m_w_last_i[i];
      mq.r_ready   = m_r_ready_i[i];
      mq.b_ready   = m_b_ready_i[i];
      m_req[i*QW +: QW] = mq;
    end
  end

  always_comb begin
    mp = '0;
    for (int i = 0; i < N; i++) begin
      mp = m_rsp[i*PW +: PW];
      m_req_ready_o[i] = mp.req_ready;
      m_w_ready_o[i]   = mp.w_ready;
      m_r_valid_o[i]   = mp.r_valid;
      m_b_valid_o[i]   = mp.b_valid;
    end
  end
  // the shared payload, from master 0's copy
  assign m0         = m_rsp[0 +: PW];
  assign m_r_data_o = m0.r_data;
  assign m_r_id_o   = m0.r_id[IdW-1:0];
  assign m_r_last_o = m0.r_last;
  assign m_r_err_o  = m0.r_err;
  assign m_b_id_o   = m0.b_id[IdW-1:0];
  assign m_b_err_o  = m0.b_err;

  tessel_memport_arbiter #(.NumMasters(N)) u_arb (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .m_req_i (m_req),
    .m_rsp_o (m_rsp),
    .s_req_o (p_req),
    .s_rsp_i (p_rsp)
  );

  if (Slice) begin : g_slice
    tessel_memport_regslice u_slice (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .m_req_i (p_req),
      .m_rsp_o (p_rsp),
      .s_req_o (s_req),
      .s_rsp_i (s_rsp)
    );
  end else begin : g_direct
    assign s_req = p_req;
    assign p_rsp = s_rsp;
  end

  assign s_req_valid_o   = s_req.req_valid;
  assign s_req_write_o   = s_req.req_write;
  assign s_req_addr_o    = s_req.req_addr;
  assign s_req_len_o     = s_req.req_len;
  assign s_req_id_o      = s_req.req_id;
  assign s_w_valid_o     = s_req.w_valid;
  assign s_w_data_o      = s_req.w_data;
  assign s_w_strb_o      = s_req.w_strb;
  assign s_w_last_o      = s_req.w_last;
  assign s_r_ready_o     = s_req.r_ready;
  assign s_b_ready_o     = s_req.b_ready;
  assign s_rsp.req_ready = s_req_ready_i;
  assign s_rsp.w_ready   = s_w_ready_i;
  assign s_rsp.r_valid   = s_r_valid_i;
  assign s_rsp.r_data    = s_r_data_i;
  assign s_rsp.r_id      = s_r_id_i;
  assign s_rsp.r_last    = s_r_last_i;
  assign s_rsp.r_err     = s_r_err_i;
  assign s_rsp.b_valid   = s_b_valid_i;
  assign s_rsp.b_id      = s_b_id_i;
  assign s_rsp.b_err     = s_b_err_i;

endmodule

`default_nettype wire
