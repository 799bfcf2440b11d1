// npu_requant: the store epilogue of one lane, bit-exact with npu_requant()
// in sim/npu-model/npu_arith.c:
//   t = sat32(acc + bias); q = rne_shift(t * mult, shift & 63); clamp(q + zp, lo, hi)
// t*mult is exact in 64 bits (|t|,|mult| <= 2^31). rne_shift rounds half to
// even once. Combinational; the store unit registers around it.
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
  logic signed [63:0]  fl;        // floor(p / 2^s)
  logic        [63:0]  rem;       // p - fl*2^s
  logic        [63:0]  half;
  logic signed [63:0]  q;
  logic signed [63:0]  qz;                        // |q| < 2^62: no 65th bit needed

  always_comb begin
    sum = '0; t = '0; p = '0; s = '0; fl = '0; rem = '0; half = '0; q = '0; qz = '0;
    q_o = '0;
    if (en_i) begin
    sum = $signed({acc_i[31], acc_i}) + $signed({bias_i[31], bias_i});
    if (sum > 33'sd2147483647) t = 32'h7fffffff;
    else if (sum < -33'sd2147483648) t = 32'h80000000;
    else t = sum[31:0];
    p    = 64'($signed(t)) * 64'($signed(mult_i));
    s    = shift_i;
    fl   = p >>> s;
    rem  = p & ((64'd1 << s) - 64'd1);
    half = (s == 6'd0) ? 64'd0 : (64'd1 << (s - 6'd1));
    q    = fl;
    if (s != 6'd0 && (rem > half || (rem == half && fl[0]))) q = fl + 64'sd1;
    qz   = q + 64'($signed(zp_i));
    if (qz < 64'($signed(lo_i))) q_o = lo_i;
    else if (qz > 64'($signed(hi_i))) q_o = hi_i;
    else q_o = qz[7:0];
    end
  end
endmodule

`default_nettype wire
