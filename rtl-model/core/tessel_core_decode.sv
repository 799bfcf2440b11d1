`default_nettype none
// tessel_core_decode: turns one RV32IM + Zicsr + Zifencei instruction word into
// the control signals of the execute stage, and flags every encoding the core
// does not implement as illegal (the core traps those with mcause 2).
module tessel_core_decode (
  input  wire logic [31:0] insn_i,
  output      logic        illegal_o,   // not a legal RV32IM/Zicsr/Zifencei encoding
  output      logic [3:0]  alu_op_o,    // {alt, funct3}: alt selects sub / sra
  output      logic        alu_a_pc_o,  // operand A is the pc (auipc)
  output      logic        alu_a_zero_o,// operand A is 0 (lui)
  output      logic        alu_b_imm_o, // operand B is the immediate
  output      logic [31:0] imm_o,       // sign-extended immediate of the format in use
  output      logic        rd_we_o,     // the instruction writes rd (x0 filtered later)
  output      logic        load_o,
  output      logic        store_o,
  output      logic        branch_o,
  output      logic        jal_o,
  output      logic        jalr_o,
  output      logic        csr_o,       // csrrw/csrrs/csrrc and their immediate forms
  output      logic        muldiv_o,    // an M-extension instruction
  output      logic        ecall_o,
  output      logic        ebreak_o,
  output      logic        mret_o,
  output      logic        wfi_o,
  output      logic        fencei_o
);
  localparam logic [6:0] OpLui    = 7'b0110111;
  localparam logic [6:0] OpAuipc  = 7'b0010111;
  localparam logic [6:0] OpJal    = 7'b1101111;
  localparam logic [6:0] OpJalr   = 7'b1100111;
  localparam logic [6:0] OpBranch = 7'b1100011;
  localparam logic [6:0] OpLoad   = 7'b0000011;
  localparam logic [6:0] OpStore  = 7'b0100011;
  localparam logic [6:0] OpImm    = 7'b0010011;
  localparam logic [6:0] OpReg    = 7'b0110011;
  localparam logic [6:0] OpMisc   = 7'b0001111;
  localparam logic [6:0] OpSystem = 7'b1110011;

  logic [6:0] opcode;
  logic [2:0] funct3;
  logic [6:0] funct7;
  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j;

  assign opcode = insn_i[6:0];
  assign funct3 = insn_i[14:12];
  assign funct7 = insn_i[31:25];

  assign imm_i = {{20{insn_i[31]}}, insn_i[31:20]};
  assign imm_s = {{20{insn_i[31]}}, insn_i[31:25], insn_i[11:7]};
  assign imm_b = {{19{insn_i[31]}}, insn_i[31], insn_i[7], insn_i[30:25], insn_i[11:8], 1'b0};
  assign imm_u = {insn_i[31:12], 12'b0};
  assign imm_j = {{11{insn_i[31]}}, insn_i[31], insn_i[19:12], insn_i[20], insn_i[30:21], 1'b0};

  always_comb begin
    illegal_o    = 1'b0;
    alu_op_o     = 4'b0000;   // add
    alu_a_pc_o   = 1'b0;
    alu_a_zero_o = 1'b0;
    alu_b_imm_o  = 1'b1;
    imm_o        = imm_i;
    rd_we_o      = 1'b0;
    load_o       = 1'b0;
    store_o      = 1'b0;
    branch_o     = 1'b0;
    jal_o        = 1'b0;
    jalr_o       = 1'b0;
    csr_o        = 1'b0;
    muldiv_o     = 1'b0;
    ecall_o      = 1'b0;
    ebreak_o     = 1'b0;
    mret_o       = 1'b0;
    wfi_o        = 1'b0;
    fencei_o     = 1'b0;

    unique case (opcode)
      OpLui: begin
        alu_a_zero_o = 1'b1;
        imm_o        = imm_u;
        rd_we_o      = 1'b1;
      end
      OpAuipc: begin
        alu_a_pc_o = 1'b1;
        imm_o      = imm_u;
        rd_we_o    = 1'b1;
      end
      OpJal: begin
        jal_o   = 1'b1;
        imm_o   = imm_j;
        rd_we_o = 1'b1;
      end
      OpJalr: begin
        jalr_o    = 1'b1;
        rd_we_o   = 1'b1;
        illegal_o = (funct3 != 3'b000);
      end
      OpBranch: begin
        branch_o    = 1'b1;
        imm_o       = imm_b;
        alu_b_imm_o = 1'b0;
        illegal_o   = (funct3[2:1] == 2'b01);
      end
      OpLoad: begin
        load_o    = 1'b1;
        rd_we_o   = 1'b1;
        illegal_o = (funct3 == 3'b011) || (funct3[2:1] == 2'b11);
      end
      OpStore: begin
        store_o   = 1'b1;
        imm_o     = imm_s;
        illegal_o = (funct3[2] == 1'b1) || (funct3 == 3'b011);
      end
      OpImm: begin
        rd_we_o = 1'b1;
        if (funct3 == 3'b101) begin
          // srli / srai: the only immediate shift with an alternate form
          alu_op_o  = {insn_i[30], funct3};
          illegal_o = (funct7 != 7'b0000000) && (funct7 != 7'b0100000);
        end else begin
          alu_op_o  = {1'b0, funct3};
          illegal_o = (funct3 == 3'b001) && (funct7 != 7'b0000000);
        end
      end
      OpReg: begin
        rd_we_o     = 1'b1;
        alu_b_imm_o = 1'b0;
        alu_op_o    = {insn_i[30], funct3};
        unique case (funct7)
          7'b0000000: ;
          7'b0100000: illegal_o = (funct3 != 3'b000) && (funct3 != 3'b101);
          7'b0000001: muldiv_o = 1'b1;
          default:    illegal_o = 1'b1;
        endcase
      end
      OpMisc: begin
        // fence orders nothing in an in-order core with one outstanding data
        // access; fence.i flushes the fetch path
        fencei_o  = (funct3 == 3'b001);
        illegal_o = (funct3[2:1] != 2'b00);
      end
      OpSystem: begin
        if (funct3 == 3'b000) begin
          unique case (insn_i)
            32'h0000_0073: ecall_o  = 1'b1;
            32'h0010_0073: ebreak_o = 1'b1;
            32'h3020_0073: mret_o   = 1'b1;
            32'h1050_0073: wfi_o    = 1'b1;
            default:       illegal_o = 1'b1;
          endcase
        end else begin
          csr_o     = 1'b1;
          rd_we_o   = 1'b1;
          illegal_o = (funct3 == 3'b100);
        end
      end
      default: illegal_o = 1'b1;
    endcase

    // compressed encodings (low bits != 11) are not implemented
    if (insn_i[1:0] != 2'b11) illegal_o = 1'b1;

    // an illegal instruction must have no side effect before it traps
    if (illegal_o) begin
      rd_we_o  = 1'b0;
      load_o   = 1'b0;
      store_o  = 1'b0;
      branch_o = 1'b0;
      jal_o    = 1'b0;
      jalr_o   = 1'b0;
      csr_o    = 1'b0;
      muldiv_o = 1'b0;
      fencei_o = 1'b0;
    end
  end
endmodule
