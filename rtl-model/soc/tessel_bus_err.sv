// tessel_bus_err: the slave behind unmapped addresses and the reserved NPU
// windows. Accepts every request and answers it the next cycle with err,
// so the core takes an access-fault trap.
`default_nettype none

module tessel_bus_err (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        req_valid_i,
  output      logic        req_ready_o,
  output      logic        rsp_valid_o,
  output      logic [31:0] rsp_rdata_o,
  output      logic        rsp_err_o
);

  logic rsp_valid_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) rsp_valid_q <= 1'b0;
    else         rsp_valid_q <= req_valid_i;
  end

  assign req_ready_o = 1'b1;
  assign rsp_valid_o = rsp_valid_q;
  assign rsp_rdata_o = 32'h0;
  assign rsp_err_o   = 1'b1;

endmodule

`default_nettype wire
