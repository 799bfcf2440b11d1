`default_nettype none
// tessel_core_lite_muldiv: the M extension of the lite core (tessel_core_lite),
// built for size: one shift-add / restoring-division step per cycle
// (tessel_core_muldiv_step), 32 steps, no DSPs, no early exit.
//
// The lite core is not pipelined: while an M instruction runs, its operands
// stay on the register file's read ports, so a_i and b_i are stable from
// start_i to done_o and the divisor / multiplicand needs no register of its
// own. Multiplication is commutative, so both ops load a's magnitude into lo
// (dividend or multiplier) and take b's magnitude as m (divisor or
// multiplicand).
//
//   start_i (one cycle) -> 32 step cycles -> done_o with result_o (one cycle)
module tessel_core_lite_muldiv (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        start_i,     // an M instruction begins (a_i, b_i, op_i final)
  input  wire logic [2:0]  op_i,        // funct3: mul mulh mulhsu mulhu div divu rem remu
  input  wire logic [31:0] a_i,         // rs1, stable until done_o
  input  wire logic [31:0] b_i,         // rs2, stable until done_o
  output      logic        done_o,      // result_o is valid this cycle
  output      logic [31:0] result_o
);
  logic        busy_q, busy_d;
  logic        done_q, done_d;
  logic [4:0]  count_q, count_d;   // steps done, modulo 32
  logic [31:0] hi_q, hi_d;         // partial remainder / upper product
  logic [31:0] lo_q, lo_d;         // quotient / lower product

  logic        is_div, a_signed, b_signed, a_neg, b_neg;
  logic [31:0] a_mag, b_mag;
  assign is_div   = op_i[2];
  // mulh: both signed; mulhsu: a signed; div/rem: both signed
  assign a_signed = is_div ? !op_i[0] : (op_i[1:0] == 2'b01 || op_i[1:0] == 2'b10);
  assign b_signed = is_div ? !op_i[0] : (op_i[1:0] == 2'b01);
  assign a_neg    = a_signed && a_i[31];
  assign b_neg    = b_signed && b_i[31];
  assign a_mag    = a_neg ? (32'd0 - a_i) : a_i;
  assign b_mag    = b_neg ? (32'd0 - b_i) : b_i;

  logic [31:0] hi_s, lo_s;
  tessel_core_muldiv_step u_step (
    .div_i (is_div),
    .hi_i  (hi_q),
    .lo_i  (lo_q),
    .m_i   (b_mag),
    .hi_o  (hi_s),
    .lo_o  (lo_s)
  );

  always_comb begin
    busy_d  = busy_q;
    done_d  = 1'b0;
    count_d = count_q;
    hi_d    = hi_q;
    lo_d    = lo_q;
    if (start_i) begin
      busy_d  = 1'b1;
      count_d = 5'd0;
      hi_d    = 32'd0;
      lo_d    = a_mag;
    end else if (busy_q) begin
      hi_d    = hi_s;
      lo_d    = lo_s;
      count_d = count_q + 5'd1;
      if (count_q == 5'd31) begin
        busy_d = 1'b0;
        done_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      done_q  <= 1'b0;
      count_q <= 5'd0;
      hi_q    <= 32'd0;
      lo_q    <= 32'd0;
    end else begin
      busy_q  <= busy_d;
      done_q  <= done_d;
      count_q <= count_d;
      hi_q    <= hi_d;
      lo_q    <= lo_d;
    end
  end

  // Sign fix-up with one negator: -x = ~x + 1 for the low product word, the
  // quotient and the remainder; the high word of a negated 64-bit product
  // takes the carry out of its low word instead (1 exactly when it is 0).
  // Division by zero leaves the quotient all ones and is not negated.
  logic [31:0] raw;
  logic        negate, carry_in;
  always_comb begin
    raw      = hi_q;
    negate   = a_neg != b_neg;
    carry_in = 1'b1;
    unique case (op_i)
      3'b000:                 raw = lo_q;
      3'b001, 3'b010, 3'b011: carry_in = (lo_q == 32'd0);
      3'b100, 3'b101: begin
        raw    = lo_q;
        negate = (a_neg != b_neg) && (b_i != 32'd0);
      end
      default:                negate = a_neg;   // rem, remu: the dividend's sign
    endcase
  end
  assign result_o = negate ? (~raw + {31'd0, carry_in}) : raw;
  assign done_o   = done_q;
endmodule

`default_nettype wire
