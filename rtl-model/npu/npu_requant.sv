// npu_requant: the store epilogue of one lane, bit-exact with npu_requant()
// in sim/npu-model/npu_arith.c:
//   t = sat32(acc + bias); q = rne_shift(t * mult, shift & 63); clamp(q + zp, lo, hi)
// t*mult is exact in 64 bits (|t|,|mult| <= 2^31). rne_shift rounds half to
// even once. Combinational; the store unit registers around it.
// Only what the int8 result can depend on is formed (docs/npu-rtl.md, "Area"):
// fl = p >> s in 12 bits and whether it fits there (if not, q + zp is far
// outside int8 and the clamp takes lo or hi by p's sign), the guard bit
// p[s-1] and the sticky OR of the bits below it. No 64-bit shifter or
// 64-bit comparison.
`default_nettype none

module npu_requant (
  input  wire logic        en_i,      // q_o is looked at this cycle (else 0: nothing computed)
  input  wire logic [31:0] acc_i,
  input  wire logic [31:0] bias_i,
  input  wire logic [31:0] mult_i,
  input  wire logic [5:0]  shift_i,   // shift & 63
  input  wire logic [7:0]  zp_i,
  input  wire logic [7:0]  lo_i,
  input  wire logic [7:0]  hi_i,
  output      logic [7:0]  q_o
);
  logic signed [32:0]  sum;
  logic signed [31:0]  t;
  logic signed [63:0]  p;
  logic        [5:0]   s;
  logic signed [11:0]  fl;        // floor(p / 2^s), when it fits 12 bits
  logic                fits;      // floor(p / 2^s) is within -2^11 .. 2^11-1
  logic        [63:0]  diff;      // bit j: p[j] != p[j+1]
  logic        [63:0]  above;     // bits s+11 .. 62
  logic        [63:0]  below;     // bits 0 .. s-2
  logic                guard, sticky, up;
  logic signed [13:0]  qz;        // q + zp when fl fits

  always_comb begin
    sum = '0; t = '0; p = '0; s = '0; fl = '0; fits = 1'b0; diff = '0; above = '0; below = '0;
    guard = 1'b0; sticky = 1'b0; up = 1'b0; qz = '0;
    q_o = '0;
    if (en_i) begin
    sum = $signed({acc_i[31], acc_i}) + $signed({bias_i[31], bias_i});
    if (sum > 33'sd2147483647) t = 32'h7fffffff;
    else if (sum < -33'sd2147483648) t = 32'h80000000;
    else t = sum[31:0];
    p    = 64'($signed(t)) * 64'($signed(mult_i));
    s    = shift_i;
    fl   = 12'(p >>> s);
    // fl fits 12 bits iff p's bits from s+11 up to 63 are all equal
    diff  = 64'(p ^ (p >>> 1));
    above = (7'(s) + 7'd11 >= 7'd64) ? 64'd0 : ~((64'd1 << (7'(s) + 7'd11)) - 64'd1);
    fits  = (diff & above & 64'h7fff_ffff_ffff_ffff) == 64'd0;
    // round half to even: up when the guard bit is set and (anything below it, or fl is odd)
    guard  = (s != 6'd0) && p[6'(s - 6'd1)];
    below  = (s <= 6'd1) ? 64'd0 : (64'd1 << (s - 6'd1)) - 64'd1;
    sticky = (p & below) != 64'd0;
    up     = guard && (sticky || fl[0]);
    qz     = 14'(fl) + 14'(up) + 14'($signed(zp_i));
    if (!fits) q_o = p[63] ? lo_i : hi_i;
    else if (qz < 14'($signed(lo_i))) q_o = lo_i;
    else if (qz > 14'($signed(hi_i))) q_o = hi_i;
    else q_o = qz[7:0];
    end
  end
endmodule

`default_nettype wire
