// cvt_arith_tb: tessel_cvt_pkg's two functions on ports, for the cvt-arith
// bench (cvt_arith_bench.cpp), which drives them from C++ against the
// firmware's tfw_quantize and tfw_dequantize. Purely combinational; test-only.
`default_nettype none

module cvt_arith_tb (
  input  wire logic [31:0]        x_i,      // f32 bits to quantise
  input  wire logic [31:0]        scale_i,  // f32 bits of the scale (both functions)
  input  wire logic [31:0]        recip_i,  // floor(2^55 / scale's mantissa), 0 for a power of two
  input  wire logic signed [31:0] zp_i,     // zero point (both functions)
  input  wire logic               u8_i,     // 1: uint8 codes, 0: int8
  input  wire logic [7:0]         code_i,   // code to dequantise
  output      logic [7:0]         q_o,      // cvt_quantize(x_i, ...)
  output      logic [31:0]        y_o       // cvt_dequantize(code_i, ...)
);

  assign q_o = tessel_cvt_pkg::cvt_quantize(x_i, scale_i, recip_i, zp_i, u8_i);
  assign y_o = tessel_cvt_pkg::cvt_dequantize(code_i, u8_i, scale_i, zp_i);

endmodule

`default_nettype wire
