// tessel_soc: the Tessel chip. Control core, instruction and data TCMs,
// UART, machine timer, simulation control, the NPU (when built with the
// define TESSEL_NPU and a target's package; else its two windows answer a
// bus error) and the external memory port (docs/memory-map.md,
// docs/memory-port.md, docs/simulator.md).
//
//   core I-bus -> demux -> IMEM.a | DMEM.a | DRAM line buffer (master 0) | err
//   (CoreLite: the I-bus joins the D-bus before its decoder; ImemBytes or
//   DmemBytes 0: that TCM is not built and its window is a bus error)
//   core D-bus -> demux -> IMEM.b | DMEM.b | UART | timer | simctl
//                          | NPU regs | NPU cmd SRAM | DRAM bridge (master 1) | err
//   line buffer, bridge, NPU DMA (master 2) -> memport arbiter -> mem_* port
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
  localparam int unsigned MemIdW   = 6       // 2 master-index + 4 master id bits
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
  localparam int unsigned IdW  = 4;
`ifdef TESSEL_NPU
  localparam int unsigned NumMemMasters = 3;   // master 2: the NPU's DMA
`else
  localparam int unsigned NumMemMasters = 2;   // built without the NPU (TESSEL_NPU undefined)
`endif

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

  if (CoreLite) begin : g_core_lite
    tessel_core_lite u_core (
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
  end else begin : g_core
    tessel_core #(.FastMul(FastMul)) u_core (
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
  end

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
  localparam int unsigned NM = NumMemMasters;
  logic [NM-1:0]     mm_req_valid, mm_req_ready, mm_req_write;
  logic [NM*32-1:0]  mm_req_addr;
  logic [NM*8-1:0]   mm_req_len;
  logic [NM*IdW-1:0] mm_req_id;
  logic [NM-1:0]     mm_w_valid, mm_w_ready, mm_w_last;
  logic [NM*64-1:0]  mm_w_data;
  logic [NM*8-1:0]   mm_w_strb;
  logic [NM-1:0]     mm_r_valid, mm_r_ready, mm_b_valid, mm_b_ready;
  logic [63:0]       mm_r_data;
  logic [IdW-1:0]    mm_r_id, mm_b_id;
  logic              mm_r_last, mm_r_err, mm_b_err;

  if (!CoreLite) begin : g_linebuf
    // Instruction fetches from DRAM go through a one-line buffer (bursts of
    // 4 beats); it snoops the data bus's DRAM stores.
    tessel_fetch_linebuf #(.IdW(IdW)) u_ibus_linebuf (
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
      .m_req_valid_o (mm_req_valid[0]),
      .m_req_ready_i (mm_req_ready[0]),
      .m_req_write_o (mm_req_write[0]),
      .m_req_addr_o  (mm_req_addr[0*32 +: 32]),
      .m_req_len_o   (mm_req_len[0*8 +: 8]),
      .m_req_id_o    (mm_req_id[0*IdW +: IdW]),
      .m_w_valid_o   (mm_w_valid[0]),
      .m_w_ready_i   (mm_w_ready[0]),
      .m_w_data_o    (mm_w_data[0*64 +: 64]),
      .m_w_strb_o    (mm_w_strb[0*8 +: 8]),
      .m_w_last_o    (mm_w_last[0]),
      .m_r_valid_i   (mm_r_valid[0]),
      .m_r_ready_o   (mm_r_ready[0]),
      .m_r_data_i    (mm_r_data),
      .m_r_id_i      (mm_r_id),
      .m_r_last_i    (mm_r_last),
      .m_r_err_i     (mm_r_err),
      .m_b_valid_i   (mm_b_valid[0]),
      .m_b_ready_o   (mm_b_ready[0]),
      .m_b_id_i      (mm_b_id),
      .m_b_err_i     (mm_b_err)
    );
  end else begin : g_no_linebuf
    // the lite core fetches from DRAM through the data side's bridge:
    // master 0 stays idle
    assign it_req_ready[TM]           = 1'b0;
    assign it_rsp_valid[TM]           = 1'b0;
    assign it_rsp_rdata[TM*32 +: 32]  = 32'h0;
    assign it_rsp_err[TM]             = 1'b0;
    assign mm_req_valid[0]            = 1'b0;
    assign mm_req_write[0]            = 1'b0;
    assign mm_req_addr[0*32 +: 32]    = 32'h0;
    assign mm_req_len[0*8 +: 8]       = 8'h0;
    assign mm_req_id[0*IdW +: IdW]    = '0;
    assign mm_w_valid[0]              = 1'b0;
    assign mm_w_data[0*64 +: 64]      = 64'h0;
    assign mm_w_strb[0*8 +: 8]        = 8'h0;
    assign mm_w_last[0]               = 1'b0;
    assign mm_r_ready[0]              = 1'b1;
    assign mm_b_ready[0]              = 1'b1;
    logic unused_m0;
    assign unused_m0 = ^{mm_req_ready[0], mm_w_ready[0], mm_r_valid[0], mm_b_valid[0]};
  end

  tessel_memport_bridge #(.IdW(IdW)) u_dbus_bridge (
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
    .m_req_valid_o (mm_req_valid[1]),
    .m_req_ready_i (mm_req_ready[1]),
    .m_req_write_o (mm_req_write[1]),
    .m_req_addr_o  (mm_req_addr[1*32 +: 32]),
    .m_req_len_o   (mm_req_len[1*8 +: 8]),
    .m_req_id_o    (mm_req_id[1*IdW +: IdW]),
    .m_w_valid_o   (mm_w_valid[1]),
    .m_w_ready_i   (mm_w_ready[1]),
    .m_w_data_o    (mm_w_data[1*64 +: 64]),
    .m_w_strb_o    (mm_w_strb[1*8 +: 8]),
    .m_w_last_o    (mm_w_last[1]),
    .m_r_valid_i   (mm_r_valid[1]),
    .m_r_ready_o   (mm_r_ready[1]),
    .m_r_data_i    (mm_r_data),
    .m_r_id_i      (mm_r_id),
    .m_r_last_i    (mm_r_last),
    .m_r_err_i     (mm_r_err),
    .m_b_valid_i   (mm_b_valid[1]),
    .m_b_ready_o   (mm_b_ready[1]),
    .m_b_id_i      (mm_b_id),
    .m_b_err_i     (mm_b_err)
  );

  // ---- NPU: register window (TgtNpuReg), command SRAM (TgtNpuCmd), DMA
  // master 2 on the memory port, interrupt. Built with TESSEL_NPU defined and
  // the target's package (build/gen/<target>/tessel_target_pkg.sv); without
  // it the two windows answer with a bus error.
`ifdef TESSEL_NPU
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
    .dma_req_valid_o (mm_req_valid[2]),
    .dma_req_ready_i (mm_req_ready[2]),
    .dma_req_write_o (mm_req_write[2]),
    .dma_req_addr_o  (mm_req_addr[2*32 +: 32]),
    .dma_req_len_o   (mm_req_len[2*8 +: 8]),
    .dma_req_id_o    (mm_req_id[2*IdW +: IdW]),
    .dma_w_valid_o   (mm_w_valid[2]),
    .dma_w_ready_i   (mm_w_ready[2]),
    .dma_w_data_o    (mm_w_data[2*64 +: 64]),
    .dma_w_strb_o    (mm_w_strb[2*8 +: 8]),
    .dma_w_last_o    (mm_w_last[2]),
    .dma_r_valid_i   (mm_r_valid[2]),
    .dma_r_ready_o   (mm_r_ready[2]),
    .dma_r_data_i    (mm_r_data),
    .dma_r_id_i      (mm_r_id),
    .dma_r_last_i    (mm_r_last),
    .dma_r_err_i     (mm_r_err),
    .dma_b_valid_i   (mm_b_valid[2]),
    .dma_b_ready_o   (mm_b_ready[2]),
    .dma_b_id_i      (mm_b_id),
    .dma_b_err_i     (mm_b_err),
    .irq_o           (irq_npu),
    .dbg_o           (npu_dbg_o)
  );
`else
  assign irq_npu = 1'b0;
  assign npu_dbg_o = '0;

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
`endif

  // Arbiter output, before the register slice.
  logic              ps_req_valid, ps_req_ready, ps_req_write;
  logic [31:0]       ps_req_addr;
  logic [7:0]        ps_req_len;
  logic [MemIdW-1:0] ps_req_id, ps_r_id, ps_b_id;
  logic              ps_w_valid, ps_w_ready, ps_w_last;
  logic [63:0]       ps_w_data, ps_r_data;
  logic [7:0]        ps_w_strb;
  logic              ps_r_valid, ps_r_ready, ps_r_last, ps_r_err;
  logic              ps_b_valid, ps_b_ready, ps_b_err;

  // With CoreLite and no NPU, master 1 (the data side's bridge) is the only
  // one: it drives the port itself, with its index on the id as the arbiter
  // would put it.
  if (CoreLite && NM == 2) begin : g_one_master
    assign ps_req_valid = mm_req_valid[1];
    assign ps_req_write = mm_req_write[1];
    assign ps_req_addr  = mm_req_addr[1*32 +: 32];
    assign ps_req_len   = mm_req_len[1*8 +: 8];
    assign ps_req_id    = {{(MemIdW - IdW - 1){1'b0}}, 1'b1, mm_req_id[1*IdW +: IdW]};
    assign ps_w_valid   = mm_w_valid[1];
    assign ps_w_data    = mm_w_data[1*64 +: 64];
    assign ps_w_strb    = mm_w_strb[1*8 +: 8];
    assign ps_w_last    = mm_w_last[1];
    assign ps_r_ready   = mm_r_ready[1];
    assign ps_b_ready   = mm_b_ready[1];
    assign mm_req_ready = {ps_req_ready, 1'b0};
    assign mm_w_ready   = {ps_w_ready, 1'b0};
    assign mm_r_valid   = {ps_r_valid, 1'b0};
    assign mm_b_valid   = {ps_b_valid, 1'b0};
    assign mm_r_data    = ps_r_data;
    assign mm_r_id      = ps_r_id[IdW-1:0];
    assign mm_r_last    = ps_r_last;
    assign mm_r_err     = ps_r_err;
    assign mm_b_id      = ps_b_id[IdW-1:0];
    assign mm_b_err     = ps_b_err;
    logic unused_arb;
    assign unused_arb = ^{ps_r_id[MemIdW-1:IdW], ps_b_id[MemIdW-1:IdW], mm_r_ready[0], mm_b_ready[0],
                          mm_req_valid[0], mm_req_write[0], mm_req_addr[0*32 +: 32], mm_req_len[0*8 +: 8],
                          mm_req_id[0*IdW +: IdW], mm_w_valid[0], mm_w_data[0*64 +: 64],
                          mm_w_strb[0*8 +: 8], mm_w_last[0]};
  end else begin : g_arbiter
    tessel_memport_arbiter #(.NumMasters(NM), .IdW(IdW), .IdxW(MemIdW - IdW)) u_arbiter (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .m_req_valid_i (mm_req_valid),
      .m_req_ready_o (mm_req_ready),
      .m_req_write_i (mm_req_write),
      .m_req_addr_i  (mm_req_addr),
      .m_req_len_i   (mm_req_len),
      .m_req_id_i    (mm_req_id),
      .m_w_valid_i   (mm_w_valid),
      .m_w_ready_o   (mm_w_ready),
      .m_w_data_i    (mm_w_data),
      .m_w_strb_i    (mm_w_strb),
      .m_w_last_i    (mm_w_last),
      .m_r_valid_o   (mm_r_valid),
      .m_r_ready_i   (mm_r_ready),
      .m_r_data_o    (mm_r_data),
      .m_r_id_o      (mm_r_id),
      .m_r_last_o    (mm_r_last),
      .m_r_err_o     (mm_r_err),
      .m_b_valid_o   (mm_b_valid),
      .m_b_ready_i   (mm_b_ready),
      .m_b_id_o      (mm_b_id),
      .m_b_err_o     (mm_b_err),
      .s_req_valid_o (ps_req_valid),
      .s_req_ready_i (ps_req_ready),
      .s_req_write_o (ps_req_write),
      .s_req_addr_o  (ps_req_addr),
      .s_req_len_o   (ps_req_len),
      .s_req_id_o    (ps_req_id),
      .s_w_valid_o   (ps_w_valid),
      .s_w_ready_i   (ps_w_ready),
      .s_w_data_o    (ps_w_data),
      .s_w_strb_o    (ps_w_strb),
      .s_w_last_o    (ps_w_last),
      .s_r_valid_i   (ps_r_valid),
      .s_r_ready_o   (ps_r_ready),
      .s_r_data_i    (ps_r_data),
      .s_r_id_i      (ps_r_id),
      .s_r_last_i    (ps_r_last),
      .s_r_err_i     (ps_r_err),
      .s_b_valid_i   (ps_b_valid),
      .s_b_ready_o   (ps_b_ready),
      .s_b_id_i      (ps_b_id),
      .s_b_err_i     (ps_b_err)
    );
  end

  if (MemSlice) begin : g_port_slice
    // The port itself is registered on every channel (see the slice).
    tessel_memport_regslice #(.IdW(MemIdW)) u_port_slice (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .m_req_valid_i  (ps_req_valid),
      .m_req_ready_o  (ps_req_ready),
      .m_req_write_i  (ps_req_write),
      .m_req_addr_i   (ps_req_addr),
      .m_req_len_i    (ps_req_len),
      .m_req_id_i     (ps_req_id),
      .m_w_valid_i    (ps_w_valid),
      .m_w_ready_o    (ps_w_ready),
      .m_w_data_i     (ps_w_data),
      .m_w_strb_i     (ps_w_strb),
      .m_w_last_i     (ps_w_last),
      .m_r_valid_o    (ps_r_valid),
      .m_r_ready_i    (ps_r_ready),
      .m_r_data_o     (ps_r_data),
      .m_r_id_o       (ps_r_id),
      .m_r_last_o     (ps_r_last),
      .m_r_err_o      (ps_r_err),
      .m_b_valid_o    (ps_b_valid),
      .m_b_ready_i    (ps_b_ready),
      .m_b_id_o       (ps_b_id),
      .m_b_err_o      (ps_b_err),
      .s_req_valid_o  (mem_req_valid_o),
      .s_req_ready_i  (mem_req_ready_i),
      .s_req_write_o  (mem_req_write_o),
      .s_req_addr_o   (mem_req_addr_o),
      .s_req_len_o    (mem_req_len_o),
      .s_req_id_o     (mem_req_id_o),
      .s_w_valid_o    (mem_w_valid_o),
      .s_w_ready_i    (mem_w_ready_i),
      .s_w_data_o     (mem_w_data_o),
      .s_w_strb_o     (mem_w_strb_o),
      .s_w_last_o     (mem_w_last_o),
      .s_r_valid_i    (mem_r_valid_i),
      .s_r_ready_o    (mem_r_ready_o),
      .s_r_data_i     (mem_r_data_i),
      .s_r_id_i       (mem_r_id_i),
      .s_r_last_i     (mem_r_last_i),
      .s_r_err_i      (mem_r_err_i),
      .s_b_valid_i    (mem_b_valid_i),
      .s_b_ready_o    (mem_b_ready_o),
      .s_b_id_i       (mem_b_id_i),
      .s_b_err_i      (mem_b_err_i)
    );
  end else begin : g_no_port_slice
    assign mem_req_valid_o = ps_req_valid;
    assign ps_req_ready    = mem_req_ready_i;
    assign mem_req_write_o = ps_req_write;
    assign mem_req_addr_o  = ps_req_addr;
    assign mem_req_len_o   = ps_req_len;
    assign mem_req_id_o    = ps_req_id;
    assign mem_w_valid_o   = ps_w_valid;
    assign ps_w_ready      = mem_w_ready_i;
    assign mem_w_data_o    = ps_w_data;
    assign mem_w_strb_o    = ps_w_strb;
    assign mem_w_last_o    = ps_w_last;
    assign ps_r_valid      = mem_r_valid_i;
    assign mem_r_ready_o   = ps_r_ready;
    assign ps_r_data       = mem_r_data_i;
    assign ps_r_id         = mem_r_id_i;
    assign ps_r_last       = mem_r_last_i;
    assign ps_r_err        = mem_r_err_i;
    assign ps_b_valid      = mem_b_valid_i;
    assign mem_b_ready_o   = ps_b_ready;
    assign ps_b_id         = mem_b_id_i;
    assign ps_b_err        = mem_b_err_i;
  end

endmodule

`default_nettype wire
