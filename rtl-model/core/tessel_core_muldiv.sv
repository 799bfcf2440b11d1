`default_nettype none
// tessel_core_muldiv: the M extension. Division and remainder are always
// iterative (restoring, one quotient bit per cycle); multiplication is a
// single-cycle 33x33 signed multiply when FastMul (so synthesis maps it to
// DSPs), else iterative shift-add on the same datapath as division (no DSPs).
//
// Protocol with the execute stage: valid_i says the instruction in execute is
// an M op whose operands are final. done_o rises when result_o is valid (the
// same cycle for a fast multiply, ~34 cycles later for iterative ops). kill_i
// (the instruction fired, or the pipeline was flushed) returns it to idle.
module tessel_core_muldiv #(
  parameter bit FastMul = 1'b1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        valid_i,
  input  logic        kill_i,
  input  logic [2:0]  op_i,        // funct3: mul mulh mulhsu mulhu div divu rem remu
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        done_o,
  output logic [31:0] result_o
);
  typedef enum logic [1:0] {
    StIdle,
    StBusy,
    StDone
  } state_e;

  state_e      state_q, state_d;
  logic [4:0]  count_q, count_d;   // iteration 0..31
  logic [32:0] hi_q, hi_d;         // partial remainder / upper product
  logic [31:0] lo_q, lo_d;         // quotient / lower product
  logic [31:0] m_q, m_d;           // divisor / multiplicand magnitude
  logic [2:0]  op_q, op_d;
  logic        neg_q, neg_d;       // negate the final quotient / product
  logic        neg_rem_q, neg_rem_d;

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

  // One iteration of each algorithm.
  logic [32:0] mul_sum;
  logic [32:0] div_shifted;
  logic [33:0] div_diff;
  assign mul_sum     = {1'b0, hi_q[31:0]} + (lo_q[0] ? {1'b0, m_q} : 33'd0);
  assign div_shifted = {hi_q[31:0], lo_q[31]};
  assign div_diff    = {1'b0, div_shifted} - {2'b00, m_q};

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
        if (valid_i && iterative && !kill_i) begin
          state_d   = StBusy;
          count_d   = 5'd0;
          op_d      = op_i;
          hi_d      = 33'd0;
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
        if (op_q[2]) begin
          // restoring division: shift in the next dividend bit, subtract if it fits
          if (!div_diff[33]) begin
            hi_d = div_diff[32:0];
            lo_d = {lo_q[30:0], 1'b1};
          end else begin
            hi_d = div_shifted;
            lo_d = {lo_q[30:0], 1'b0};
          end
        end else begin
          // shift-add multiplication, low multiplier bit first
          hi_d = {1'b0, mul_sum[32:1]};
          lo_d = {mul_sum[0], lo_q[31:1]};
        end
        count_d = count_q + 5'd1;
        if (count_q == 5'd31) state_d = StDone;
      end
      StDone: ;
      default: state_d = StIdle;
    endcase

    if (kill_i) state_d = StIdle;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      count_q   <= 5'd0;
      hi_q      <= 33'd0;
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
    raw      = hi_q[31:0];
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
