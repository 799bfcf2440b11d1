// board_soc: the Tessel SoC as a board runs it, between the board's pins
// and its top wrapper (boards/<b>/<b>_top.sv, which adds clock, reset and
// pin names). docs/boards.md.
//
//   reset -> board_flash_boot (SPI flash -> board RAM) -> tessel_soc, booting
//   at 0x8000_0000 from the memory port, which board_mem answers
//   UART byte streams <-> board_uart_tx/rx (8N1, ClksPerBit clocks per bit)
//
// The SoC is held in reset until the loader has copied the firmware (and
// the model package) into the RAM. The simulation-control EXIT register
// halts it (held in reset again, once the UART has drained): running_o,
// exit_bad_o and boot_err_o are for the board's LEDs.
`default_nettype none

module board_soc #(
  parameter int unsigned ClksPerBit = 104,        // clock / baud
  parameter int unsigned ImemBytes  = 512,        // TCMs
  parameter int unsigned DmemBytes  = 512,
  parameter int unsigned DramBytes  = 131072,     // board_mem at 0x8000_0000
  parameter bit          FastMul    = 1'b0,       // core multiplier (docs/core.md)
  parameter bit          CoreLite   = 1'b0,       // tessel_core_lite (docs/core.md)
  parameter int unsigned TimerBits  = 64,         // machine timer width (docs/boards.md)
  parameter bit          MemSlice   = 1'b1,       // register slice on the memory port
  parameter bit          Npu        = 1'b0,       // the NPU (the build reads a target's RTL)
  parameter bit          NpuSeq     = 1'b0,       // the core-sequenced NPU's datapath (docs/npu-seq.md)
  parameter logic [23:0] FwFlash    = 24'h100000, // flash offsets of the images
  parameter logic [23:0] PkgFlash   = 24'h140000
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,          // board reset, synchronous, active low
  input  wire logic uart_rx_i,
  output      logic uart_tx_o,
  output      logic flash_cs_no,
  output      logic flash_sck_o,
  output      logic flash_mosi_o,
  input  wire logic flash_miso_i,
  output      logic running_o,       // booted, not halted
  output      logic exit_bad_o,      // halted with a non-zero EXIT code
  output      logic boot_err_o       // the flash loader refused an image
);

  localparam int unsigned DramAW = $clog2(DramBytes / 8);

  // ---- flash boot ---------------------------------------------------------
  logic              boot_done, boot_err;
  logic              ld_valid;
  logic [DramAW-1:0] ld_word;
  logic [63:0]       ld_data;
  logic [7:0]        ld_strb;

  board_flash_boot #(
    .MemBytes   (DramBytes),
    .Image0Addr (FwFlash),
    .Image1Addr (PkgFlash)
  ) u_boot (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .flash_cs_no  (flash_cs_no),
    .flash_sck_o  (flash_sck_o),
    .flash_mosi_o (flash_mosi_o),
    .flash_miso_i (flash_miso_i),
    .ld_valid_o   (ld_valid),
    .ld_word_o    (ld_word),
    .ld_data_o    (ld_data),
    .ld_strb_o    (ld_strb),
    .done_o       (boot_done),
    .err_o        (boot_err)
  );

  // ---- the SoC: runs once the images are in, until it writes EXIT ---------
  logic        exit_valid, halted_q, exit_bad_q;
  logic        utx_valid, utx_ready, urx_valid, urx_ready;
  logic [7:0]  utx_data, urx_data;
  logic [31:0] exit_code;
  logic        soc_rst_n;
  assign soc_rst_n = rst_ni && boot_done && !halted_q;

  logic halted_d, exit_bad_d;
  always_comb begin
    halted_d   = halted_q;
    exit_bad_d = exit_bad_q;
    // EXIT is sticky; halting waits for the UART to drain, since the SoC's
    // transmit buffer is lost when it is held in reset.
    if (exit_valid && !halted_q && !utx_valid && utx_ready) begin
      halted_d   = 1'b1;
      exit_bad_d = exit_code != 32'd0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      halted_q   <= 1'b0;
      exit_bad_q <= 1'b0;
    end else begin
      halted_q   <= halted_d;
      exit_bad_q <= exit_bad_d;
    end
  end

  // The memory port between the SoC's pins and board_mem.
  tessel_memport_pkg::req_t mem_req;
  tessel_memport_pkg::rsp_t mem_rsp;

  // Outputs a board has no use for: the commit trace and tohost.
  logic        commit_valid, commit_rd_we, tohost_valid;
  logic [6:0]  npu_dbg;
  logic [31:0] commit_pc, commit_insn, commit_rd_wdata, tohost_data;
  logic [4:0]  commit_rd;

  tessel_soc #(
    .ImemBytes (ImemBytes),
    .DmemBytes (DmemBytes),
    .FastMul   (FastMul),
    .CoreLite  (CoreLite),
    .TimerBits (TimerBits),
    .MemSlice  (MemSlice),
    .Npu       (Npu),
    .NpuSeq    (NpuSeq)
  ) u_soc (
    .clk_i              (clk_i),
    .rst_ni             (soc_rst_n),
    .boot_addr_i        (32'h8000_0000),
    .load_valid_i       (1'b0),
    .load_addr_i        (32'h0),
    .load_data_i        (32'h0),
    .uart_tx_valid_o    (utx_valid),
    .uart_tx_ready_i    (utx_ready),
    .uart_tx_data_o     (utx_data),
    .uart_rx_valid_i    (urx_valid),
    .uart_rx_ready_o    (urx_ready),
    .uart_rx_data_i     (urx_data),
    .tohost_en_i        (1'b0),
    .tohost_addr_i      (32'h0),
    .sim_exit_valid_o   (exit_valid),
    .sim_exit_code_o    (exit_code),
    .sim_tohost_valid_o (tohost_valid),
    .sim_tohost_data_o  (tohost_data),
    .commit_valid_o     (commit_valid),
    .commit_pc_o        (commit_pc),
    .commit_insn_o      (commit_insn),
    .commit_rd_we_o     (commit_rd_we),
    .commit_rd_o        (commit_rd),
    .commit_rd_wdata_o  (commit_rd_wdata),
    .mem_req_valid_o    (mem_req.req_valid),
    .mem_req_ready_i    (mem_rsp.req_ready),
    .mem_req_write_o    (mem_req.req_write),
    .mem_req_addr_o     (mem_req.req_addr),
    .mem_req_len_o      (mem_req.req_len),
    .mem_req_id_o       (mem_req.req_id),
    .mem_w_valid_o      (mem_req.w_valid),
    .mem_w_ready_i      (mem_rsp.w_ready),
    .mem_w_data_o       (mem_req.w_data),
    .mem_w_strb_o       (mem_req.w_strb),
    .mem_w_last_o       (mem_req.w_last),
    .mem_r_valid_i      (mem_rsp.r_valid),
    .mem_r_ready_o      (mem_req.r_ready),
    .mem_r_data_i       (mem_rsp.r_data),
    .mem_r_id_i         (mem_rsp.r_id),
    .mem_r_last_i       (mem_rsp.r_last),
    .mem_r_err_i        (mem_rsp.r_err),
    .mem_b_valid_i      (mem_rsp.b_valid),
    .mem_b_ready_o      (mem_req.b_ready),
    .mem_b_id_i         (mem_rsp.b_id),
    .mem_b_err_i        (mem_rsp.b_err),
    .npu_dbg_o          (npu_dbg)
  );

  // ---- DRAM: the SPRAMs. Its port logic resets with the SoC; the array is
  // never cleared, and the loader port writes it while the SoC is in reset.
  board_mem #(.Bytes(DramBytes)) u_dram (
    .clk_i       (clk_i),
    .rst_ni      (soc_rst_n),
    .req_i       (mem_req),
    .rsp_o       (mem_rsp),
    .ld_valid_i  (ld_valid),
    .ld_word_i   (ld_word),
    .ld_data_i   (ld_data),
    .ld_strb_i   (ld_strb)
  );

  // ---- UART pins --------------------------------------------------------------
  board_uart_tx #(.ClksPerBit(ClksPerBit)) u_utx (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (utx_valid),
    .ready_o (utx_ready),
    .data_i  (utx_data),
    .tx_o    (uart_tx_o)
  );

  board_uart_rx #(.ClksPerBit(ClksPerBit)) u_urx (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .rx_i    (uart_rx_i),
    .valid_o (urx_valid),
    .ready_i (urx_ready),
    .data_o  (urx_data)
  );

  assign running_o  = boot_done && !halted_q;
  assign exit_bad_o = exit_bad_q;
  assign boot_err_o = boot_err;

  logic unused;
  assign unused = ^{commit_valid, commit_rd_we, commit_pc, commit_insn, commit_rd_wdata,
                    commit_rd, tohost_valid, tohost_data, npu_dbg};

endmodule

`default_nettype wire
