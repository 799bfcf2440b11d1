`default_nettype none
// tessel_core_alu: the integer ALU of the execute stage (RV32I register and
// immediate operations, address adds) and the branch comparator, which reads
// the same two operands.
module tessel_core_alu (
  input  wire logic [31:0] a_i,
  input  wire logic [31:0] b_i,
  input  wire logic [3:0]  op_i,        // {alt, funct3} as in OP / OP-IMM
  input  wire logic [2:0]  cmp_i,       // branch funct3
  output      logic [31:0] result_o,
  output      logic        taken_o      // branch condition cmp_i holds for a_i, b_i
);
  logic [31:0] sum;
  logic [32:0] diff;               // a - b with borrow, for sub, slt(u) and branches
  logic        lt_signed;
  logic        lt_unsigned;
  logic        equal;
  logic [4:0]  shamt;

  // Three plain shifts rather than one shared right shifter with bit reversal:
  // the reversal saves ~120 iCE40 LUTs but costs Verilator ~10 % of the whole
  // SoC's simulation time (it becomes 64 single-bit moves per cycle).
  assign sum         = a_i + b_i;
  assign diff        = {1'b0, a_i} - {1'b0, b_i};
  assign lt_unsigned = diff[32];
  // signs differ: a < b exactly when a is negative
  assign lt_signed   = (a_i[31] != b_i[31]) ? a_i[31] : diff[31];
  assign equal       = (a_i == b_i);
  assign shamt       = b_i[4:0];

  always_comb begin
    result_o = sum;
    unique case (op_i[2:0])
      3'b000: result_o = op_i[3] ? diff[31:0] : sum;
      3'b001: result_o = a_i << shamt;
      3'b010: result_o = {31'b0, lt_signed};
      3'b011: result_o = {31'b0, lt_unsigned};
      3'b100: result_o = a_i ^ b_i;
      3'b101: result_o = op_i[3] ? 32'($signed(a_i) >>> shamt) : a_i >> shamt;
      3'b110: result_o = a_i | b_i;
      3'b111: result_o = a_i & b_i;
      default: result_o = sum;
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
