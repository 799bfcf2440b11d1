`default_nettype none
// tessel_core_muldiv: the M extension. Division and remainder are always
// iterative (restoring, one quotient bit per cycle); multiplication is a
// single-cycle 33x33 signed multiply when FastMul (so synthesis maps it to
// DSPs), else iterative shift-add on the same datapath as division (no DSPs).
//
// Iterative ops take 32 steps of one bit, two per cycle (two chained step
// stages, tessel_core_muldiv_step), and a cycle does 8 steps at once when they
// are trivial: a division whose partial remainder is 0 and whose
// next 8 dividend bits are 0 (quotient bits 0), a multiplication whose next 8
// multiplier bits are 0 (nothing to add). Small operands, the common case in
// firmware, so finish in a few cycles.
//
// Protocol with the execute stage: valid_i says the instruction in execute is
// an M op whose operands are final. done_o rises when result_o is valid (the
// same cycle for a fast multiply, 3 to 18 cycles later for iterative ops).
// kill_i (the instruction fired, or the pipeline was flushed) returns it to idle.
module tessel_core_muldiv #(
  parameter bit FastMul = 1'b1
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        valid_i,
  input  wire logic        kill_i,
  input  wire logic [2:0]  op_i,        // funct3: mul mulh mulhsu mulhu div divu rem remu
  input  wire logic [31:0] a_i,
  input  wire logic [31:0] b_i,
  output      logic        done_o,
  output      logic [31:0] result_o
);
  typedef enum logic [1:0] {
    StIdle,
    StBusy,
    StDone
  } state_e;

  state_e      state_q, state_d;
  logic [5:0]  count_q, count_d;   // steps done, 0..32
  logic [31:0] hi_q, hi_d;         // partial remainder / upper product
  logic [31:0] lo_q, lo_d;         // quotient / lower product
  logic [31:0] m_q, m_d;           // divisor / multiplicand magnitude
  logic [2:0]  op_q, op_d;
  logic        neg_q, neg_d;       // negate the final quotient / product
  logic        neg_rem_q, neg_rem_d;

  // With FastMul the datapath only ever divides, so its
  // multiply half is constant-folded away.
  logic        iter_div;
  assign iter_div = FastMul ? 1'b1 : op_q[2];
  logic        is_div;
  logic        iterative;          // this op uses the shared shift datapath
  logic        a_signed, b_signed;
  logic [31:0] a_mag, b_mag;

  assign is_div    = op_i[2];
  assign iterative = is_div || !FastMul;
  // mulh: both signed; mulhsu: a signed; div/rem: both signed
  assign a_signed  = is_div ? !op_i[0] : (op_i[1:0] == 2'b01 || op_i[1:0] == 2'b10);
  assign b_signed  = is_div ? !op_i[0] : (op_i[1:0] == 2'b01);
  assign a_mag     = (a_signed && a_i[31]) ? (32'd0 - a_i) : a_i;
  assign b_mag     = (b_signed && b_i[31]) ? (32'd0 - b_i) : b_i;

  // Two steps per cycle.
  logic [31:0] hi_1, hi_2;
  logic [31:0] lo_1, lo_2;
  tessel_core_muldiv_step u_step1 (
    .div_i (iter_div),
    .hi_i  (hi_q),
    .lo_i  (lo_q),
    .m_i   (m_q),
    .hi_o  (hi_1),
    .lo_o  (lo_1)
  );
  tessel_core_muldiv_step u_step2 (
    .div_i (iter_div),
    .hi_i  (hi_1),
    .lo_i  (lo_1),
    .m_i   (m_q),
    .hi_o  (hi_2),
    .lo_o  (lo_2)
  );

  // Eight steps fit before the end (count is a multiple of 8 or not, it must
  // not pass 32), and all eight are trivial. A zero divisor is never skipped:
  // its quotient bits are ones.
  logic skip8;
  assign skip8 = (count_q <= 6'd24) &&
                 (iter_div ? (hi_q == 32'd0 && lo_q[31:24] == 8'd0 && m_q != 32'd0)
                          : (lo_q[7:0] == 8'd0));

  always_comb begin
    state_d   = state_q;
    count_d   = count_q;
    hi_d      = hi_q;
    lo_d      = lo_q;
    m_d       = m_q;
    op_d      = op_q;
    neg_d     = neg_q;
    neg_rem_d = neg_rem_q;

    unique case (state_q)
      StIdle: begin
        // (a kill in the same cycle still wins below: loading the operand
        // registers regardless keeps the redirect logic off their inputs)
        if (valid_i && iterative) begin
          state_d   = StBusy;
          count_d   = 6'd0;
          op_d      = op_i;
          hi_d      = 32'd0;
          if (is_div) begin
            lo_d      = a_mag;
            m_d       = b_mag;
            // division by zero: the quotient stays all ones, not negated
            neg_d     = a_signed && (a_i[31] != b_i[31]) && (b_i != 32'd0);
            neg_rem_d = a_signed && a_i[31];
          end else begin
            lo_d      = b_mag;
            m_d       = a_mag;
            neg_d     = (a_signed && a_i[31]) != (b_signed && b_i[31]);
            neg_rem_d = 1'b0;
          end
        end
      end
      StBusy: begin
        if (skip8) begin
          // eight trivial steps: shift in zero quotient bits / shift out zero
          // multiplier bits
          if (iter_div) begin
            lo_d = {lo_q[23:0], 8'd0};
          end else begin
            hi_d = {8'd0, hi_q[31:8]};
            lo_d = {hi_q[7:0], lo_q[31:8]};
          end
        end else begin
          hi_d = hi_2;
          lo_d = lo_2;
        end
        count_d = count_q + (skip8 ? 6'd8 : 6'd2);
        if (count_d == 6'd32) state_d = StDone;
      end
      StDone: ;
      default: state_d = StIdle;
    endcase

    if (kill_i) state_d = StIdle;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      count_q   <= 6'd0;
      hi_q      <= 32'd0;
      lo_q      <= 32'd0;
      m_q       <= 32'd0;
      op_q      <= 3'd0;
      neg_q     <= 1'b0;
      neg_rem_q <= 1'b0;
    end else begin
      state_q   <= state_d;
      count_q   <= count_d;
      hi_q      <= hi_d;
      lo_q      <= lo_d;
      m_q       <= m_d;
      op_q      <= op_d;
      neg_q     <= neg_d;
      neg_rem_q <= neg_rem_d;
    end
  end

  // Result of the iterative datapath, fixed up for signs with one negator:
  // -x = ~x + 1 for the low product word, quotient and remainder; the high word
  // of a negated 64-bit product gets the carry out of its low word instead,
  // which is 1 exactly when the low word is 0.
  logic [31:0] raw, iter_result;
  logic        negate, carry_in;
  always_comb begin
    raw      = hi_q;
    negate   = neg_q;
    carry_in = 1'b1;
    unique case (op_q)
      3'b000: raw = lo_q;
      3'b001, 3'b010, 3'b011: carry_in = (lo_q == 32'd0);
      3'b100, 3'b101: raw = lo_q;
      default: negate = neg_rem_q;
    endcase
  end
  assign iter_result = negate ? (~raw + {31'd0, carry_in}) : raw;

  generate
    if (FastMul) begin : g_fast_mul
      // One unsigned 32x32 multiply serves all four variants: the signed high
      // word is the unsigned one minus b if a is negative (as signed) and minus
      // a if b is. Synthesis maps the multiply to DSPs; a simulator does it in
      // one native 64-bit multiply.
      logic [63:0] fp;
      logic [31:0] fp_hi;
      assign fp    = {32'd0, a_i} * {32'd0, b_i};
      assign fp_hi = fp[63:32] - ((a_signed && a_i[31]) ? b_i : 32'd0)
                               - ((b_signed && b_i[31]) ? a_i : 32'd0);
      assign done_o   = is_div ? (state_q == StDone) : valid_i;
      assign result_o = is_div ? iter_result : ((op_i[1:0] == 2'b00) ? fp[31:0] : fp_hi);
    end else begin : g_iter_mul
      assign done_o   = (state_q == StDone);
      assign result_o = iter_result;
    end
  endgenerate
endmodule
