`default_nettype none
// tessel_core_muldiv_step: one step of the iterative M unit, combinational.
// Division (restoring): shift the next dividend bit into the partial
// remainder and subtract the divisor if it fits; the quotient bit enters lo.
// Multiplication (shift-add): add the multiplicand if the low multiplier bit
// is set, then shift {hi, lo} right; the product's low bits enter lo.
module tessel_core_muldiv_step (
  input  wire logic        div_i,   // division step, else multiplication step
  // The partial remainder stays below the divisor and the upper product below
  // 2^32 after every step, so 32 bits hold either.
  input  wire logic [31:0] hi_i,    // partial remainder / upper product
  input  wire logic [31:0] lo_i,    // dividend->quotient / multiplier->lower product
  input  wire logic [31:0] m_i,     // divisor / multiplicand
  output      logic [31:0] hi_o,
  output      logic [31:0] lo_o
);
  logic [32:0] mul_sum;
  logic [32:0] div_shifted;
  // div_diff[33] is the borrow; when there is none the difference is below the
  // divisor, so bit 32 is always 0 where it is used
  /* verilator lint_off UNUSEDSIGNAL */
  logic [33:0] div_diff;
  /* verilator lint_on UNUSEDSIGNAL */
  assign mul_sum     = {1'b0, hi_i} + (lo_i[0] ? {1'b0, m_i} : 33'd0);
  assign div_shifted = {hi_i, lo_i[31]};
  assign div_diff    = {1'b0, div_shifted} - {2'b00, m_i};

  always_comb begin
    if (div_i) begin
      if (!div_diff[33]) begin
        hi_o = div_diff[31:0];
        lo_o = {lo_i[30:0], 1'b1};
      end else begin
        hi_o = div_shifted[31:0];
        lo_o = {lo_i[30:0], 1'b0};
      end
    end else begin
      hi_o = mul_sum[32:1];
      lo_o = {mul_sum[0], lo_i[31:1]};
    end
  end
endmodule
