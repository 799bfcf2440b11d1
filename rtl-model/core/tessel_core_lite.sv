`default_nettype none
// tessel_core_lite: the small control core, RV32IM + Zicsr + Zifencei, machine
// mode, for FPGAs where logic is short (the iCE40UP5K: docs/core.md, "Lite
// core"). Same ports, CSRs, traps, interrupts and commit trace as tessel_core;
// it trades speed for size: one instruction at a time, no forwarding, no
// prediction, an iterative M unit (tessel_core_lite_muldiv).
//
//   Fetch  raise the instruction request at pc (from a register)
//   IWait  wait for the word; at its arrival the register file (block RAM,
//          synchronous read) reads rs1 and rs2
//   Exec   decode, ALU, branch, traps, interrupts; most instructions retire
//          here and write rd; loads/stores latch their address
//   Mem    raise the data request (address from a register, rs2 still on the
//          register file's read port), or trap on a misaligned address
//   DWait  wait for the data response; a load retires with its value
//   MulDiv wait for the M unit (34 cycles)
//   Shift  shift res_q by 4 or 1 bits a cycle (no barrel shifter), then retire
//   Branch branches, jal and jalr retire (or trap on a misaligned target) one
//          cycle after Exec: the compare's carry chain then only reaches a
//          flop, and the ALU, free again, computes the target
//          A CSR instruction also retires from Shift (by 0 bits), one cycle
//          after its CSR access, as in tessel_core: a write to minstret wins
//          over its own retirement
//
// Every bus request comes from registers and every response lands in one,
// so no path runs through the core from one bus handshake to another.
// A fetch follows the previous instruction's last data response, so stores
// are visible to later fetches: fence.i only retires.
module tessel_core_lite (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic [31:0] boot_addr_i,
  // instruction bus
  output      logic        ibus_req_valid_o,
  input  wire logic        ibus_req_ready_i,
  output      logic [31:0] ibus_req_addr_o,
  input  wire logic        ibus_rsp_valid_i,
  input  wire logic [31:0] ibus_rsp_rdata_i,
  input  wire logic        ibus_rsp_err_i,
  // data bus
  output      logic        dbus_req_valid_o,
  input  wire logic        dbus_req_ready_i,
  output      logic        dbus_req_we_o,
  output      logic [3:0]  dbus_req_be_o,
  output      logic [31:0] dbus_req_addr_o,
  output      logic [31:0] dbus_req_wdata_o,
  input  wire logic        dbus_rsp_valid_i,
  input  wire logic [31:0] dbus_rsp_rdata_i,
  input  wire logic        dbus_rsp_err_i,
  // interrupts (level)
  input  wire logic        irq_timer_i,
  input  wire logic        irq_external_i,
  // retirement
  output      logic        commit_valid_o,
  output      logic [31:0] commit_pc_o,
  output      logic [31:0] commit_insn_o,
  output      logic        commit_rd_we_o,
  output      logic [4:0]  commit_rd_o,
  output      logic [31:0] commit_rd_wdata_o
);
  // mcause values: tessel_memmap_pkg::Cause* (targets/memmap.def).

  typedef enum logic [2:0] {
    StFetch,
    StIWait,
    StExec,
    StMem,
    StDWait,
    StMulDiv,
    StShift,
    StBranch
  } state_e;

  state_e      state_q, state_d;
  logic [31:2] pc_q, pc_d;               // the instruction's pc (IALIGN=32)
  logic [31:0] insn_q, insn_d;
  logic        ferr_q, ferr_d;           // its fetch answered with an error
  logic [31:0] res_q, res_d;             // load/store address, a CSR's old value, the shift
  logic [4:0]  sh_q, sh_d;               // bits still to shift
  // minstret counts a retirement one cycle late: it keeps the retire decision
  // off the 64-bit counter's carry chain, and no CSR read can come that soon
  logic        instret_q;
  logic        taken_q, taken_d;         // the branch in Branch is taken

  // ---------------------------------------------------------------- decode
  // The word is decoded as it arrives and the decode is registered with it
  // (dec_q), so execute starts from flops: the decoder's depth is not added
  // to the ALU's carry chain (on the UP5K that alone kept 12 MHz out of reach).
  typedef struct packed {
    logic        illegal, alu_a_pc, alu_a_zero, alu_b_imm, rd_we;
    logic        load, store, branch, jal, jalr, csr, muldiv;
    logic        ecall, ebreak, mret, wfi, fencei;
    logic [3:0]  alu_op;
    logic [31:0] imm;
  } dec_t;
  dec_t dec_q, dec_d, dec_new;

  tessel_core_decode u_decode (
    .insn_i       (ibus_rsp_rdata_i),
    .illegal_o    (dec_new.illegal),
    .alu_op_o     (dec_new.alu_op),
    .alu_a_pc_o   (dec_new.alu_a_pc),
    .alu_a_zero_o (dec_new.alu_a_zero),
    .alu_b_imm_o  (dec_new.alu_b_imm),
    .imm_o        (dec_new.imm),
    .rd_we_o      (dec_new.rd_we),
    .load_o       (dec_new.load),
    .store_o      (dec_new.store),
    .branch_o     (dec_new.branch),
    .jal_o        (dec_new.jal),
    .jalr_o       (dec_new.jalr),
    .csr_o        (dec_new.csr),
    .muldiv_o     (dec_new.muldiv),
    .ecall_o      (dec_new.ecall),
    .ebreak_o     (dec_new.ebreak),
    .mret_o       (dec_new.mret),
    .wfi_o        (dec_new.wfi),
    .fencei_o     (dec_new.fencei)
  );

  logic        dec_illegal, dec_alu_a_pc, dec_alu_a_zero, dec_alu_b_imm, dec_rd_we;
  logic        dec_load, dec_store, dec_branch, dec_jal, dec_jalr, dec_csr, dec_muldiv;
  logic        dec_ecall, dec_ebreak, dec_mret, dec_wfi, dec_fencei;
  logic [3:0]  dec_alu_op;
  logic [31:0] dec_imm;
  assign {dec_illegal, dec_alu_a_pc, dec_alu_a_zero, dec_alu_b_imm, dec_rd_we,
          dec_load, dec_store, dec_branch, dec_jal, dec_jalr, dec_csr, dec_muldiv,
          dec_ecall, dec_ebreak, dec_mret, dec_wfi, dec_fencei, dec_alu_op, dec_imm} = dec_q;

  logic [4:0] rs1, rd;
  logic [2:0] funct3;
  assign rs1    = insn_q[19:15];
  assign rd     = insn_q[11:7];
  assign funct3 = insn_q[14:12];

  // ---------------------------------------------------------------- registers
  // Read at the edge where the instruction word arrives, then held: the
  // address stays that of the instruction until the next one arrives, and
  // nothing writes the file before the instruction retires.
  logic [4:0]  rf_raddr1, rf_raddr2;
  logic [31:0] rf_rdata1, rf_rdata2, rs1_val, rs2_val;
  logic        rf_we;
  logic [31:0] rf_wdata;
  assign rf_raddr1 = (state_q == StIWait) ? ibus_rsp_rdata_i[19:15] : insn_q[19:15];
  assign rf_raddr2 = (state_q == StIWait) ? ibus_rsp_rdata_i[24:20] : insn_q[24:20];

  tessel_core_lite_regfile u_regfile (
    .clk_i    (clk_i),
    .raddr1_i (rf_raddr1),
    .rdata1_o (rf_rdata1),
    .raddr2_i (rf_raddr2),
    .rdata2_o (rf_rdata2),
    .we_i     (rf_we),
    .waddr_i  (rd),
    .wdata_i  (rf_wdata)
  );

  // x0 is never written; it reads as 0 here
  assign rs1_val = (rs1 == 5'd0) ? 32'd0 : rf_rdata1;
  assign rs2_val = (insn_q[24:20] == 5'd0) ? 32'd0 : rf_rdata2;

  // ---------------------------------------------------------------- execute
  logic [31:0] alu_a, alu_b, alu_result;
  logic        branch_cond;
  // In Branch the ALU computes the jump target (pc + imm; rs1 + imm for
  // jalr): the compare was registered in Exec, and the operands are still
  // there, so no adder of its own is needed.
  logic in_branch;
  assign in_branch = state_q == StBranch;
  assign alu_a = dec_alu_a_zero ? 32'd0
               : ((dec_alu_a_pc || (in_branch && !dec_jalr)) ? {pc_q, 2'b00} : rs1_val);
  assign alu_b = (dec_alu_b_imm || in_branch) ? dec_imm : rs2_val;

  tessel_core_lite_alu u_alu (
    .a_i      (alu_a),
    .b_i      (alu_b),
    .op_i     (dec_alu_op),
    .cmp_i    (funct3),
    .branch_i (dec_branch && !in_branch),
    .result_o (alu_result),
    .taken_o  (branch_cond)
  );

  // sll, srl, sra and their immediate forms go to the Shift state
  logic is_shift;
  assign is_shift = (insn_q[6:0] == 7'b0010011 || insn_q[6:0] == 7'b0110011)
                 && !dec_muldiv && funct3[1:0] == 2'b01;

  logic [31:0] shifted;
  logic        sh_by4;
  assign sh_by4 = sh_q[4:2] != 3'd0;
  always_comb begin
    if (!funct3[2])     shifted = sh_by4 ? {res_q[27:0], 4'd0} : {res_q[30:0], 1'b0};
    else if (sh_by4)    shifted = {{4{dec_alu_op[3] && res_q[31]}}, res_q[31:4]};
    else                shifted = {dec_alu_op[3] && res_q[31], res_q[31:1]};
  end

  logic [31:0] jump_target;              // in Branch
  logic [31:2] pc_plus4;
  assign pc_plus4    = pc_q + 30'd1;
  assign jump_target = {alu_result[31:1], 1'b0};

  // loads and stores: the request side formats from the latched address and
  // rs2, the response side from the same address
  logic        mem_misaligned;
  logic [3:0]  mem_be;
  logic [31:0] mem_wdata, load_data;

  tessel_core_lsu_align u_lsu_align (
    .addr_lo_i     (res_q[1:0]),
    .size_i        (funct3[1:0]),
    .store_data_i  (rs2_val),
    .misaligned_o  (mem_misaligned),
    .be_o          (mem_be),
    .wdata_o       (mem_wdata),
    .rsp_addr_lo_i (res_q[1:0]),
    .rsp_funct3_i  (funct3),
    .rsp_rdata_i   (dbus_rsp_rdata_i),
    .load_data_o   (load_data)
  );


  logic md_done;
  logic [31:0] md_result;
  tessel_core_lite_muldiv u_muldiv (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    // (started even if the instruction traps: the result is then never
    // used, and the trap decision stays off the unit's operand registers)
    .start_i  (state_q == StExec && dec_muldiv),
    .op_i     (funct3),
    .a_i      (rs1_val),
    .b_i      (rs2_val),
    .done_o   (md_done),
    .result_o (md_result)
  );

  // CSRs, traps, interrupts
  logic        csr_write;
  logic [31:0] csr_rdata, mtvec, mepc, irq_cause;
  logic        csr_illegal, irq_take, irq_wake;
  logic        trap;
  logic [31:0] trap_cause, trap_tval;

  // csrrs/csrrc (and immediate forms) with rs1/uimm = 0 only read
  assign csr_write = (funct3[1:0] == 2'b01) || (rs1 != 5'd0);

  tessel_core_csr u_csr (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .csr_addr_i     (insn_q[31:20]),
    .csr_write_i    (csr_write),
    .csr_op_i       (funct3[1:0]),
    .csr_wdata_i    (funct3[2] ? {27'd0, rs1} : rs1_val),
    .csr_en_i       (state_q == StExec && dec_csr && !trap),
    .csr_rdata_o    (csr_rdata),
    .csr_illegal_o  (csr_illegal),
    .trap_i         (trap),
    .trap_cause_i   (trap_cause),
    .trap_epc_i     (pc_q),
    .trap_tval_i    (trap_tval),
    .mret_i         (state_q == StExec && dec_mret && !trap),
    .mtvec_o        (mtvec),
    .mepc_o         (mepc),
    .instret_i      (instret_q),
    .irq_timer_i    (irq_timer_i),
    .irq_external_i (irq_external_i),
    .irq_take_o     (irq_take),
    .irq_cause_o    (irq_cause),
    .irq_wake_o     (irq_wake)
  );

  // Traps of the instruction in execute, by priority: an interrupt is taken
  // before it (it becomes mepc), except at a wfi, which retires first so that
  // mepc points past it; then its synchronous exceptions. A misaligned jump
  // target traps in Branch, a misaligned address in Mem, an access fault in
  // DWait: in each the ALU still computes the target or address, which is
  // mtval (one source for all three).
  logic dfault;
  assign dfault = state_q == StDWait && dbus_rsp_valid_i && dbus_rsp_err_i;
  always_comb begin
    trap       = 1'b1;
    trap_cause = tessel_memmap_pkg::CauseIllegal;
    trap_tval  = 32'd0;
    if (dfault) begin
      trap_cause = dec_load ? tessel_memmap_pkg::CauseLoadFault : tessel_memmap_pkg::CauseStoreFault;
      trap_tval  = alu_result;
    end else if (state_q == StMem) begin
      trap       = mem_misaligned;
      trap_cause = dec_load ? tessel_memmap_pkg::CauseLoadMisaligned : tessel_memmap_pkg::CauseStoreMisaligned;
      trap_tval  = alu_result;
    end else if (in_branch) begin
      trap       = taken_q && alu_result[1];
      trap_cause = tessel_memmap_pkg::CauseFetchMisaligned;
      trap_tval  = jump_target;
    end else if (state_q != StExec) begin
      trap = 1'b0;
    end else if (irq_take && !dec_wfi) begin
      trap_cause = irq_cause;
    end else if (ferr_q) begin
      trap_cause = tessel_memmap_pkg::CauseFetchFault;
      trap_tval  = {pc_q, 2'b00};
    end else if (dec_illegal || (dec_csr && csr_illegal)) begin
      trap_tval  = insn_q;
    end else if (dec_ecall) begin
      trap_cause = tessel_memmap_pkg::CauseEcallM;
    end else if (dec_ebreak) begin
      trap_cause = tessel_memmap_pkg::CauseBreakpoint;
    end else begin
      trap = 1'b0;
    end
  end

  // ---------------------------------------------------------------- control
  // exec_retire: the instruction in execute retires this cycle (not a load,
  // store, M op or CSR access, which retire in a later state)
  logic exec_retire;
  assign exec_retire = state_q == StExec && !trap && !dec_load && !dec_store
                    && !dec_muldiv && !dec_csr && !is_shift
                    && !dec_branch && !dec_jal && !dec_jalr
                    && (!dec_wfi || irq_wake);

  always_comb begin
    commit_valid_o = 1'b0;
    rf_wdata       = in_branch ? {pc_plus4, 2'b00} : alu_result;   // jal/jalr link
    unique case (state_q)
      StExec:   commit_valid_o = exec_retire;
      StDWait: begin
        commit_valid_o = dbus_rsp_valid_i && !dbus_rsp_err_i;
        rf_wdata       = load_data;
      end
      StMulDiv: begin
        commit_valid_o = md_done;
        rf_wdata       = md_result;
      end
      StBranch: commit_valid_o = !trap;
      StShift: begin
        commit_valid_o = sh_q == 5'd0;
        rf_wdata       = res_q;
      end
      default: ;
    endcase
  end
  assign rf_we = commit_valid_o && dec_rd_we && (rd != 5'd0);

  always_comb begin
    state_d = state_q;
    pc_d    = pc_q;
    insn_d  = insn_q;
    dec_d   = dec_q;
    ferr_d  = ferr_q;
    res_d   = res_q;
    sh_d    = sh_q;
    taken_d = taken_q;
    unique case (state_q)
      StFetch: if (ibus_req_ready_i) state_d = StIWait;
      StIWait: begin
        if (ibus_rsp_valid_i) begin
          state_d = StExec;
          insn_d  = ibus_rsp_rdata_i;
          dec_d   = dec_new;
          ferr_d  = ibus_rsp_err_i;
        end
      end
      StExec: begin
        res_d = alu_result;
        if (trap) begin
          state_d = StFetch;
        end else if (dec_load || dec_store) begin
          state_d = StMem;
        end else if (dec_branch || dec_jal || dec_jalr) begin
          state_d = StBranch;
          taken_d = !dec_branch || branch_cond;
        end else if (dec_muldiv) begin
          state_d = StMulDiv;
        end else if (is_shift) begin
          state_d = StShift;
          res_d   = rs1_val;
          sh_d    = alu_b[4:0];
        end else if (dec_csr) begin
          state_d = StShift;
          res_d   = csr_rdata;
          sh_d    = 5'd0;
        end else if (exec_retire) begin
          state_d = StFetch;
          pc_d    = dec_mret ? mepc[31:2] : pc_plus4;
        end
      end
      StMem:    if (trap) state_d = StFetch;
                else if (dbus_req_ready_i) state_d = StDWait;
      StDWait:  if (dbus_rsp_valid_i) state_d = StFetch;
      StMulDiv: if (md_done) state_d = StFetch;
      StBranch: begin
        state_d = StFetch;
        if (taken_q) pc_d = jump_target[31:2];
      end
      StShift: begin
        if (sh_q == 5'd0) begin
          state_d = StFetch;
        end else begin
          res_d = shifted;
          sh_d  = sh_q - (sh_by4 ? 5'd4 : 5'd1);
        end
      end
      default:  state_d = StFetch;
    endcase
    // the next instruction follows this one, unless it trapped
    if (commit_valid_o && state_q != StExec && !(state_q == StBranch && taken_q)) pc_d = pc_plus4;
    if (trap) pc_d = mtvec[31:2];
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StFetch;
      pc_q    <= boot_addr_i[31:2];
      insn_q  <= 32'd0;
      dec_q   <= '0;
      ferr_q  <= 1'b0;
      res_q   <= 32'd0;
      sh_q    <= 5'd0;
      instret_q <= 1'b0;
      taken_q <= 1'b0;
    end else begin
      state_q <= state_d;
      pc_q    <= pc_d;
      insn_q  <= insn_d;
      dec_q   <= dec_d;
      ferr_q  <= ferr_d;
      res_q   <= res_d;
      sh_q    <= sh_d;
      instret_q <= commit_valid_o;
      taken_q <= taken_d;
    end
  end

  // ---------------------------------------------------------------- buses
  assign ibus_req_valid_o = state_q == StFetch;
  assign ibus_req_addr_o  = {pc_q, 2'b00};
  assign dbus_req_valid_o = state_q == StMem && !mem_misaligned;
  assign dbus_req_we_o    = dec_store;
  assign dbus_req_be_o    = mem_be;
  assign dbus_req_addr_o  = res_q;
  assign dbus_req_wdata_o = mem_wdata;

  // ---------------------------------------------------------------- retirement
  assign commit_pc_o       = {pc_q, 2'b00};
  assign commit_insn_o     = insn_q;
  assign commit_rd_we_o    = dec_rd_we && (rd != 5'd0);
  assign commit_rd_o       = rd;
  assign commit_rd_wdata_o = rf_wdata;

  // Not needed: fence.i (it only retires: see the top), the low bits of
  // word-aligned addresses.
  logic unused;
  assign unused = ^{dec_fencei, boot_addr_i[1:0], mtvec[1:0], mepc[1:0], jump_target[1:0]};

`ifndef SYNTHESIS
  // Invariants (checked by the core bench, which builds with assertions on).
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!dbus_rsp_valid_i || state_q == StDWait)
        else $error("core_lite: data response without a request");
      assert (!ibus_rsp_valid_i || state_q == StIWait)
        else $error("core_lite: instruction response without a request");
      assert (!(trap && commit_valid_o)) else $error("core_lite: an instruction both retired and trapped");
    end
  end
`endif
endmodule

`default_nettype wire
