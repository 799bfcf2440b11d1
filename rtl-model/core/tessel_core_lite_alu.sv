`default_nettype none
// tessel_core_lite_alu: the ALU of the lite core (tessel_core_lite): add,
// sub, slt(u), xor, or, and, and the branch comparator on the same operands.
// No shifter: three 32-bit barrel shifters are most of tessel_core_alu's
// logic, so the lite core shifts over several cycles instead (4 or 1 bit per
// cycle in its Shift state); for sll/srl/sra this result is not used.
module tessel_core_lite_alu (
  input  wire logic [31:0] a_i,
  input  wire logic [31:0] b_i,
  input  wire logic [3:0]  op_i,        // {alt, funct3} as in OP / OP-IMM
  input  wire logic [2:0]  cmp_i,       // branch funct3
  input  wire logic        branch_i,    // a branch: compare (a - b) whatever op_i says
  output      logic [31:0] result_o,
  output      logic        taken_o      // branch condition cmp_i holds for a_i, b_i
);
  logic [32:0] sum;                // a + b, or a - b with borrow
  logic        sub, lt_signed, lt_unsigned, equal;

  // One adder: subtraction for sub, the comparisons and every branch.
  assign sub         = branch_i || ((op_i[2:0] == 3'b000) ? op_i[3] : 1'b1);
  assign sum         = {1'b0, a_i} + {1'b0, sub ? ~b_i : b_i} + {32'd0, sub};
  // with ~b + 1 the carry out is set when a >= b (unsigned)
  assign lt_unsigned = !sum[32];
  // signs differ: a < b exactly when a is negative
  assign lt_signed   = (a_i[31] != b_i[31]) ? a_i[31] : sum[31];
  assign equal       = (a_i == b_i);

  always_comb begin
    result_o = sum[31:0];
    unique case (op_i[2:0])
      3'b010:  result_o = {31'b0, lt_signed};
      3'b011:  result_o = {31'b0, lt_unsigned};
      3'b100:  result_o = a_i ^ b_i;
      3'b110:  result_o = a_i | b_i;
      3'b111:  result_o = a_i & b_i;
      default: result_o = sum[31:0];
    endcase
  end

  always_comb begin
    taken_o = 1'b0;
    unique case (cmp_i[2:1])
      2'b00:   taken_o = equal ^ cmp_i[0];        // beq / bne
      2'b10:   taken_o = lt_signed ^ cmp_i[0];    // blt / bge
      2'b11:   taken_o = lt_unsigned ^ cmp_i[0];  // bltu / bgeu
      default: taken_o = 1'b0;                    // illegal, caught by decode
    endcase
  end
endmodule

`default_nettype wire
