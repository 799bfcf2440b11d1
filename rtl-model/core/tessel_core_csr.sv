`default_nettype none
// tessel_core_csr: the machine-mode CSRs (mstatus, misa, mie, mip, mtvec,
// mscratch, mepc, mcause, mtval, mcycle[h], minstret[h], mvendorid, marchid,
// mimpid, mhartid), trap entry and mret, and the interrupt decision.
// Any other CSR number, or a write to a read-only one, is reported illegal.
module tessel_core_csr (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // CSR instruction in execute
  input  wire logic [11:0] csr_addr_i,
  input  wire logic        csr_write_i,   // the instruction writes the CSR (csrrw, or rs1/uimm != 0)
  input  wire logic [1:0]  csr_op_i,      // funct3[1:0]: 01 write, 10 set, 11 clear
  input  wire logic [31:0] csr_wdata_i,   // rs1 value or zero-extended uimm
  input  wire logic        csr_en_i,      // the CSR instruction fires this cycle
  output      logic [31:0] csr_rdata_o,   // old value (goes to rd)
  output      logic        csr_illegal_o, // unknown CSR or write to a read-only one
  // trap entry and return
  input  wire logic        trap_i,
  input  wire logic [31:0] trap_cause_i,
  input  wire logic [31:2] trap_epc_i,    // word-aligned: IALIGN=32
  input  wire logic [31:0] trap_tval_i,
  input  wire logic        mret_i,
  output      logic [31:0] mtvec_o,
  output      logic [31:0] mepc_o,
  // counters
  input  wire logic        instret_i,     // an instruction retires this cycle
  // interrupts (level inputs)
  input  wire logic        irq_timer_i,
  input  wire logic        irq_external_i,
  output      logic        irq_take_o,    // an interrupt is enabled, pending and mstatus.MIE is set
  output      logic [31:0] irq_cause_o,
  output      logic        irq_wake_o     // (mip & mie) != 0: wakes wfi regardless of mstatus.MIE
);
  // CSR numbers, misa and the interrupt causes: tessel_memmap_pkg (targets/memmap.def).

  logic        mie_q, mie_d;         // mstatus.MIE
  logic        mpie_q, mpie_d;       // mstatus.MPIE
  logic        mtie_q, mtie_d;       // mie.MTIE
  logic        meie_q, meie_d;       // mie.MEIE
  logic [31:2] mtvec_q, mtvec_d;     // direct mode only: low bits read 0
  logic [31:0] mscratch_q, mscratch_d;
  logic [31:2] mepc_q, mepc_d;       // IALIGN=32: low bits read 0
  logic [31:0] mcause_q, mcause_d;
  logic [31:0] mtval_q, mtval_d;
  logic [63:0] mcycle_q, mcycle_d;
  logic [63:0] minstret_q, minstret_d;
  logic        instret_hold_q, instret_hold_d; // the retirement that wrote minstret does not count

  logic [31:0] mstatus, mie_val, mip_val;
  assign mstatus = {19'b0, 2'b11, 3'b0, mpie_q, 3'b0, mie_q, 3'b0};
  assign mie_val = {20'b0, meie_q, 3'b0, mtie_q, 7'b0};
  assign mip_val = {20'b0, irq_external_i, 3'b0, irq_timer_i, 7'b0};

  // Read and legality.
  logic known;
  always_comb begin
    known       = 1'b1;
    csr_rdata_o = 32'd0;
    unique case (csr_addr_i)
      tessel_memmap_pkg::CsrMstatus:   csr_rdata_o = mstatus;
      tessel_memmap_pkg::CsrMisa:      csr_rdata_o = tessel_memmap_pkg::CsrMisaValue;
      tessel_memmap_pkg::CsrMie:       csr_rdata_o = mie_val;
      tessel_memmap_pkg::CsrMtvec:     csr_rdata_o = {mtvec_q, 2'b00};
      tessel_memmap_pkg::CsrMscratch:  csr_rdata_o = mscratch_q;
      tessel_memmap_pkg::CsrMepc:      csr_rdata_o = {mepc_q, 2'b00};
      tessel_memmap_pkg::CsrMcause:    csr_rdata_o = mcause_q;
      tessel_memmap_pkg::CsrMtval:     csr_rdata_o = mtval_q;
      tessel_memmap_pkg::CsrMip:       csr_rdata_o = mip_val;
      tessel_memmap_pkg::CsrMcycle:    csr_rdata_o = mcycle_q[31:0];
      tessel_memmap_pkg::CsrMinstret:  csr_rdata_o = minstret_q[31:0];
      tessel_memmap_pkg::CsrMcycleh:   csr_rdata_o = mcycle_q[63:32];
      tessel_memmap_pkg::CsrMinstreth: csr_rdata_o = minstret_q[63:32];
      tessel_memmap_pkg::CsrMvendorid, tessel_memmap_pkg::CsrMarchid, tessel_memmap_pkg::CsrMimpid, tessel_memmap_pkg::CsrMhartid: csr_rdata_o = 32'd0;
      default:      known = 1'b0;
    endcase
  end
  // CSR numbers 0xC00-0xFFF are read-only by the privileged spec's encoding
  assign csr_illegal_o = !known || (csr_write_i && csr_addr_i[11:10] == 2'b11);

  logic [31:0] wval;
  always_comb begin
    unique case (csr_op_i)
      2'b10:   wval = csr_rdata_o | csr_wdata_i;
      2'b11:   wval = csr_rdata_o & ~csr_wdata_i;
      default: wval = csr_wdata_i;
    endcase
  end

  logic do_write;
  assign do_write = csr_en_i && csr_write_i;

  always_comb begin
    mie_d          = mie_q;
    mpie_d         = mpie_q;
    mtie_d         = mtie_q;
    meie_d         = meie_q;
    mtvec_d        = mtvec_q;
    mscratch_d     = mscratch_q;
    mepc_d         = mepc_q;
    mcause_d       = mcause_q;
    mtval_d        = mtval_q;
    mcycle_d       = mcycle_q + 64'd1;
    minstret_d     = minstret_q + {63'd0, instret_i && !instret_hold_q};
    instret_hold_d = instret_hold_q && !instret_i;

    if (do_write) begin
      unique case (csr_addr_i)
        tessel_memmap_pkg::CsrMstatus: begin
          mie_d  = wval[3];
          mpie_d = wval[7];
        end
        tessel_memmap_pkg::CsrMie: begin
          mtie_d = wval[7];
          meie_d = wval[11];
        end
        tessel_memmap_pkg::CsrMtvec:     mtvec_d    = wval[31:2];
        tessel_memmap_pkg::CsrMscratch:  mscratch_d = wval;
        tessel_memmap_pkg::CsrMepc:      mepc_d     = wval[31:2];
        tessel_memmap_pkg::CsrMcause:    mcause_d   = wval;
        tessel_memmap_pkg::CsrMtval:     mtval_d    = wval;
        tessel_memmap_pkg::CsrMcycle:    mcycle_d[31:0]  = wval;
        tessel_memmap_pkg::CsrMcycleh:   mcycle_d[63:32] = wval;
        // an explicit write wins over the increment of the writing instruction
        tessel_memmap_pkg::CsrMinstret: begin
          minstret_d[31:0] = wval;
          instret_hold_d   = 1'b1;
        end
        tessel_memmap_pkg::CsrMinstreth: begin
          minstret_d[63:32] = wval;
          instret_hold_d    = 1'b1;
        end
        default: ;  // misa, mip: writable encodings whose writes are ignored
      endcase
    end

    if (trap_i) begin
      mepc_d   = trap_epc_i;
      mcause_d = trap_cause_i;
      mtval_d  = trap_tval_i;
      mpie_d   = mie_q;
      mie_d    = 1'b0;
    end else if (mret_i) begin
      mie_d  = mpie_q;
      mpie_d = 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      mie_q          <= 1'b0;
      mpie_q         <= 1'b0;
      mtie_q         <= 1'b0;
      meie_q         <= 1'b0;
      mtvec_q        <= 30'd0;
      mscratch_q     <= 32'd0;
      mepc_q         <= 30'd0;
      mcause_q       <= 32'd0;
      mtval_q        <= 32'd0;
      mcycle_q       <= 64'd0;
      minstret_q     <= 64'd0;
      instret_hold_q <= 1'b0;
    end else begin
      mie_q          <= mie_d;
      mpie_q         <= mpie_d;
      mtie_q         <= mtie_d;
      meie_q         <= meie_d;
      mtvec_q        <= mtvec_d;
      mscratch_q     <= mscratch_d;
      mepc_q         <= mepc_d;
      mcause_q       <= mcause_d;
      mtval_q        <= mtval_d;
      mcycle_q       <= mcycle_d;
      minstret_q     <= minstret_d;
      instret_hold_q <= instret_hold_d;
    end
  end

  assign mtvec_o = {mtvec_q, 2'b00};
  assign mepc_o  = {mepc_q, 2'b00};

  logic ext_pending, timer_pending;
  assign ext_pending   = irq_external_i && meie_q;
  assign timer_pending = irq_timer_i && mtie_q;
  assign irq_wake_o    = ext_pending || timer_pending;
  assign irq_take_o    = mie_q && irq_wake_o;
  // external before timer, as the privileged spec orders them
  assign irq_cause_o   = ext_pending ? tessel_memmap_pkg::CauseIrqExternal : tessel_memmap_pkg::CauseIrqTimer;
endmodule
