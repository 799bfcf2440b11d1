// dcache_tb: the data cache (tessel_dcache) for the dcache bench
// (dcache_bench.cpp), which drives both of its sides from C++: the core bus
// as the core's loads and stores would (the DRAM window bus_* and the
// DCACHE register window reg_*), and a memory behind the port (m_*), one
// plain signal per field of tessel_memport_pkg's req_t and rsp_t.
// Test-only wrapper.
`default_nettype none

module dcache_tb #(
  parameter  int unsigned Lines = 4,
  localparam int unsigned IdW   = tessel_memport_pkg::IdW   // the port's ids
) (
  input  wire logic           clk_i,
  input  wire logic           rst_ni,
  // Core bus, the DRAM window.
  input  wire logic           bus_req_valid_i,
  output      logic           bus_req_ready_o,
  input  wire logic           bus_req_we_i,
  input  wire logic [3:0]     bus_req_be_i,
  input  wire logic [31:0]    bus_req_addr_i,
  input  wire logic [31:0]    bus_req_wdata_i,
  output      logic           bus_rsp_valid_o,
  output      logic [31:0]    bus_rsp_rdata_o,
  output      logic           bus_rsp_err_o,
  // Core bus, the DCACHE window.
  input  wire logic           reg_req_valid_i,
  output      logic           reg_req_ready_o,
  input  wire logic           reg_req_we_i,
  input  wire logic [3:0]     reg_req_be_i,
  input  wire logic [11:0]    reg_req_addr_i,
  output      logic           reg_rsp_valid_o,
  output      logic [31:0]    reg_rsp_rdata_o,
  output      logic           reg_rsp_err_o,
  // Memory port: request and write data (the cache drives them) ...
  output      logic           m_req_valid_o,
  input  wire logic           m_req_ready_i,
  output      logic           m_req_write_o,
  output      logic [31:0]    m_req_addr_o,
  output      logic [7:0]     m_req_len_o,
  output      logic [IdW-1:0] m_req_id_o,
  output      logic           m_w_valid_o,
  input  wire logic           m_w_ready_i,
  output      logic [63:0]    m_w_data_o,
  output      logic [7:0]     m_w_strb_o,
  output      logic           m_w_last_o,
  // ... and the responses (the memory drives them).
  input  wire logic           m_r_valid_i,
  output      logic           m_r_ready_o,
  input  wire logic [63:0]    m_r_data_i,
  input  wire logic [IdW-1:0] m_r_id_i,
  input  wire logic           m_r_last_i,
  input  wire logic           m_r_err_i,
  input  wire logic           m_b_valid_i,
  output      logic           m_b_ready_o,
  input  wire logic [IdW-1:0] m_b_id_i,
  input  wire logic           m_b_err_i
);

  tessel_memport_pkg::req_t m_req;
  tessel_memport_pkg::rsp_t m_rsp;

  tessel_dcache #(.Lines(Lines)) u_dcache (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .req_valid_i     (bus_req_valid_i),
    .req_ready_o     (bus_req_ready_o),
    .req_we_i        (bus_req_we_i),
    .req_be_i        (bus_req_be_i),
    .req_addr_i      (bus_req_addr_i),
    .req_wdata_i     (bus_req_wdata_i),
    .rsp_valid_o     (bus_rsp_valid_o),
    .rsp_rdata_o     (bus_rsp_rdata_o),
    .rsp_err_o       (bus_rsp_err_o),
    .reg_req_valid_i (reg_req_valid_i),
    .reg_req_ready_o (reg_req_ready_o),
    .reg_req_we_i    (reg_req_we_i),
    .reg_req_be_i    (reg_req_be_i),
    .reg_req_addr_i  (reg_req_addr_i),
    .reg_rsp_valid_o (reg_rsp_valid_o),
    .reg_rsp_rdata_o (reg_rsp_rdata_o),
    .reg_rsp_err_o   (reg_rsp_err_o),
    .m_req_o         (m_req),
    .m_rsp_i         (m_rsp)
  );

  assign m_req_valid_o = m_req.req_valid;
  assign m_req_write_o = m_req.req_write;
  assign m_req_addr_o  = m_req.req_addr;
  assign m_req_len_o   = m_req.req_len;
  assign m_req_id_o    = m_req.req_id;
  assign m_w_valid_o   = m_req.w_valid;
  assign m_w_data_o    = m_req.w_data;
  assign m_w_strb_o    = m_req.w_strb;
  assign m_w_last_o    = m_req.w_last;
  assign m_r_ready_o   = m_req.r_ready;
  assign m_b_ready_o   = m_req.b_ready;

  assign m_rsp.req_ready = m_req_ready_i;
  assign m_rsp.w_ready   = m_w_ready_i;
  assign m_rsp.r_valid   = m_r_valid_i;
  assign m_rsp.r_data    = m_r_data_i;
  assign m_rsp.r_id      = m_r_id_i;
  assign m_rsp.r_last    = m_r_last_i;
  assign m_rsp.r_err     = m_r_err_i;
  assign m_rsp.b_valid   = m_b_valid_i;
  assign m_rsp.b_id      = m_b_id_i;
  assign m_rsp.b_err     = m_b_err_i;

endmodule

`default_nettype wire
