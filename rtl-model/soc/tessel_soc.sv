// tessel_soc: the Tessel chip. Control core, instruction and data TCMs,
// UART, machine timer, simulation control, the NPU (Npu = 1, built with a
// target's packages; with Npu = 0 its two windows answer a bus error), or
// the core-sequenced NPU's datapath (NpuSeq = 1, docs/npu-seq.md; else its
// window answers a bus error), the float/int8 converter (Cvt = 1), and the
// external memory port, which the core's data side reaches through a small
// data cache with DcacheLines > 0 (docs/memory-map.md, docs/memory-port.md,
// docs/simulator.md).
//
//   core I-bus -> demux -> IMEM.a | DMEM.a | DRAM line buffer (master 0) | err
//   (CoreLite: the I-bus joins the D-bus before its decoder; ImemBytes or
//   DmemBytes 0: that TCM is not built and its window is a bus error)
//   core D-bus -> demux -> IMEM.b | DMEM.b | UART | timer | simctl
//                          | NPU regs | NPU cmd SRAM | NPU_SEQ datapath | CVT
//                          | DRAM bridge, or data cache (master 1) | err
//   line buffer, bridge or cache, NPU DMA (master 2), converter (last)
//     -> memport arbiter -> mem_* port
//   (inside, every memory-port link is a tessel_memport_pkg req_t/rsp_t pair;
//   at the SoC's own boundary the port is flat, one signal per field, for
//   the simulator's harness and the netlists)
//   NPU irq | simctl EXT_IRQ -> core external interrupt
//
// The loader port writes words into IMEM/DMEM while rst_ni is low; it is a
// plain port so the same loading works on the synthesised netlist.
`default_nettype none

module tessel_soc #(
  parameter int unsigned ImemBytes = 65536,
  parameter int unsigned DmemBytes = 65536,
  parameter bit          FastMul   = 1'b1,
  // Small-FPGA options (docs/soc.md; the defaults are the full SoC):
  // CoreLite: tessel_core_lite instead of tessel_core. It never has a fetch
  // and a data access in flight together, so its two buses share the data
  // side's decoder and demux (fetches still may not reach peripherals), and
  // the fetch line buffer and the memory port's master 0 are not built.
  parameter bit          CoreLite  = 1'b0,
  parameter int unsigned TimerBits = 64,     // tessel_timer: 64, or 32
  // MemSlice: the register slice on the memory port (0: the arbiter drives
  // the port directly; for a memory on the same chip that meets timing).
  parameter bit          MemSlice  = 1'b1,
  // Npu: the NPU (tessel_npu) on its two windows and as memory-port master 2;
  // the build then reads the NPU's RTL and a target's packages.
  parameter bit          Npu       = 1'b0,
  // NpuSeq: the core-sequenced NPU's datapath (npu_seq_dp) on the NPU_SEQ
  // window: the firmware runs the commands, the datapath does the MACs and
  // the requantising. The build then reads rtl-model/npu/npu_seq_dp.sv and
  // a target's tessel_target_pkg (its DIM). Not with Npu.
  parameter bit          NpuSeq    = 1'b0,
  // Cvt: the float/int8 converter (tessel_cvt) on the CVT window and as the
  // memory port's last master; without it the window answers a bus error.
  parameter bit          Cvt       = 1'b0,
  // DcacheLines: the data side's DRAM accesses go through a read cache of
  // that many 32-byte lines (tessel_dcache, write-through; its invalidate on
  // the DCACHE window) instead of the bridge; 0: the bridge, and the window
  // answers a bus error.
  parameter int unsigned DcacheLines = 0,
  localparam int unsigned MemIdW   = tessel_memport_pkg::IdW
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic [31:0]       boot_addr_i,
  // Loader (core held in reset).
  input  wire logic              load_valid_i,
  input  wire logic [31:0]       load_addr_i,
  input  wire logic [31:0]       load_data_i,
  // UART byte streams.
  output      logic              uart_tx_valid_o,
  input  wire logic              uart_tx_ready_i,
  output      logic [7:0]        uart_tx_data_o,
  input  wire logic              uart_rx_valid_i,
  output      logic              uart_rx_ready_o,
  input  wire logic [7:0]        uart_rx_data_i,
  // Simulation control.
  input  wire logic              tohost_en_i,
  input  wire logic [31:0]       tohost_addr_i,
  output      logic              sim_exit_valid_o,
  output      logic [31:0]       sim_exit_code_o,
  output      logic              sim_tohost_valid_o,
  output      logic [31:0]       sim_tohost_data_o,
  // Retired instructions.
  output      logic              commit_valid_o,
  output      logic [31:0]       commit_pc_o,
  output      logic [31:0]       commit_insn_o,
  output      logic              commit_rd_we_o,
  output      logic [4:0]        commit_rd_o,
  output      logic [31:0]       commit_rd_wdata_o,
  // External memory port (docs/memory-port.md).
  output      logic              mem_req_valid_o,
  input  wire logic              mem_req_ready_i,
  output      logic              mem_req_write_o,
  output      logic [31:0]       mem_req_addr_o,
  output      logic [7:0]        mem_req_len_o,
  output      logic [MemIdW-1:0] mem_req_id_o,
  output      logic              mem_w_valid_o,
  input  wire logic              mem_w_ready_i,
  output      logic [63:0]       mem_w_data_o,
  output      logic [7:0]        mem_w_strb_o,
  output      logic              mem_w_last_o,
  input  wire logic              mem_r_valid_i,
  output      logic              mem_r_ready_o,
  input  wire logic [63:0]       mem_r_data_i,
  input  wire logic [MemIdW-1:0] mem_r_id_i,
  input  wire logic              mem_r_last_i,
  input  wire logic              mem_r_err_i,
  input  wire logic              mem_b_valid_i,
  output      logic              mem_b_ready_o,
  input  wire logic [MemIdW-1:0] mem_b_id_i,
  input  wire logic              mem_b_err_i,
  // The NPU's observation bits (tessel_npu's dbg_o; 0 without the NPU):
  // read by the simulator's --npu-timeline only.
  output      logic [6:0]        npu_dbg_o
);

  localparam int unsigned NT   = tessel_soc_pkg::NumTargets;
  localparam int unsigned TgtW = 32'(tessel_soc_pkg::TgtW);
  // memory-port masters: 0 fetch line buffer, 1 the data side (bridge or
  // cache), then the NPU's DMA (Npu) and the converter (Cvt)
  localparam int unsigned NM   = 2 + 32'(Npu) + 32'(Cvt);
  localparam int unsigned QW   = tessel_memport_pkg::ReqW;
  localparam int unsigned PW   = tessel_memport_pkg::RspW;
  localparam int unsigned MIW  = tessel_memport_pkg::MstIdW;
  localparam int unsigned IdxW = tessel_memport_pkg::IdxW;

  // ---- core -------------------------------------------------------------
  logic        ibus_req_valid, ibus_req_ready, ibus_rsp_valid, ibus_rsp_err;
  logic [31:0] ibus_req_addr, ibus_rsp_rdata;
  logic        dbus_req_valid, dbus_req_ready, dbus_req_we, dbus_rsp_valid, dbus_rsp_err;
  logic [3:0]  dbus_req_be;
  logic [31:0] dbus_req_addr, dbus_req_wdata, dbus_rsp_rdata;
  logic        irq_timer, irq_external, irq_simctl, irq_npu;
  // The core's external interrupt: the NPU's end-of-run line, or the
  // simulation-control test hook.
  assign irq_external = irq_simctl | irq_npu;

  tessel_cpu #(.Lite(CoreLite), .FastMul(FastMul)) u_cpu (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .boot_addr_i       (boot_addr_i),
    .ibus_req_valid_o  (ibus_req_valid),
    .ibus_req_ready_i  (ibus_req_ready),
    .ibus_req_addr_o   (ibus_req_addr),
    .ibus_rsp_valid_i  (ibus_rsp_valid),
    .ibus_rsp_rdata_i  (ibus_rsp_rdata),
    .ibus_rsp_err_i    (ibus_rsp_err),
    .dbus_req_valid_o  (dbus_req_valid),
    .dbus_req_ready_i  (dbus_req_ready),
    .dbus_req_we_o     (dbus_req_we),
    .dbus_req_be_o     (dbus_req_be),
    .dbus_req_addr_o   (dbus_req_addr),
    .dbus_req_wdata_o  (dbus_req_wdata),
    .dbus_rsp_valid_i  (dbus_rsp_valid),
    .dbus_rsp_rdata_i  (dbus_rsp_rdata),
    .dbus_rsp_err_i    (dbus_rsp_err),
    .irq_timer_i       (irq_timer),
    .irq_external_i    (irq_external),
    .commit_valid_o    (commit_valid_o),
    .commit_pc_o       (commit_pc_o),
    .commit_insn_o     (commit_insn_o),
    .commit_rd_we_o    (commit_rd_we_o),
    .commit_rd_o       (commit_rd_o),
    .commit_rd_wdata_o (commit_rd_wdata_o)
  );

  // The data side's bus (xbus): the D-bus, or with CoreLite the two buses
  // merged (a fetch and a data access are never in flight together; lite_fetch_q
  // says which one the response belongs to).
  logic        xbus_req_valid, xbus_req_ready, xbus_req_we, xbus_rsp_valid, xbus_rsp_err;
  logic [3:0]  xbus_req_be;
  logic [31:0] xbus_req_addr, xbus_req_wdata, xbus_rsp_rdata;
  logic [TgtW-1:0] xbus_tgt;
  if (CoreLite) begin : g_lite_bus
    logic lite_fetch_q, lite_fetch_d;
    assign lite_fetch_d   = (xbus_req_valid && xbus_req_ready) ? ibus_req_valid : lite_fetch_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) lite_fetch_q <= 1'b0;
      else         lite_fetch_q <= lite_fetch_d;
    end
    assign xbus_req_valid = ibus_req_valid || dbus_req_valid;
    assign xbus_req_we    = dbus_req_we && !ibus_req_valid;
    assign xbus_req_be    = dbus_req_be;
    assign xbus_req_addr  = ibus_req_valid ? ibus_req_addr : dbus_req_addr;
    assign xbus_req_wdata = dbus_req_wdata;
    assign xbus_tgt       = ibus_req_valid ? ibus_tgt : dbus_tgt;
    assign ibus_req_ready = xbus_req_ready;
    assign dbus_req_ready = xbus_req_ready;
    assign ibus_rsp_valid = xbus_rsp_valid && lite_fetch_q;
    assign dbus_rsp_valid = xbus_rsp_valid && !lite_fetch_q;
    assign ibus_rsp_rdata = xbus_rsp_rdata;
    assign dbus_rsp_rdata = xbus_rsp_rdata;
    assign ibus_rsp_err   = xbus_rsp_err;
    assign dbus_rsp_err   = xbus_rsp_err;
  end else begin : g_full_bus
    assign xbus_req_valid = dbus_req_valid;
    assign xbus_req_we    = dbus_req_we;
    assign xbus_req_be    = dbus_req_be;
    assign xbus_req_addr  = dbus_req_addr;
    assign xbus_req_wdata = dbus_req_wdata;
    assign xbus_tgt       = dbus_tgt;
    assign dbus_req_ready = xbus_req_ready;
    assign dbus_rsp_valid = xbus_rsp_valid;
    assign dbus_rsp_rdata = xbus_rsp_rdata;
    assign dbus_rsp_err   = xbus_rsp_err;
  end

  // ---- address decode and demux, one per core bus ---------------------------
  logic [TgtW-1:0]  ibus_tgt, dbus_tgt;
  logic [NT-1:0]    it_req_valid, it_req_ready, it_rsp_valid, it_rsp_err;
  logic [NT*32-1:0] it_rsp_rdata;
  logic [NT-1:0]    dt_req_valid, dt_req_ready, dt_rsp_valid, dt_rsp_err;
  logic [NT*32-1:0] dt_rsp_rdata;

  tessel_soc_decoder #(.ImemBytes(ImemBytes), .DmemBytes(DmemBytes), .FetchOnly(1'b1)) u_ibus_dec (
    .addr_i (ibus_req_addr),
    .tgt_o  (ibus_tgt)
  );

  tessel_soc_decoder #(.ImemBytes(ImemBytes), .DmemBytes(DmemBytes), .FetchOnly(1'b0)) u_dbus_dec (
    .addr_i (xbus_req_addr),
    .tgt_o  (dbus_tgt)
  );

  // With CoreLite the I-bus has no demux of its own (g_lite_bus).
  if (!CoreLite) begin : g_ibus_demux
    tessel_bus_demux #(.NumTargets(NT), .TgtW(TgtW)) u_ibus_demux (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .req_valid_i     (ibus_req_valid),
      .req_ready_o     (ibus_req_ready),
      .req_tgt_i       (ibus_tgt),
      .rsp_valid_o     (ibus_rsp_valid),
      .rsp_rdata_o     (ibus_rsp_rdata),
      .rsp_err_o       (ibus_rsp_err),
      .tgt_req_valid_o (it_req_valid),
      .tgt_req_ready_i (it_req_ready),
      .tgt_rsp_valid_i (it_rsp_valid),
      .tgt_rsp_rdata_i (it_rsp_rdata),
      .tgt_rsp_err_i   (it_rsp_err)
    );
  end else begin : g_no_ibus_demux
    assign it_req_valid = '0;
    logic unused_ibus;
    assign unused_ibus = ^{it_req_ready, it_rsp_valid, it_rsp_err, it_rsp_rdata};
  end

  tessel_bus_demux #(.NumTargets(NT), .TgtW(TgtW)) u_dbus_demux (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .req_valid_i     (xbus_req_valid),
    .req_ready_o     (xbus_req_ready),
    .req_tgt_i       (xbus_tgt),
    .rsp_valid_o     (xbus_rsp_valid),
    .rsp_rdata_o     (xbus_rsp_rdata),
    .rsp_err_o       (xbus_rsp_err),
    .tgt_req_valid_o (dt_req_valid),
    .tgt_req_ready_i (dt_req_ready),
    .tgt_rsp_valid_i (dt_rsp_valid),
    .tgt_rsp_rdata_i (dt_rsp_rdata),
    .tgt_rsp_err_i   (dt_rsp_err)
  );

  // ---- TCMs (port A: I-bus, port B: D-bus) ----------------------------------
  localparam int unsigned TI = 32'(tessel_soc_pkg::TgtImem);
  localparam int unsigned TD = 32'(tessel_soc_pkg::TgtDmem);
  localparam int unsigned TU = 32'(tessel_soc_pkg::TgtUart);
  localparam int unsigned TT = 32'(tessel_soc_pkg::TgtTimer);
  localparam int unsigned TS = 32'(tessel_soc_pkg::TgtSimctl);
  localparam int unsigned TR = 32'(tessel_soc_pkg::TgtNpuReg);
  localparam int unsigned TC = 32'(tessel_soc_pkg::TgtNpuCmd);
  localparam int unsigned TQ = 32'(tessel_soc_pkg::TgtNpuSeq);
  localparam int unsigned TV = 32'(tessel_soc_pkg::TgtCvt);
  localparam int unsigned TK = 32'(tessel_soc_pkg::TgtDcache);
  localparam int unsigned TM = 32'(tessel_soc_pkg::TgtDram);
  localparam int unsigned TE = 32'(tessel_soc_pkg::TgtErr);

  logic load_imem, load_dmem;
  assign load_imem = load_valid_i && load_addr_i[31:28] == tessel_memmap_pkg::ImemBase[31:28];
  // (the loader port is unused when neither TCM is built)
  logic unused_load;
  assign unused_load = ^{load_addr_i, load_data_i, load_imem, load_dmem};
  assign load_dmem = load_valid_i && load_addr_i[31:28] == tessel_memmap_pkg::DmemBase[31:28];

  if (ImemBytes > 0) begin : g_imem
    tessel_tcm #(.Bytes(ImemBytes)) u_imem (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .a_req_valid_i (it_req_valid[TI]),
      .a_req_addr_i  (ibus_req_addr),
      .a_rsp_valid_o (it_rsp_valid[TI]),
      .a_rsp_rdata_o (it_rsp_rdata[TI*32 +: 32]),
      .b_req_valid_i (dt_req_valid[TI]),
      .b_req_we_i    (xbus_req_we),
      .b_req_be_i    (xbus_req_be),
      .b_req_addr_i  (xbus_req_addr),
      .b_req_wdata_i (xbus_req_wdata),
      .b_rsp_valid_o (dt_rsp_valid[TI]),
      .b_rsp_rdata_o (dt_rsp_rdata[TI*32 +: 32]),
      .ld_valid_i    (load_imem),
      .ld_addr_i     (load_addr_i),
      .ld_data_i     (load_data_i)
    );
  end else begin : g_no_imem
    // no TCM: the decoder never selects its window (a bus error)
    assign it_rsp_valid[TI]         = 1'b0;
    assign it_rsp_rdata[TI*32 +: 32] = 32'h0;
    assign dt_rsp_valid[TI]         = 1'b0;
    assign dt_rsp_rdata[TI*32 +: 32] = 32'h0;
  end

  if (DmemBytes > 0) begin : g_dmem
    tessel_tcm #(.Bytes(DmemBytes)) u_dmem (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .a_req_valid_i (it_req_valid[TD]),
      .a_req_addr_i  (ibus_req_addr),
      .a_rsp_valid_o (it_rsp_valid[TD]),
      .a_rsp_rdata_o (it_rsp_rdata[TD*32 +: 32]),
      .b_req_valid_i (dt_req_valid[TD]),
      .b_req_we_i    (xbus_req_we),
      .b_req_be_i    (xbus_req_be),
      .b_req_addr_i  (xbus_req_addr),
      .b_req_wdata_i (xbus_req_wdata),
      .b_rsp_valid_o (dt_rsp_valid[TD]),
      .b_rsp_rdata_o (dt_rsp_rdata[TD*32 +: 32]),
      .ld_valid_i    (load_dmem),
      .ld_addr_i     (load_addr_i),
      .ld_data_i     (load_data_i)
    );
  end else begin : g_no_dmem
    // no TCM: the decoder never selects its window (a bus error)
    assign it_rsp_valid[TD]         = 1'b0;
    assign it_rsp_rdata[TD*32 +: 32] = 32'h0;
    assign dt_rsp_valid[TD]         = 1'b0;
    assign dt_rsp_rdata[TD*32 +: 32] = 32'h0;
  end

  assign it_req_ready[TI] = 1'b1;
  assign it_rsp_err[TI]   = 1'b0;
  assign dt_req_ready[TI] = 1'b1;
  assign dt_rsp_err[TI]   = 1'b0;
  assign it_req_ready[TD] = 1'b1;
  assign it_rsp_err[TD]   = 1'b0;
  assign dt_req_ready[TD] = 1'b1;
  assign dt_rsp_err[TD]   = 1'b0;

  // ---- peripherals (D-bus only) -------------------------------------------
  tessel_uart u_uart (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_i (dt_req_valid[TU]),
    .req_ready_o (dt_req_ready[TU]),
    .req_we_i    (xbus_req_we),
    .req_be_i    (xbus_req_be),
    .req_addr_i  (xbus_req_addr[11:0]),
    .req_wdata_i (xbus_req_wdata),
    .rsp_valid_o (dt_rsp_valid[TU]),
    .rsp_rdata_o (dt_rsp_rdata[TU*32 +: 32]),
    .rsp_err_o   (dt_rsp_err[TU]),
    .tx_valid_o  (uart_tx_valid_o),
    .tx_ready_i  (uart_tx_ready_i),
    .tx_data_o   (uart_tx_data_o),
    .rx_valid_i  (uart_rx_valid_i),
    .rx_ready_o  (uart_rx_ready_o),
    .rx_data_i   (uart_rx_data_i)
  );

  tessel_timer #(.Bits(TimerBits)) u_timer (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_i (dt_req_valid[TT]),
    .req_ready_o (dt_req_ready[TT]),
    .req_we_i    (xbus_req_we),
    .req_be_i    (xbus_req_be),
    .req_addr_i  (xbus_req_addr[11:0]),
    .req_wdata_i (xbus_req_wdata),
    .rsp_valid_o (dt_rsp_valid[TT]),
    .rsp_rdata_o (dt_rsp_rdata[TT*32 +: 32]),
    .rsp_err_o   (dt_rsp_err[TT]),
    .irq_o       (irq_timer)
  );

  tessel_simctl u_simctl (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_valid_i    (dt_req_valid[TS]),
    .req_ready_o    (dt_req_ready[TS]),
    .req_we_i       (xbus_req_we),
    .req_be_i       (xbus_req_be),
    .req_addr_i     (xbus_req_addr[11:0]),
    .req_wdata_i    (xbus_req_wdata),
    .rsp_valid_o    (dt_rsp_valid[TS]),
    .rsp_rdata_o    (dt_rsp_rdata[TS*32 +: 32]),
    .rsp_err_o      (dt_rsp_err[TS]),
    .snoop_valid_i  (xbus_req_valid && xbus_req_ready && xbus_req_we),
    .snoop_addr_i   (xbus_req_addr),
    .snoop_wdata_i  (xbus_req_wdata),
    .tohost_en_i    (tohost_en_i),
    .tohost_addr_i  (tohost_addr_i),
    .exit_valid_o   (sim_exit_valid_o),
    .exit_code_o    (sim_exit_code_o),
    .tohost_valid_o (sim_tohost_valid_o),
    .tohost_data_o  (sim_tohost_data_o),
    .ext_irq_o      (irq_simctl)
  );

  // Unmapped addresses.
  tessel_bus_err u_dbus_err (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_i (dt_req_valid[TE]),
    .req_ready_o (dt_req_ready[TE]),
    .rsp_valid_o (dt_rsp_valid[TE]),
    .rsp_rdata_o (dt_rsp_rdata[TE*32 +: 32]),
    .rsp_err_o   (dt_rsp_err[TE])
  );

  tessel_bus_err u_ibus_err (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_i (it_req_valid[TE]),
    .req_ready_o (it_req_ready[TE]),
    .rsp_valid_o (it_rsp_valid[TE]),
    .rsp_rdata_o (it_rsp_rdata[TE*32 +: 32]),
    .rsp_err_o   (it_rsp_err[TE])
  );

  // The I-bus decoder (FetchOnly) never selects peripherals or NPU windows.
  for (genvar t = 0; t < NT; t++) begin : g_ibus_unused
    if (t != TI && t != TD && t != TM && t != TE) begin : g_tie
      assign it_req_ready[t]         = 1'b0;
      assign it_rsp_valid[t]         = 1'b0;
      assign it_rsp_rdata[t*32 +: 32] = 32'h0;
      assign it_rsp_err[t]           = 1'b0;
    end
  end

  // ---- external memory port ---------------------------------------------------
  // Each master's req_t/rsp_t, and all of them side by side for the arbiter.
  tessel_memport_pkg::req_t ibus_mreq, dbus_mreq, npu_mreq, cvt_mreq;
  tessel_memport_pkg::rsp_t ibus_mrsp, dbus_mrsp, npu_mrsp, cvt_mrsp;
  logic [NM*QW-1:0]         mm_req;
  logic [NM*PW-1:0]         mm_rsp;

  // master k's req_t at [k*QW +: QW]: the NPU at 2, the converter after it
  localparam int unsigned MC = NM - 1;
  assign mm_req[0*QW +: QW] = ibus_mreq;
  assign mm_req[1*QW +: QW] = dbus_mreq;
  if (Npu) begin : g_npu_master
    assign mm_req[2*QW +: QW] = npu_mreq;
    assign npu_mrsp = mm_rsp[2*PW +: PW];
  end else begin : g_no_npu_master
    assign npu_mrsp = '0;
  end
  if (Cvt) begin : g_cvt_master
    assign mm_req[MC*QW +: QW] = cvt_mreq;
    assign cvt_mrsp = mm_rsp[MC*PW +: PW];
  end else begin : g_no_cvt_master
    assign cvt_mrsp = '0;
  end

  // ---- the float/int8 converter: its window, and its master -------------------
  if (Cvt) begin : g_cvt
    tessel_cvt u_cvt (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_valid_i (dt_req_valid[TV]),
      .req_ready_o (dt_req_ready[TV]),
      .req_we_i    (xbus_req_we),
      .req_be_i    (xbus_req_be),
      .req_addr_i  (xbus_req_addr[11:0]),
      .req_wdata_i (xbus_req_wdata),
      .rsp_valid_o (dt_rsp_valid[TV]),
      .rsp_rdata_o (dt_rsp_rdata[TV*32 +: 32]),
      .rsp_err_o   (dt_rsp_err[TV]),
      .m_req_o     (cvt_mreq),
      .m_rsp_i     (cvt_mrsp)
    );
  end else begin : g_no_cvt
    tessel_bus_err u_cvt_err (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_valid_i (dt_req_valid[TV]),
      .req_ready_o (dt_req_ready[TV]),
      .rsp_valid_o (dt_rsp_valid[TV]),
      .rsp_rdata_o (dt_rsp_rdata[TV*32 +: 32]),
      .rsp_err_o   (dt_rsp_err[TV])
    );
    assign cvt_mreq = '0;
    logic unused_cvt;
    assign unused_cvt = ^{cvt_mrsp, cvt_mreq};
  end
  assign ibus_mrsp = mm_rsp[0*PW +: PW];
  assign dbus_mrsp = mm_rsp[1*PW +: PW];

  if (!CoreLite) begin : g_linebuf
    // Instruction fetches from DRAM go through a one-line buffer (bursts of
    // 4 beats); it snoops the data bus's DRAM stores.
    tessel_fetch_linebuf u_ibus_linebuf (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .req_valid_i   (it_req_valid[TM]),
      .req_ready_o   (it_req_ready[TM]),
      .req_addr_i    (ibus_req_addr),
      .rsp_valid_o   (it_rsp_valid[TM]),
      .rsp_rdata_o   (it_rsp_rdata[TM*32 +: 32]),
      .rsp_err_o     (it_rsp_err[TM]),
      .snoop_valid_i (dt_req_valid[TM] && dt_req_ready[TM] && xbus_req_we),
      .snoop_addr_i  (xbus_req_addr),
      .m_req_o       (ibus_mreq),
      .m_rsp_i       (ibus_mrsp)
    );
  end else begin : g_no_linebuf
    // the lite core fetches from DRAM through the data side's master 1:
    // master 0 stays idle (and takes any response)
    assign it_req_ready[TM]           = 1'b0;
    assign it_rsp_valid[TM]           = 1'b0;
    assign it_rsp_rdata[TM*32 +: 32]  = 32'h0;
    assign it_rsp_err[TM]             = 1'b0;
    always_comb begin
      ibus_mreq         = '0;
      ibus_mreq.r_ready = 1'b1;
      ibus_mreq.b_ready = 1'b1;
    end
    logic unused_m0;
    assign unused_m0 = ^ibus_mrsp;
  end

  // The data side's DRAM accesses: through the cache (master 1, and its
  // register window), or one port request each through the bridge.
  if (DcacheLines > 0) begin : g_dcache
    tessel_dcache #(.Lines(DcacheLines)) u_dcache (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .req_valid_i     (dt_req_valid[TM]),
      .req_ready_o     (dt_req_ready[TM]),
      .req_we_i        (xbus_req_we),
      .req_be_i        (xbus_req_be),
      .req_addr_i      (xbus_req_addr),
      .req_wdata_i     (xbus_req_wdata),
      .rsp_valid_o     (dt_rsp_valid[TM]),
      .rsp_rdata_o     (dt_rsp_rdata[TM*32 +: 32]),
      .rsp_err_o       (dt_rsp_err[TM]),
      .reg_req_valid_i (dt_req_valid[TK]),
      .reg_req_ready_o (dt_req_ready[TK]),
      .reg_req_we_i    (xbus_req_we),
      .reg_req_be_i    (xbus_req_be),
      .reg_req_addr_i  (xbus_req_addr[11:0]),
      .reg_rsp_valid_o (dt_rsp_valid[TK]),
      .reg_rsp_rdata_o (dt_rsp_rdata[TK*32 +: 32]),
      .reg_rsp_err_o   (dt_rsp_err[TK]),
      .m_req_o         (dbus_mreq),
      .m_rsp_i         (dbus_mrsp)
    );
  end else begin : g_no_dcache
    tessel_memport_bridge u_dbus_bridge (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .req_valid_i   (dt_req_valid[TM]),
      .req_ready_o   (dt_req_ready[TM]),
      .req_we_i      (xbus_req_we),
      .req_be_i      (xbus_req_be),
      .req_addr_i    (xbus_req_addr),
      .req_wdata_i   (xbus_req_wdata),
      .rsp_valid_o   (dt_rsp_valid[TM]),
      .rsp_rdata_o   (dt_rsp_rdata[TM*32 +: 32]),
      .rsp_err_o     (dt_rsp_err[TM]),
      .m_req_o       (dbus_mreq),
      .m_rsp_i       (dbus_mrsp)
    );

    tessel_bus_err u_dcache_err (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_valid_i (dt_req_valid[TK]),
      .req_ready_o (dt_req_ready[TK]),
      .rsp_valid_o (dt_rsp_valid[TK]),
      .rsp_rdata_o (dt_rsp_rdata[TK*32 +: 32]),
      .rsp_err_o   (dt_rsp_err[TK])
    );
  end

  // ---- NPU: register window (TgtNpuReg), command SRAM (TgtNpuCmd), DMA
  // master 2 on the memory port, interrupt. With Npu = 0 the two windows
  // answer with a bus error.
  if (Npu) begin : g_npu
    // tessel_npu's DMA port is still one signal per field (its 4-bit ids are
    // the low bits of the structs' ids)
    logic [MIW-1:0] npu_req_id;
    assign npu_mreq.req_id = {IdxW'(0), npu_req_id};
    tessel_npu u_npu (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .reg_req_valid_i (dt_req_valid[TR]),
      .reg_req_ready_o (dt_req_ready[TR]),
      .reg_req_we_i    (xbus_req_we),
      .reg_req_be_i    (xbus_req_be),
      .reg_req_addr_i  (xbus_req_addr[15:0]),
      .reg_req_wdata_i (xbus_req_wdata),
      .reg_rsp_valid_o (dt_rsp_valid[TR]),
      .reg_rsp_rdata_o (dt_rsp_rdata[TR*32 +: 32]),
      .reg_rsp_err_o   (dt_rsp_err[TR]),
      .cmd_req_valid_i (dt_req_valid[TC]),
      .cmd_req_ready_o (dt_req_ready[TC]),
      .cmd_req_we_i    (xbus_req_we),
      .cmd_req_be_i    (xbus_req_be),
      .cmd_req_addr_i  (xbus_req_addr[15:0]),
      .cmd_req_wdata_i (xbus_req_wdata),
      .cmd_rsp_valid_o (dt_rsp_valid[TC]),
      .cmd_rsp_rdata_o (dt_rsp_rdata[TC*32 +: 32]),
      .cmd_rsp_err_o   (dt_rsp_err[TC]),
      .dma_req_valid_o (npu_mreq.req_valid),
      .dma_req_ready_i (npu_mrsp.req_ready),
      .dma_req_write_o (npu_mreq.req_write),
      .dma_req_addr_o  (npu_mreq.req_addr),
      .dma_req_len_o   (npu_mreq.req_len),
      .dma_req_id_o    (npu_req_id),
      .dma_w_valid_o   (npu_mreq.w_valid),
      .dma_w_ready_i   (npu_mrsp.w_ready),
      .dma_w_data_o    (npu_mreq.w_data),
      .dma_w_strb_o    (npu_mreq.w_strb),
      .dma_w_last_o    (npu_mreq.w_last),
      .dma_r_valid_i   (npu_mrsp.r_valid),
      .dma_r_ready_o   (npu_mreq.r_ready),
      .dma_r_data_i    (npu_mrsp.r_data),
      .dma_r_id_i      (npu_mrsp.r_id[MIW-1:0]),
      .dma_r_last_i    (npu_mrsp.r_last),
      .dma_r_err_i     (npu_mrsp.r_err),
      .dma_b_valid_i   (npu_mrsp.b_valid),
      .dma_b_ready_o   (npu_mreq.b_ready),
      .dma_b_id_i      (npu_mrsp.b_id[MIW-1:0]),
      .dma_b_err_i     (npu_mrsp.b_err),
      .irq_o           (irq_npu),
      .dbg_o           (npu_dbg_o)
    );
    logic unused_npu_ids;
    assign unused_npu_ids = ^{npu_mrsp.r_id[MemIdW-1:MIW], npu_mrsp.b_id[MemIdW-1:MIW]};
  end else begin : g_no_npu
    assign npu_mreq  = '0;
    assign irq_npu   = 1'b0;
    assign npu_dbg_o = '0;
    logic unused_npu;
    assign unused_npu = ^{npu_mreq, npu_mrsp};

    tessel_bus_err u_npureg_err (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_valid_i (dt_req_valid[TR]),
      .req_ready_o (dt_req_ready[TR]),
      .rsp_valid_o (dt_rsp_valid[TR]),
      .rsp_rdata_o (dt_rsp_rdata[TR*32 +: 32]),
      .rsp_err_o   (dt_rsp_err[TR])
    );

    tessel_bus_err u_npucmd_err (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_valid_i (dt_req_valid[TC]),
      .req_ready_o (dt_req_ready[TC]),
      .rsp_valid_o (dt_rsp_valid[TC]),
      .rsp_rdata_o (dt_rsp_rdata[TC*32 +: 32]),
      .rsp_err_o   (dt_rsp_err[TC])
    );
  end

  // ---- core-sequenced NPU: the datapath on the NPU_SEQ window (TgtNpuSeq),
  // with the offsets of the generated map; with NpuSeq = 0 the window
  // answers with a bus error.
  if (Npu && NpuSeq) begin : g_npu_and_npu_seq
    $error("tessel_soc: Npu and NpuSeq are two NPUs of one ISA: build one");
  end
  if (NpuSeq) begin : g_npu_seq
    npu_seq_dp #(
      .IdOff       (tessel_memmap_pkg::NpuSeqIdOff),
      .DimOff      (tessel_memmap_pkg::NpuSeqDimOff),
      .ReqOutpOff  (tessel_memmap_pkg::NpuSeqReqOutpOff),
      .ReqOutOff   (tessel_memmap_pkg::NpuSeqReqOutOff),
      .XOff        (tessel_memmap_pkg::NpuSeqXOff),
      .SOff        (tessel_memmap_pkg::NpuSeqSOff),
      .ReqBiasOff  (tessel_memmap_pkg::NpuSeqReqBiasOff),
      .ReqMultOff  (tessel_memmap_pkg::NpuSeqReqMultOff),
      .ReqShiftOff (tessel_memmap_pkg::NpuSeqReqShiftOff),
      .ReqAccOff   (tessel_memmap_pkg::NpuSeqReqAccOff),
      .WOff        (tessel_memmap_pkg::NpuSeqWOff)
    ) u_npu_seq (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_valid_i (dt_req_valid[TQ]),
      .req_ready_o (dt_req_ready[TQ]),
      .req_we_i    (xbus_req_we),
      .req_be_i    (xbus_req_be),
      .req_addr_i  (xbus_req_addr[11:0]),
      .req_wdata_i (xbus_req_wdata),
      .rsp_valid_o (dt_rsp_valid[TQ]),
      .rsp_rdata_o (dt_rsp_rdata[TQ*32 +: 32]),
      .rsp_err_o   (dt_rsp_err[TQ])
    );
  end else begin : g_no_npu_seq
    tessel_bus_err u_npuseq_err (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_valid_i (dt_req_valid[TQ]),
      .req_ready_o (dt_req_ready[TQ]),
      .rsp_valid_o (dt_rsp_valid[TQ]),
      .rsp_rdata_o (dt_rsp_rdata[TQ*32 +: 32]),
      .rsp_err_o   (dt_rsp_err[TQ])
    );
  end

  // The arbiter's output (ps_*, before the register slice) and the port.
  tessel_memport_pkg::req_t ps_req, port_req;
  tessel_memport_pkg::rsp_t ps_rsp, port_rsp;

  // With CoreLite and no NPU, master 1 (the data side's bridge or cache) is
  // the only one: it drives the port itself, with its index on the id as the
  // arbiter would put it.
  if (CoreLite && NM == 2) begin : g_one_master
    always_comb begin
      ps_req        = dbus_mreq;
      ps_req.req_id = {IdxW'(1), dbus_mreq.req_id[MIW-1:0]};
    end
    // (the bridge and the cache read no ids, so responses may keep the index bits;
    // the idle master 0 gets none)
    assign mm_rsp = {ps_rsp, PW'(0)};
    logic unused_arb;
    assign unused_arb = ^{mm_req, dbus_mreq.req_id[MemIdW-1:MIW]};   // mm_req: the arbiter's
  end else begin : g_arbiter
    tessel_memport_arbiter #(.NumMasters(NM)) u_arbiter (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .m_req_i (mm_req),
      .m_rsp_o (mm_rsp),
      .s_req_o (ps_req),
      .s_rsp_i (ps_rsp)
    );
  end

  if (MemSlice) begin : g_port_slice
    // The port itself is registered on every channel (see the slice).
    tessel_memport_regslice u_port_slice (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .m_req_i (ps_req),
      .m_rsp_o (ps_rsp),
      .s_req_o (port_req),
      .s_rsp_i (port_rsp)
    );
  end else begin : g_no_port_slice
    assign port_req = ps_req;
    assign ps_rsp   = port_rsp;
  end

  // The SoC's pins: the port, one signal per field.
  assign mem_req_valid_o    = port_req.req_valid;
  assign mem_req_write_o    = port_req.req_write;
  assign mem_req_addr_o     = port_req.req_addr;
  assign mem_req_len_o      = port_req.req_len;
  assign mem_req_id_o       = port_req.req_id;
  assign mem_w_valid_o      = port_req.w_valid;
  assign mem_w_data_o       = port_req.w_data;
  assign mem_w_strb_o       = port_req.w_strb;
  assign mem_w_last_o       = port_req.w_last;
  assign mem_r_ready_o      = port_req.r_ready;
  assign mem_b_ready_o      = port_req.b_ready;
  assign port_rsp.req_ready = mem_req_ready_i;
  assign port_rsp.w_ready   = mem_w_ready_i;
  assign port_rsp.r_valid   = mem_r_valid_i;
  assign port_rsp.r_data    = mem_r_data_i;
  assign port_rsp.r_id      = mem_r_id_i;
  assign port_rsp.r_last    = mem_r_last_i;
  assign port_rsp.r_err     = mem_r_err_i;
  assign port_rsp.b_valid   = mem_b_valid_i;
  assign port_rsp.b_id      = mem_b_id_i;
  assign port_rsp.b_err     = mem_b_err_i;

endmodule

`default_nettype wire
