// memport_tb_top: the memory-port path under test in the memport bench:
// the arbiter (three masters) followed by the SoC's register slice, as in
// tessel_soc (Slice=1), or the arbiter alone (Slice=0), so the arbiter's own
// output is held to the port rules too. Test-only wrapper; the bench drives
// both ends from C++.
`default_nettype none

module memport_tb_top #(
  parameter int unsigned N   = 3,
  parameter int unsigned IdW = 4,
  parameter bit          Slice = 1'b1,
  localparam int unsigned SW = IdW + 2
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

  logic              p_req_valid, p_req_ready, p_req_write;
  logic [31:0]       p_req_addr;
  logic [7:0]        p_req_len;
  logic [SW-1:0]     p_req_id, p_r_id, p_b_id;
  logic              p_w_valid, p_w_ready, p_w_last;
  logic [63:0]       p_w_data, p_r_data;
  logic [7:0]        p_w_strb;
  logic              p_r_valid, p_r_ready, p_r_last, p_r_err;
  logic              p_b_valid, p_b_ready, p_b_err;

  tessel_memport_arbiter #(.NumMasters(N), .IdW(IdW), .IdxW(2)) u_arb (
    .clk_i (clk_i),
    .rst_ni (rst_ni),
    .m_req_valid_i (m_req_valid_i),
    .m_req_ready_o (m_req_ready_o),
    .m_req_write_i (m_req_write_i),
    .m_req_addr_i (m_req_addr_i),
    .m_req_len_i (m_req_len_i),
    .m_req_id_i (m_req_id_i),
    .m_w_valid_i (m_w_valid_i),
    .m_w_ready_o (m_w_ready_o),
    .m_w_data_i (m_w_data_i),
    .m_w_strb_i (m_w_strb_i),
    .m_w_last_i (m_w_last_i),
    .m_r_valid_o (m_r_valid_o),
    .m_r_ready_i (m_r_ready_i),
    .m_r_data_o (m_r_data_o),
    .m_r_id_o (m_r_id_o),
    .m_r_last_o (m_r_last_o),
    .m_r_err_o (m_r_err_o),
    .m_b_valid_o (m_b_valid_o),
    .m_b_ready_i (m_b_ready_i),
    .m_b_id_o (m_b_id_o),
    .m_b_err_o (m_b_err_o),
    .s_req_valid_o (p_req_valid),
    .s_req_ready_i (p_req_ready),
    .s_req_write_o (p_req_write),
    .s_req_addr_o (p_req_addr),
    .s_req_len_o (p_req_len),
    .s_req_id_o (p_req_id),
    .s_w_valid_o (p_w_valid),
    .s_w_ready_i (p_w_ready),
    .s_w_data_o (p_w_data),
    .s_w_strb_o (p_w_strb),
    .s_w_last_o (p_w_last),
    .s_r_valid_i (p_r_valid),
    .s_r_ready_o (p_r_ready),
    .s_r_data_i (p_r_data),
    .s_r_id_i (p_r_id),
    .s_r_last_i (p_r_last),
    .s_r_err_i (p_r_err),
    .s_b_valid_i (p_b_valid),
    .s_b_ready_o (p_b_ready),
    .s_b_id_i (p_b_id),
    .s_b_err_i (p_b_err)
  );

  if (Slice) begin : g_slice
    tessel_memport_regslice #(.IdW(SW)) u_slice (
      .clk_i (clk_i),
      .rst_ni (rst_ni),
      .m_req_valid_i (p_req_valid),
      .m_req_ready_o (p_req_ready),
      .m_req_write_i (p_req_write),
      .m_req_addr_i (p_req_addr),
      .m_req_len_i (p_req_len),
      .m_req_id_i (p_req_id),
      .m_w_valid_i (p_w_valid),
      .m_w_ready_o (p_w_ready),
      .m_w_data_i (p_w_data),
      .m_w_strb_i (p_w_strb),
      .m_w_last_i (p_w_last),
      .m_r_valid_o (p_r_valid),
      .m_r_ready_i (p_r_ready),
      .m_r_data_o (p_r_data),
      .m_r_id_o (p_r_id),
      .m_r_last_o (p_r_last),
      .m_r_err_o (p_r_err),
      .m_b_valid_o (p_b_valid),
      .m_b_ready_i (p_b_ready),
      .m_b_id_o (p_b_id),
      .m_b_err_o (p_b_err),
      .s_req_valid_o (s_req_valid_o),
      .s_req_ready_i (s_req_ready_i),
      .s_req_write_o (s_req_write_o),
      .s_req_addr_o (s_req_addr_o),
      .s_req_len_o (s_req_len_o),
      .s_req_id_o (s_req_id_o),
      .s_w_valid_o (s_w_valid_o),
      .s_w_ready_i (s_w_ready_i),
      .s_w_data_o (s_w_data_o),
      .s_w_strb_o (s_w_strb_o),
      .s_w_last_o (s_w_last_o),
      .s_r_valid_i (s_r_valid_i),
      .s_r_ready_o (s_r_ready_o),
      .s_r_data_i (s_r_data_i),
      .s_r_id_i (s_r_id_i),
      .s_r_last_i (s_r_last_i),
      .s_r_err_i (s_r_err_i),
      .s_b_valid_i (s_b_valid_i),
      .s_b_ready_o (s_b_ready_o),
      .s_b_id_i (s_b_id_i),
      .s_b_err_i (s_b_err_i)
    );
  end else begin : g_direct
    assign s_req_valid_o = p_req_valid;
    assign p_req_ready = s_req_ready_i;
    assign s_req_write_o = p_req_write;
    assign s_req_addr_o = p_req_addr;
    assign s_req_len_o = p_req_len;
    assign s_req_id_o = p_req_id;
    assign s_w_valid_o = p_w_valid;
    assign p_w_ready = s_w_ready_i;
    assign s_w_data_o = p_w_data;
    assign s_w_strb_o = p_w_strb;
    assign s_w_last_o = p_w_last;
    assign p_r_valid = s_r_valid_i;
    assign s_r_ready_o = p_r_ready;
    assign p_r_data = s_r_data_i;
    assign p_r_id = s_r_id_i;
    assign p_r_last = s_r_last_i;
    assign p_r_err = s_r_err_i;
    assign p_b_valid = s_b_valid_i;
    assign s_b_ready_o = p_b_ready;
    assign p_b_id = s_b_id_i;
    assign p_b_err = s_b_err_i;
  end

endmodule

`default_nettype wire
