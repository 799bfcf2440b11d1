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
  localparam logic [11:0] CsrMstatus   = 12'h300;
  localparam logic [11:0] CsrMisa      = 12'h301;
  localparam logic [11:0] CsrMie       = 12'h304;
  localparam logic [11:0] CsrMtvec     = 12'h305;
  localparam logic [11:0] CsrMscratch  = 12'h340;
  localparam logic [11:0] CsrMepc      = 12'h341;
  localparam logic [11:0] CsrMcause    = 12'h342;
  localparam logic [11:0] CsrMtval     = 12'h343;
  localparam logic [11:0] CsrMip       = 12'h344;
  localparam logic [11:0] CsrMcycle    = 12'hB00;
  localparam logic [11:0] CsrMinstret  = 12'hB02;
  localparam logic [11:0] CsrMcycleh   = 12'hB80;
  localparam logic [11:0] CsrMinstreth = 12'hB82;
  localparam logic [11:0] CsrMvendorid = 12'hF11;
  localparam logic [11:0] CsrMarchid   = 12'hF12;
  localparam logic [11:0] CsrMimpid    = 12'hF13;
  localparam logic [11:0] CsrMhartid   = 12'hF14;

  localparam logic [31:0] MisaValue    = 32'h4000_1100;  // RV32, I and M

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
      CsrMstatus:   csr_rdata_o = mstatus;
      CsrMisa:      csr_rdata_o = MisaValue;
      CsrMie:       csr_rdata_o = mie_val;
      CsrMtvec:     csr_rdata_o = {mtvec_q, 2'b00};
      CsrMscratch:  csr_rdata_o = mscratch_q;
      CsrMepc:      csr_rdata_o = {mepc_q, 2'b00};
      CsrMcause:    csr_rdata_o = mcause_q;
      CsrMtval:     csr_rdata_o = mtval_q;
      CsrMip:       csr_rdata_o = mip_val;
      CsrMcycle:    csr_rdata_o = mcycle_q[31:0];
      CsrMinstret:  csr_rdata_o = minstret_q[31:0];
      CsrMcycleh:   csr_rdata_o = mcycle_q[63:32];
      CsrMinstreth: csr_rdata_o = minstret_q[63:32];
      CsrMvendorid, CsrMarchid, CsrMimpid, CsrMhartid: csr_rdata_o = 32'd0;
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
        CsrMstatus: begin
          mie_d  = wval[3];
          mpie_d = wval[7];
        end
        CsrMie: begin
          mtie_d = wval[7];
          meie_d = wval[11];
        end
        CsrMtvec:     mtvec_d    = wval[31:2];
        CsrMscratch:  mscratch_d = wval;
        CsrMepc:      mepc_d     = wval[31:2];
        CsrMcause:    mcause_d   = wval;
        CsrMtval:     mtval_d    = wval;
        CsrMcycle:    mcycle_d[31:0]  = wval;
        CsrMcycleh:   mcycle_d[63:32] = wval;
        // an explicit write wins over the increment of the writing instruction
        CsrMinstret: begin
          minstret_d[31:0] = wval;
          instret_hold_d   = 1'b1;
        end
        CsrMinstreth: begin
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
  assign irq_cause_o   = ext_pending ? 32'h8000_000B : 32'h8000_0007;
endmodule
