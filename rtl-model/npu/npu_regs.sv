// npu_regs: the register window (docs/isa.md section 6, offsets from the
// generated package). Every request is taken at once and answered the next
// cycle; unlisted offsets read 0 and ignore writes. CTRL.START (ignored while
// busy) and CTRL.ABORT are pulses in the cycle the write is taken, so a read
// right after START already sees BUSY. The run's end latches DONE or ERROR
// and, with IRQ_EN, the interrupt (STATUS.IRQ, write 1 to clear).
// CTRL.FETCH (ignored while a fetch is busy) starts the stream fetch
// (npu_fetch); its registers are written while no fetch is busy, whether or
// not a run is, and STATUS.FETCH_BUSY/FETCH_ERROR and FETCH_ERR come from it.
`default_nettype none

module npu_regs #(
  parameter int unsigned CounterBits = tessel_target_pkg::CounterBits,
  localparam int unsigned N = tessel_isa_pkg::NumCounters
) (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,
  input  wire logic          req_valid_i,
  output      logic          req_ready_o,
  input  wire logic          req_we_i,
  input  wire logic [3:0]    req_be_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [15:0]   req_addr_i,        // word registers: bits 1:0 do not select
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic [31:0]   req_wdata_i,
  output      logic          rsp_valid_o,
  output      logic [31:0]   rsp_rdata_o,
  output      logic          rsp_err_o,
  // to and from the dispatcher
  output      logic          start_o,
  output      logic          abort_o,
  output      logic [31:0]   dram_base_o,
  output      logic [31:0]   dram_size_o,
  output      logic [31:0]   stream_base_o,
  output      logic [31:0]   stream_len_o,
  output      logic          fetch_o,
  output      logic [31:0]   fetch_base_o,
  output      logic [31:0]   fetch_size_o,
  output      logic [31:0]   fetch_src_o,
  output      logic [31:0]   fetch_dst_o,
  output      logic [31:0]   fetch_len_o,
  input  wire logic          fetch_busy_i,
  input  wire logic [7:0]    fetch_err_i,
  input  wire logic          busy_i,
  input  wire logic          end_i,
  input  wire logic [7:0]    err_code_i,
  input  wire logic [31:0]   err_index_i,
  input  wire logic [31:0]   cur_index_i,
  input  wire logic [31:0]   mark_count_i,
  input  wire logic [31:0]   mark_kernel_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [N*64-1:0] counters_i,       // bits above CounterBits of each are 0
  /* verilator lint_on UNUSEDSIGNAL */
  output      logic          irq_o
);
  logic        done_d, done_q, error_d, error_q, irq_d, irq_q, irqen_d, irqen_q;
  logic [31:0] base_d, base_q, size_d, size_q, sbase_d, sbase_q, slen_d, slen_q;
  logic [31:0] fbase_d, fbase_q, fsize_d, fsize_q, fsrc_d, fsrc_q, fdst_d, fdst_q, flen_d, flen_q;
  logic        rv_d, rv_q;
  logic [31:0] rd_d, rd_q;
  logic        wr;
  logic [15:0] a;
  // The counters with their constant-zero bits made visible, so that the
  // read multiplexer has no inputs for them (npu_counters: CounterBits).
  logic [N*64-1:0] cnt;
  always_comb begin
    for (int i = 0; i < N; i++) cnt[i*64 +: 64] = 64'(counters_i[i*64 +: CounterBits]);
  end
  logic [31:0] wmask;

  function automatic logic [31:0] merge(logic [31:0] old, logic [31:0] nw, logic [31:0] m);
    merge = (old & ~m) | (nw & m);
  endfunction

  // The CTRL pulses in their own block: the dispatcher's run end (end_i)
  // depends on START, and one block for both would be a loop to Verilator.
  always_comb begin
    a     = {req_addr_i[15:2], 2'b00};
    wr    = req_valid_i && req_we_i;
    start_o = 1'b0;
    abort_o = 1'b0;
    fetch_o = 1'b0;
    if (wr && a == tessel_isa_pkg::RegCtrl && req_be_i[0]) begin
      start_o = req_wdata_i[tessel_isa_pkg::RegCtrlStartBit] && !busy_i;
      abort_o = req_wdata_i[tessel_isa_pkg::RegCtrlAbortBit];
      fetch_o = req_wdata_i[tessel_isa_pkg::RegCtrlFetchBit] && !fetch_busy_i;
    end
  end

  always_comb begin
    wmask = {{8{req_be_i[3]}}, {8{req_be_i[2]}}, {8{req_be_i[1]}}, {8{req_be_i[0]}}};
    done_d  = done_q;
    error_d = error_q;
    irq_d   = irq_q;
    irqen_d = irqen_q;
    base_d  = base_q;
    size_d  = size_q;
    sbase_d = sbase_q;
    slen_d  = slen_q;
    fbase_d = fbase_q;
    fsize_d = fsize_q;
    fsrc_d  = fsrc_q;
    fdst_d  = fdst_q;
    flen_d  = flen_q;
    if (wr && a == tessel_isa_pkg::RegStatus && req_be_i[0] && req_wdata_i[tessel_isa_pkg::RegStatusIrqBit])
      irq_d = 1'b0;
    if (wr && !busy_i) begin
      unique case (a)
        tessel_isa_pkg::RegIrqEn:      irqen_d = req_be_i[0] ? req_wdata_i[0] : irqen_q;
        tessel_isa_pkg::RegDramBase:   base_d  = merge(base_q, req_wdata_i, wmask);
        tessel_isa_pkg::RegDramSize:   size_d  = merge(size_q, req_wdata_i, wmask);
        tessel_isa_pkg::RegStreamBase: sbase_d = merge(sbase_q, req_wdata_i, wmask);
        tessel_isa_pkg::RegStreamLen:  slen_d  = merge(slen_q, req_wdata_i, wmask);
        default: ;
      endcase
    end
    if (wr && !fetch_busy_i) begin
      unique case (a)
        tessel_isa_pkg::RegFetchBase: fbase_d = merge(fbase_q, req_wdata_i, wmask);
        tessel_isa_pkg::RegFetchSize: fsize_d = merge(fsize_q, req_wdata_i, wmask);
        tessel_isa_pkg::RegFetchSrc:  fsrc_d  = merge(fsrc_q, req_wdata_i, wmask);
        tessel_isa_pkg::RegFetchDst:  fdst_d  = merge(fdst_q, req_wdata_i, wmask);
        tessel_isa_pkg::RegFetchLen:  flen_d  = merge(flen_q, req_wdata_i, wmask);
        default: ;
      endcase
    end
    if (start_o) begin
      done_d  = 1'b0;
      error_d = 1'b0;
    end
    if (end_i) begin
      done_d  = (err_code_i == tessel_isa_pkg::ErrNone);
      error_d = (err_code_i != tessel_isa_pkg::ErrNone);
      if (irqen_q) irq_d = 1'b1;
    end

    // read data (computed only for a request: the answer is only looked at then)
    rd_d = '0;
    if (req_valid_i) begin
      if (a >= tessel_isa_pkg::RegCounters && a < tessel_isa_pkg::RegCounters + 16'(8 * N)) begin
        rd_d = cnt[(32'(a) - 32'(tessel_isa_pkg::RegCounters)) * 8 +: 32];
      end else begin
        unique case (a)
          tessel_isa_pkg::RegId:         rd_d = tessel_isa_pkg::RegIdValue;
          tessel_isa_pkg::RegVersion:    rd_d = {16'd0, 8'(tessel_target_pkg::Dim), 8'(tessel_isa_pkg::IsaVersion)};
          tessel_isa_pkg::RegTargetHash: rd_d = tessel_target_pkg::TargetHash;
          tessel_isa_pkg::RegStatus:     rd_d = {26'd0, fetch_err_i != tessel_isa_pkg::ErrNone && !fetch_busy_i,
                                                  fetch_busy_i || fetch_o, irq_q, error_q, done_q, busy_i || start_o};
          tessel_isa_pkg::RegIrqEn:      rd_d = {31'd0, irqen_q};
          tessel_isa_pkg::RegErrCode:    rd_d = {24'd0, err_code_i};
          tessel_isa_pkg::RegErrIndex:   rd_d = err_index_i;
          tessel_isa_pkg::RegDramBase:   rd_d = base_q;
          tessel_isa_pkg::RegDramSize:   rd_d = size_q;
          tessel_isa_pkg::RegStreamBase: rd_d = sbase_q;
          tessel_isa_pkg::RegStreamLen:  rd_d = slen_q;
          tessel_isa_pkg::RegMarkCount:  rd_d = mark_count_i;
          tessel_isa_pkg::RegMarkKernel: rd_d = mark_kernel_i;
          tessel_isa_pkg::RegCurIndex:   rd_d = cur_index_i;
          tessel_isa_pkg::RegFetchBase:  rd_d = fbase_q;
          tessel_isa_pkg::RegFetchSize:  rd_d = fsize_q;
          tessel_isa_pkg::RegFetchSrc:   rd_d = fsrc_q;
          tessel_isa_pkg::RegFetchDst:   rd_d = fdst_q;
          tessel_isa_pkg::RegFetchLen:   rd_d = flen_q;
          tessel_isa_pkg::RegFetchErr:   rd_d = {24'd0, fetch_err_i};
          default: ;
        endcase
      end
    end
    rv_d = req_valid_i;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      done_q  <= 1'b0;
      error_q <= 1'b0;
      irq_q   <= 1'b0;
      irqen_q <= 1'b0;
      base_q  <= '0;
      size_q  <= '0;
      sbase_q <= '0;
      slen_q  <= '0;
      fbase_q <= '0;
      fsize_q <= '0;
      fsrc_q  <= '0;
      fdst_q  <= '0;
      flen_q  <= '0;
      rv_q    <= 1'b0;
    end else begin
      done_q  <= done_d;
      error_q <= error_d;
      irq_q   <= irq_d;
      irqen_q <= irqen_d;
      base_q  <= base_d;
      size_q  <= size_d;
      sbase_q <= sbase_d;
      slen_q  <= slen_d;
      fbase_q <= fbase_d;
      fsize_q <= fsize_d;
      fsrc_q  <= fsrc_d;
      fdst_q  <= fdst_d;
      flen_q  <= flen_d;
      rv_q    <= rv_d;
    end
  end
  always_ff @(posedge clk_i) rd_q <= rd_d;

  assign req_ready_o   = 1'b1;
  assign rsp_valid_o   = rv_q;
  assign rsp_rdata_o   = rd_q;
  assign rsp_err_o     = 1'b0;
  assign dram_base_o   = base_q;
  assign dram_size_o   = size_q;
  assign stream_base_o = sbase_q;
  assign stream_len_o  = slen_q;
  assign fetch_base_o  = fbase_q;
  assign fetch_size_o  = fsize_q;
  assign fetch_src_o   = fsrc_q;
  assign fetch_dst_o   = fdst_q;
  assign fetch_len_o   = flen_q;
  assign irq_o         = irq_q;
endmodule

`default_nettype wire
