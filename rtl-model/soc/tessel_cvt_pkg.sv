// tessel_cvt_pkg: the SoC converter's arithmetic (tessel_cvt), as pure
// combinational functions that give, bit for bit, what the firmware's
// shared/tfw_fallback.c computes:
//   cvt_quantize    (uint8_t)tfw_quantize(x, scale, zp, lo, hi), lo/hi those
//                   of int8 (-128, 127) or uint8 (0, 255);
//   cvt_dequantize  the f32 bits of tfw_dequantize(code, scale, zp).
// The steps, their names and their order are the C's (divisor_init's recip
// comes in from outside, quotient_bits, round_half_even, quantize_bits;
// scale_int, msb32); the comments give each value's range.
//
// Where the unit is exact (the firmware uses it only there and computes in
// software otherwise): scale a positive normal f32 of biased exponent 27..227
// (2^-100 .. 2^100), zp in -128..127 (int8) or 0..255 (uint8); x any f32
// pattern. quotient_bits does not take the C's float division for a
// subnormal, infinite or NaN x: with such a scale a subnormal quotient is
// below 2^-26 (the C's then rounds to 0 as +-0 does), inf / scale is inf,
// and NaN gives the zero point either way.
//
// Plain logic vectors only, so that Verilator 5.006 and yosys 0.23 both read
// it (tests/cvt: the cvt-arith bench holds it to the C; the SoC synthesis
// check reads it with yosys).
`default_nettype none

package tessel_cvt_pkg;

  localparam logic [31:0] InfBits = 32'h7f80_0000;  // +inf
  localparam logic [31:0] NanBits = 32'h7fc0_0000;  // the quiet NaN quotient_bits returns

  // The bits of x / scale correctly rounded (IEEE division, to nearest even),
  // except that quotients below 0.25 come back as +-0 and those of 2^32 or
  // more as +-2^33: all round_half_even needs to give the same integer as
  // the exact f32 quotient would. +-inf and NaN x give +-inf and NaN.
  // recip = floor(2^55 / ms) in (2^31, 2^32), or 0 when ms = 2^23.
  function automatic logic [31:0] quotient_bits(input logic [31:0] bx, input logic [31:0] scale,
                                                input logic [31:0] recip);
    logic [7:0]        ex;    // x's biased exponent
    logic [7:0]        es;    // scale's biased exponent, 1..254
    logic              sign;  // the quotient's sign
    logic [23:0]       ms;    // scale's mantissa with the hidden bit, [2^23, 2^24)
    logic [23:0]       mx;    // x's mantissa with the hidden bit, [2^23, 2^24)
    logic              sh25;  // mx < ms: one more quotient bit (sh = 25, else 24)
    logic signed [9:0] e;     // E, the quotient's biased exponent, -127..380
    logic [25:0]       p30;   // (mx * recip) >> 30 < 2^26: the 56-bit product's top bits
    logic [25:0]       q2;    // floor(mx * 2^sh / ms): 24 mantissa bits and a guard bit, < 2^25
    logic [25:0]       rem;   // mx * 2^sh - q2 * ms (mod 2^26), < 2 ms < 2^25
    logic [24:0]       q;     // the rounded mantissa, [2^23, 2^24]
    logic [7:0]        em1;   // E - 1, 124..157 where used
    ex   = bx[30:23];
    es   = scale[30:23];
    sign = bx[31] ^ scale[31];
    ms   = {1'b1, scale[22:0]};
    // |x| / |s| = (mx / ms) * 2^(ex - es); with mx < ms one more quotient bit
    mx   = {1'b1, bx[22:0]};
    sh25 = mx < ms;
    e    = 10'(ex) - 10'(es) + 10'd127 - 10'(sh25);
    // q2 and rem; the remainder is below 2 ms < 2^25, so its low 26 bits are all of it
    p30  = 26'((56'(mx) * 56'(recip)) >> 30);  // floor(mx * recip / 2^(55 - sh)) is q2 or one less
    if (recip == 32'd0) begin     // a power-of-two scale divides exactly (mx >= ms: sh = 24)
      q2  = 26'(mx) << 1;
      rem = 26'd0;
    end else begin
      q2  = sh25 ? p30 : {1'b0, p30[25:1]};
      rem = (sh25 ? {mx[0], 25'd0} : {mx[1:0], 24'd0}) - q2 * 26'(ms);
      if (rem >= 26'(ms)) begin
        q2  = q2 + 26'd1;
        rem = rem - 26'(ms);
      end
    end
    // to nearest, ties to even (a quotient of two 24-bit mantissas is never
    // exactly halfway: the tie clause is for the reader, not for the data)
    q   = q2[25:1];
    if (q2[0] && (rem != 26'd0 || q[0])) q = q + 25'd1;
    em1 = e[7:0] - 8'd1;
    if (ex == 8'd255) quotient_bits = (bx[22:0] != 23'd0) ? NanBits : {sign, InfBits[30:0]};
    else if (ex == 8'd0) quotient_bits = {sign, 31'd0};            // +-0, subnormal x
    else if (e <= 10'sd124) quotient_bits = {sign, 31'd0};         // below 0.25 even rounded up
    else if (e >= 10'sd159) quotient_bits = {sign, 8'd160, 23'd0}; // 2^32 or more
    else quotient_bits = {sign, {em1, 23'd0} + 31'(q)};           // a carry to 2^24 moves the exponent
  endfunction

  // Round half to even of a finite f32 (given as bits) to an integer, as a
  // signed 34-bit value; magnitudes of 2^32 and more come back as +-2^32
  // (they saturate anyway).
  function automatic logic signed [33:0] round_half_even(input logic [31:0] b);
    logic [7:0]  ex;      // biased exponent
    logic [23:0] m;       // mantissa with the hidden bit
    logic [4:0]  sh;      // 150 - ex, 1..25 where used
    logic [24:0] mg;      // {m, 0} >> sh: the integer part and the guard bit
    logic [24:0] below;   // the bits of {m, 0} under the guard bit
    logic [32:0] v;       // |result|, <= 2^32
    ex = b[30:23];
    m  = {1'b1, b[22:0]};
    sh = 5'(8'd150 - ex);
    // rem > half, or rem == half with q odd, as guard && (sticky || q odd)
    mg    = {m, 1'b0} >> sh;
    below = (25'd1 << sh) - 25'd1;
    if (ex >= 8'd159) v = 33'h1_0000_0000;                     // |q| >= 2^32: saturates
    else if (ex >= 8'd150) v = 33'(m) << (ex - 8'd150);        // an integer already
    else if (ex < 8'd125) v = 33'd0;                           // |q| < 0.25 (and subnormals)
    else v = 33'(mg[24:1]) + 33'(mg[0] && (({m, 1'b0} & below) != 25'd0 || mg[1]));
    round_half_even = b[31] ? -$signed({1'b0, v}) : $signed({1'b0, v});
  endfunction

  // The code of x quantised with scale and zp, clamped to int8 (u8 = 0) or
  // uint8 (u8 = 1); quantize_bits of the C. NaN gives the zero point; inf and
  // |q| >= 2^32 saturate whatever the zero point (round_half_even pins them
  // at +-2^32).
  function automatic logic [7:0] cvt_quantize(input logic [31:0] x, input logic [31:0] scale,
                                              input logic [31:0] recip, input logic signed [31:0] zp,
                                              input logic u8);
    logic [31:0]        qb;  // quotient_bits(x / scale)
    logic signed [35:0] v;   // the rounded quotient + zp, |v| < 2^33
    logic signed [35:0] lo;  // -128 or 0
    logic signed [35:0] hi;  // 127 or 255
    qb = quotient_bits(x, scale, recip);
    lo = u8 ? 36'sd0 : -36'sd128;
    hi = u8 ? 36'sd255 : 36'sd127;
    if (qb[30:0] > InfBits[30:0]) v = 36'(zp);
    else v = 36'(round_half_even(qb)) + 36'(zp);
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    cvt_quantize = v[7:0];
  endfunction

  // Bit index of the highest set bit of v > 0.
  function automatic logic [4:0] msb32(input logic [31:0] v_in);
    logic [31:0] v;
    logic [4:0]  n;
    v = v_in;
    n = 5'd0;
    if (v[31:16] != 16'd0) begin v = v >> 16; n = n + 5'd16; end
    if (v[15:8] != 8'd0) begin v = v >> 8; n = n + 5'd8; end
    if (v[7:4] != 4'd0) begin v = v >> 4; n = n + 5'd4; end
    if (v[3:2] != 2'd0) begin v = v >> 2; n = n + 5'd2; end
    msb32 = n + 5'(v[1]);
  endfunction

  // The f32 bits of (float)(code - zp) * scale as IEEE computes it, code
  // int8 (u8 = 0) or uint8 (u8 = 1): scale_int of the C, the product of |d|
  // and the scale's mantissa rounded once to nearest even. d = 0 gives 0
  // with the scale's sign (+0). zp is taken from its low 10 bits (exact for
  // -512..511, so d is in -639..767); the C's float path (a subnormal or
  // infinite result) is not taken for a scale of exponent 27..227.
  function automatic logic [31:0] cvt_dequantize(input logic [7:0] code, input logic u8,
                                                 input logic [31:0] scale,
                                                 /* verilator lint_off UNUSEDSIGNAL */  // zp[31:10]: -512..511 needs bits 9:0 only
                                                 input logic signed [31:0] zp);
                                                 /* verilator lint_on UNUSEDSIGNAL */
    logic signed [10:0] d;     // code - zp, -639..767
    logic               sign;  // the product's sign
    logic [9:0]         ad;    // |d| < 2^10
    logic [7:0]         es;    // scale's biased exponent
    logic [33:0]        pr;    // P = ad * ms < 2^34
    logic [4:0]         mb;    // msb32(ad), 0..9
    logic [3:0]         sh;    // t - 23 = msb32(ad) + (P >= 2^(msb + 24)), 0..10
    logic [24:0]        pg;    // {P, 0} >> sh: the mantissa and the guard bit
    logic [34:0]        below; // the bits of {P, 0} under the guard bit
    logic [24:0]        mant;  // the rounded mantissa, [2^23, 2^24]
    logic [7:0]         em1;   // E - 1 = es + sh - 1, the product's biased exponent less one
    d     = (u8 ? 11'(code) : 11'($signed(code))) - 11'($signed(zp[9:0]));
    sign  = scale[31] ^ d[10];
    ad    = d[10] ? 10'(-d) : d[9:0];
    es    = scale[30:23];
    pr    = 34'(ad) * 34'({1'b1, scale[22:0]});
    mb    = msb32(32'(ad));
    sh    = 4'(mb) + 4'(pr[6'(mb) + 6'd24]);  // the product's top bit is t = 23 + sh
    // rem > half, or rem == half with mant odd, as guard && (sticky || mant odd)
    pg    = 25'({pr, 1'b0} >> sh);
    below = (35'd1 << sh) - 35'd1;
    mant  = 25'(pg[24:1]) + 25'(pg[0] && (({pr, 1'b0} & below) != 35'd0 || pg[1]));
    em1   = es + 8'(sh) - 8'd1;
    if (ad == 10'd0) cvt_dequantize = {sign, 31'd0};                 // +-0
    else cvt_dequantize = {sign, {em1, 23'd0} + 31'(mant)};         // a carry may reach +-inf: right
  endfunction

endpackage

`default_nettype wire
