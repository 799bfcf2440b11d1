`default_nettype none
// tessel_core: Tessel's control core, RV32IM + Zicsr + Zifencei, machine mode.
//
// Three stages, in order, one instruction retired per cycle at best:
//   fetch     issues instruction-bus requests (tessel_core_fetch); the response
//             is registered into execute while the register file (block RAM,
//             synchronous read) reads its source registers
//   execute   decode, operands with forwarding, ALU / branch / M unit / CSRs,
//             traps, and the data-bus request of a load or store
//   writeback waits for the data response, writes the register file, retires
// Execute only proceeds when writeback retires in the same cycle (or is empty),
// so forwarding from writeback (plus the write of the previous cycle, which the
// block RAM read missed) covers every hazard, a load result can be used by the
// very next instruction, and traps stay precise. Fetch predicts jal and
// backward branches taken; a mispredicted branch, a jalr, a forward taken
// branch costs one cycle: the target goes out on the instruction bus in the
// cycle execute resolves it.
// docs/core.md describes the design, the CSRs, traps and the bus protocol.
module tessel_core #(
  parameter bit FastMul = 1'b1
) (
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

  // ---------------------------------------------------------------- fetch
  logic        redirect;
  logic [31:0] redirect_pc;
  logic        f_valid;                  // fetch offers an instruction
  logic [31:0] f_insn;
  logic [31:0] f_pc;
  logic        f_pred;                   // ... and continued at its jump target
  logic        f_err;
  logic        x_load;                   // it moves into execute this cycle
  logic        ex_fire;

  tessel_core_fetch u_fetch (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .boot_addr_i      (boot_addr_i),
    .ibus_req_valid_o (ibus_req_valid_o),
    .ibus_req_ready_i (ibus_req_ready_i),
    .ibus_req_addr_o  (ibus_req_addr_o),
    .ibus_rsp_valid_i (ibus_rsp_valid_i),
    .ibus_rsp_rdata_i (ibus_rsp_rdata_i),
    .ibus_rsp_err_i   (ibus_rsp_err_i),
    .redirect_i       (redirect),
    .redirect_pc_i    (redirect_pc),
    .valid_o          (f_valid),
    .insn_o           (f_insn),
    .pc_o             (f_pc),
    .pred_o           (f_pred),
    .err_o            (f_err),
    .consume_i        (x_load)
  );

  // ---------------------------------------------------------------- writeback state
  logic        wb_valid_q, wb_valid_d;
  logic [31:0] wb_pc_q, wb_pc_d;
  logic [31:0] wb_insn_q, wb_insn_d;
  logic        wb_rd_we_q, wb_rd_we_d;   // writes a register other than x0
  logic [4:0]  wb_rd_q, wb_rd_d;
  logic        wb_mem_q, wb_mem_d;       // waits for a data-bus response
  logic        wb_load_q, wb_load_d;
  logic [2:0]  wb_funct3_q, wb_funct3_d;
  logic [31:0] wb_data_q, wb_data_d;     // result, or the address of a load/store

  logic [31:0] wb_load_data;
  logic [31:0] wb_result;
  logic        wb_done;                  // leaves writeback this cycle
  logic        wb_fault;                 // ... with an access fault
  logic        wb_retire;
  logic        wb_free;                  // execute may proceed this cycle

  assign wb_done   = wb_valid_q && (!wb_mem_q || dbus_rsp_valid_i);
  assign wb_fault  = wb_done && wb_mem_q && dbus_rsp_err_i;
  assign wb_retire = wb_done && !wb_fault;
  assign wb_free   = !wb_valid_q || wb_retire;
  assign wb_result = wb_load_q ? wb_load_data : wb_data_q;

  // ---------------------------------------------------------------- execute
  logic        ex_valid_q, ex_valid_d;   // execute holds an instruction
  logic [31:0] ex_insn_q, ex_insn_d;
  logic        ex_fetch_err_q, ex_fetch_err_d;
  logic [31:0] ex_pc_q, ex_pc_d;
  logic        ex_pred_q, ex_pred_d;     // fetch went on at the jump target
  logic        dreq_wait_q;              // a data request is raised and not yet accepted
  logic        byp_we_q;                 // the register write of the previous cycle,
  logic [4:0]  byp_rd_q;                 // which the synchronous register-file read
  logic [31:0] byp_data_q;               // did not see yet
  logic        ex_valid;
  logic [31:0] ex_insn;
  logic        ex_fetch_err;
  assign ex_valid     = ex_valid_q;
  assign ex_insn      = ex_insn_q;
  assign ex_fetch_err = ex_fetch_err_q;

  logic        dec_illegal, dec_alu_a_pc, dec_alu_a_zero, dec_alu_b_imm, dec_rd_we;
  logic        dec_load, dec_store, dec_branch, dec_jal, dec_jalr, dec_csr, dec_muldiv;
  logic        dec_ecall, dec_ebreak, dec_mret, dec_wfi, dec_fencei;
  logic [3:0]  dec_alu_op;
  logic [31:0] dec_imm;

  tessel_core_decode u_decode (
    .insn_i       (ex_insn),
    .illegal_o    (dec_illegal),
    .alu_op_o     (dec_alu_op),
    .alu_a_pc_o   (dec_alu_a_pc),
    .alu_a_zero_o (dec_alu_a_zero),
    .alu_b_imm_o  (dec_alu_b_imm),
    .imm_o        (dec_imm),
    .rd_we_o      (dec_rd_we),
    .load_o       (dec_load),
    .store_o      (dec_store),
    .branch_o     (dec_branch),
    .jal_o        (dec_jal),
    .jalr_o       (dec_jalr),
    .csr_o        (dec_csr),
    .muldiv_o     (dec_muldiv),
    .ecall_o      (dec_ecall),
    .ebreak_o     (dec_ebreak),
    .mret_o       (dec_mret),
    .wfi_o        (dec_wfi),
    .fencei_o     (dec_fencei)
  );

  logic [4:0]  rs1, rs2, rd;
  logic [2:0]  funct3;
  logic [31:0] rf_rdata1, rf_rdata2, rs1_val, rs2_val;
  logic [4:0]  rf_raddr1, rf_raddr2;     // sources of the instruction in execute next cycle
  logic        ex_advance;               // execute is empty or its instruction fires
  assign rs1    = ex_insn[19:15];
  assign rs2    = ex_insn[24:20];
  assign rd     = ex_insn[11:7];
  assign funct3 = ex_insn[14:12];

  tessel_core_regfile u_regfile (
    .clk_i    (clk_i),
    .raddr1_i (rf_raddr1),
    .rdata1_o (rf_rdata1),
    .raddr2_i (rf_raddr2),
    .rdata2_o (rf_rdata2),
    .we_i     (wb_retire && wb_rd_we_q),
    .waddr_i  (wb_rd_q),
    .wdata_i  (wb_result)
  );

  // The register file reads at every edge for the instruction that will be in
  // execute in the next cycle: the incoming one, or the stalled one again.
  assign ex_advance    = !ex_valid_q || ex_fire;
  assign rf_raddr1     = ex_advance ? f_insn[19:15] : rs1;
  assign rf_raddr2     = ex_advance ? f_insn[24:20] : rs2;

  // forwarding: writeback retires in the cycle execute proceeds; the write of
  // the previous cycle happened at the edge of the register-file read
  always_comb begin
    rs1_val = rf_rdata1;
    rs2_val = rf_rdata2;
    if (byp_we_q && byp_rd_q == rs1) rs1_val = byp_data_q;
    if (byp_we_q && byp_rd_q == rs2) rs2_val = byp_data_q;
    if (wb_valid_q && wb_rd_we_q && wb_rd_q == rs1) rs1_val = wb_result;
    if (wb_valid_q && wb_rd_we_q && wb_rd_q == rs2) rs2_val = wb_result;
    if (rs1 == 5'd0) rs1_val = 32'd0;
    if (rs2 == 5'd0) rs2_val = 32'd0;
  end

  logic [31:0] alu_a, alu_b, alu_result;
  logic        branch_cond;
  assign alu_a = dec_alu_a_zero ? 32'd0 : (dec_alu_a_pc ? ex_pc_q : rs1_val);
  assign alu_b = dec_alu_b_imm ? dec_imm : rs2_val;

  tessel_core_alu u_alu (
    .a_i      (alu_a),
    .b_i      (alu_b),
    .op_i     (dec_alu_op),
    .cmp_i    (funct3),
    .result_o (alu_result),
    .taken_o  (branch_cond)
  );

  // control transfer
  logic        jump;                     // jal, jalr or a taken branch
  logic [31:0] jump_target, pc_plus4;
  assign pc_plus4    = ex_pc_q + 32'd4;
  assign jump        = dec_jal || dec_jalr || (dec_branch && branch_cond);
  assign jump_target = dec_jalr ? {alu_result[31:1], 1'b0} : (ex_pc_q + dec_imm);

  // loads and stores
  logic        mem_misaligned;
  logic [3:0]  mem_be;
  logic [31:0] mem_wdata;

  tessel_core_lsu_align u_lsu_align (
    .addr_lo_i     (alu_result[1:0]),
    .size_i        (funct3[1:0]),
    .store_data_i  (rs2_val),
    .misaligned_o  (mem_misaligned),
    .be_o          (mem_be),
    .wdata_o       (mem_wdata),
    .rsp_addr_lo_i (wb_data_q[1:0]),
    .rsp_funct3_i  (wb_funct3_q),
    .rsp_rdata_i   (dbus_rsp_rdata_i),
    .load_data_o   (wb_load_data)
  );

  // CSRs, traps, interrupts
  logic        csr_write;
  logic [31:0] csr_rdata, mtvec, mepc, irq_cause;
  logic        csr_illegal, irq_take, irq_wake;
  logic        trap;
  logic [31:0] trap_cause, trap_tval;
  logic [31:2] trap_epc;

  // csrrs/csrrc (and immediate forms) with rs1/uimm = 0 only read
  assign csr_write = (funct3[1:0] == 2'b01) || (rs1 != 5'd0);

  tessel_core_csr u_csr (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .csr_addr_i     (ex_insn[31:20]),
    .csr_write_i    (csr_write),
    .csr_op_i       (funct3[1:0]),
    .csr_wdata_i    (funct3[2] ? {27'd0, rs1} : rs1_val),
    .csr_en_i       (ex_fire && dec_csr),
    .csr_rdata_o    (csr_rdata),
    .csr_illegal_o  (csr_illegal),
    .trap_i         (trap),
    .trap_cause_i   (trap_cause),
    .trap_epc_i     (trap_epc),
    .trap_tval_i    (trap_tval),
    .mret_i         (ex_fire && dec_mret),
    .mtvec_o        (mtvec),
    .mepc_o         (mepc),
    .instret_i      (wb_retire),
    .irq_timer_i    (irq_timer_i),
    .irq_external_i (irq_external_i),
    .irq_take_o     (irq_take),
    .irq_cause_o    (irq_cause),
    .irq_wake_o     (irq_wake)
  );

  // synchronous exceptions of the instruction in execute, by priority
  logic        ex_exc;
  logic [31:0] ex_exc_cause, ex_exc_tval;
  always_comb begin
    ex_exc       = 1'b1;
    ex_exc_cause = tessel_memmap_pkg::CauseIllegal;
    ex_exc_tval  = 32'd0;
    if (ex_fetch_err) begin
      ex_exc_cause = tessel_memmap_pkg::CauseFetchFault;
      ex_exc_tval  = ex_pc_q;
    end else if (dec_illegal || (dec_csr && csr_illegal)) begin
      ex_exc_cause = tessel_memmap_pkg::CauseIllegal;
      ex_exc_tval  = ex_insn;
    end else if (dec_ecall) begin
      ex_exc_cause = tessel_memmap_pkg::CauseEcallM;
    end else if (dec_ebreak) begin
      ex_exc_cause = tessel_memmap_pkg::CauseBreakpoint;
    end else if (jump && jump_target[1]) begin
      ex_exc_cause = tessel_memmap_pkg::CauseFetchMisaligned;
      ex_exc_tval  = jump_target;
    end else if (dec_load && mem_misaligned) begin
      ex_exc_cause = tessel_memmap_pkg::CauseLoadMisaligned;
      ex_exc_tval  = alu_result;
    end else if (dec_store && mem_misaligned) begin
      ex_exc_cause = tessel_memmap_pkg::CauseStoreMisaligned;
      ex_exc_tval  = alu_result;
    end else begin
      ex_exc = 1'b0;
    end
  end

  // Execute proceeds when its operands are final and nothing older can trap:
  // writeback retires this cycle or is empty. CSR accesses wait for an empty
  // writeback so minstret and the trap CSRs are read after older retirements.
  logic ex_go;
  logic irq_now, exc_now;
  logic md_done;
  logic [31:0] md_result;
  assign ex_go   = ex_valid && (dec_csr ? !wb_valid_q : wb_free);
  // An interrupt is taken before the instruction in execute, which becomes
  // mepc; never while a data request waits (it may not be retracted), and
  // not at a wfi, which retires first so that mepc points past it.
  assign irq_now = irq_take && ex_valid && wb_free && !dreq_wait_q && !dec_wfi;
  assign exc_now = ex_go && ex_exc && !irq_now;

  assign dbus_req_valid_o = ex_go && (dec_load || dec_store) && !ex_exc && !irq_now;
  assign dbus_req_we_o    = dec_store;
  assign dbus_req_be_o    = mem_be;
  assign dbus_req_addr_o  = alu_result;
  assign dbus_req_wdata_o = mem_wdata;

  tessel_core_muldiv #(
    .FastMul (FastMul)
  ) u_muldiv (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (ex_go && dec_muldiv && !irq_now),
    .kill_i   (ex_fire || redirect),
    .op_i     (funct3),
    .a_i      (rs1_val),
    .b_i      (rs2_val),
    .done_o   (md_done),
    .result_o (md_result)
  );

  // ex_ready: the instruction can complete, apart from a load/store's bus
  // handshake. Control transfers (never loads or stores) use it rather than
  // ex_fire, so no path runs from dbus_req_ready_i to the instruction bus.
  logic ex_ready;
  assign ex_ready = ex_go && !ex_exc && !irq_now
                 && (!dec_muldiv || md_done)
                 && (!dec_wfi || irq_wake);
  assign ex_fire  = ex_ready && (!(dec_load || dec_store) || dbus_req_ready_i);

  logic [31:0] ex_result;
  always_comb begin
    ex_result = alu_result;
    if (dec_jal || dec_jalr) ex_result = pc_plus4;
    else if (dec_csr)        ex_result = csr_rdata;
    else if (dec_muldiv)     ex_result = md_result;
  end

  // traps: an access fault in writeback, else the instruction in execute
  always_comb begin
    trap       = 1'b0;
    trap_cause = ex_exc_cause;
    trap_epc   = ex_pc_q[31:2];
    trap_tval  = ex_exc_tval;
    if (wb_fault) begin
      trap       = 1'b1;
      trap_cause = wb_load_q ? tessel_memmap_pkg::CauseLoadFault : tessel_memmap_pkg::CauseStoreFault;
      trap_epc   = wb_pc_q[31:2];
      trap_tval  = wb_data_q;
    end else if (irq_now) begin
      trap       = 1'b1;
      trap_cause = irq_cause;
      trap_tval  = 32'd0;
    end else if (exc_now) begin
      trap = 1'b1;
    end
  end

  always_comb begin
    redirect    = 1'b0;
    redirect_pc = mtvec;
    if (trap) begin
      redirect = 1'b1;
    end else if (ex_ready && dec_mret) begin
      redirect    = 1'b1;
      redirect_pc = mepc;
    end else if (ex_ready && (jump != ex_pred_q)) begin
      // fetch guessed wrong: a taken jump it did not predict, or a predicted
      // branch that falls through
      redirect    = 1'b1;
      redirect_pc = jump ? jump_target : pc_plus4;
    end else if (ex_ready && dec_fencei) begin
      // later fetches are issued after every older store has completed
      redirect    = 1'b1;
      redirect_pc = pc_plus4;
    end
  end

  // the execute register takes fetch's next instruction when it is free;
  // a redirect empties it (its instruction fired, trapped or was overtaken)
  assign x_load = f_valid && ex_advance && !redirect;
  always_comb begin
    ex_valid_d     = ex_valid_q && !ex_fire;
    ex_insn_d      = ex_insn_q;
    ex_fetch_err_d = ex_fetch_err_q;
    ex_pc_d        = ex_pc_q;
    ex_pred_d      = ex_pred_q;
    if (redirect) begin
      ex_valid_d = 1'b0;
    end else if (x_load) begin
      ex_valid_d     = 1'b1;
      ex_insn_d      = f_insn;
      ex_fetch_err_d = f_err;
      ex_pc_d        = f_pc;
      ex_pred_d      = f_pred;
    end
  end

  always_comb begin
    wb_valid_d  = wb_valid_q && !wb_done;
    wb_pc_d     = wb_pc_q;
    wb_insn_d   = wb_insn_q;
    wb_rd_we_d  = wb_rd_we_q;
    wb_rd_d     = wb_rd_q;
    wb_mem_d    = wb_mem_q;
    wb_load_d   = wb_load_q;
    wb_funct3_d = wb_funct3_q;
    wb_data_d   = wb_data_q;
    if (ex_fire) begin
      wb_valid_d  = 1'b1;
      wb_pc_d     = ex_pc_q;
      wb_insn_d   = ex_insn;
      wb_rd_we_d  = dec_rd_we && (rd != 5'd0);
      wb_rd_d     = rd;
      wb_mem_d    = dec_load || dec_store;
      wb_load_d   = dec_load;
      wb_funct3_d = funct3;
      wb_data_d   = ex_result;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ex_valid_q     <= 1'b0;
      ex_insn_q      <= 32'd0;
      ex_fetch_err_q <= 1'b0;
      ex_pc_q        <= 32'd0;
      ex_pred_q      <= 1'b0;
      byp_we_q       <= 1'b0;
      byp_rd_q       <= 5'd0;
      byp_data_q     <= 32'd0;
      dreq_wait_q <= 1'b0;
      wb_valid_q  <= 1'b0;
      wb_pc_q     <= 32'd0;
      wb_insn_q   <= 32'd0;
      wb_rd_we_q  <= 1'b0;
      wb_rd_q     <= 5'd0;
      wb_mem_q    <= 1'b0;
      wb_load_q   <= 1'b0;
      wb_funct3_q <= 3'd0;
      wb_data_q   <= 32'd0;
    end else begin
      ex_valid_q     <= ex_valid_d;
      ex_insn_q      <= ex_insn_d;
      ex_fetch_err_q <= ex_fetch_err_d;
      ex_pc_q        <= ex_pc_d;
      ex_pred_q      <= ex_pred_d;
      byp_we_q       <= wb_retire && wb_rd_we_q;
      byp_rd_q       <= wb_rd_q;
      byp_data_q     <= wb_result;
      dreq_wait_q <= dbus_req_valid_o && !dbus_req_ready_i;
      wb_valid_q  <= wb_valid_d;
      wb_pc_q     <= wb_pc_d;
      wb_insn_q   <= wb_insn_d;
      wb_rd_we_q  <= wb_rd_we_d;
      wb_rd_q     <= wb_rd_d;
      wb_mem_q    <= wb_mem_d;
      wb_load_q   <= wb_load_d;
      wb_funct3_q <= wb_funct3_d;
      wb_data_q   <= wb_data_d;
    end
  end

`ifndef SYNTHESIS
  // Invariants (checked by the core bench, which builds with assertions on).
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!dbus_rsp_valid_i || (wb_valid_q && wb_mem_q))
        else $error("core: data response without a request");
      assert (!dbus_req_valid_o || !(wb_valid_q && wb_mem_q && !dbus_rsp_valid_i))
        else $error("core: second data request in flight");
      assert (!(ex_fire && redirect && !(trap || dec_mret || jump || ex_pred_q || dec_fencei)))
        else $error("core: redirect without a cause");
      assert (!commit_valid_o || !commit_rd_we_o || commit_rd_o != 5'd0)
        else $error("core: commit writes x0");
      assert (!(trap && ex_fire)) else $error("core: an instruction both fired and trapped");
    end
  end
`endif

  // ---------------------------------------------------------------- retirement
  assign commit_valid_o    = wb_retire;
  assign commit_pc_o       = wb_pc_q;
  assign commit_insn_o     = wb_insn_q;
  assign commit_rd_we_o    = wb_rd_we_q;
  assign commit_rd_o       = wb_rd_q;
  assign commit_rd_wdata_o = wb_result;
endmodule
