// icebreaker_top: the Tessel SoC on the iCEBreaker (iCE40UP5K-SG48, 12 MHz).
// Board facts: boards/icebreaker/board.cfg; pins: icebreaker.pcf;
// docs/boards.md.
//
//   12 MHz CLK -> power-on reset -> board_flash_boot (SPI flash -> SPRAM)
//   -> tessel_soc (boots at 0x8000_0000, DRAM = board_mem on the 4 SPRAMs)
//   UART byte streams <-> board_uart_tx/rx pins (115200 8N1)
//
// The SPRAMs cannot be preloaded by the bitstream, so nothing runs before
// the flash loader has copied the firmware (and the model package) into
// them; the SoC is held in reset until then. The simulation-control EXIT
// register halts the SoC (held in reset again) and shows the outcome:
//   LEDs   green on: running      both off: exited with 0
//          red on:   exited with a non-zero code, or the flash image was bad
// BTN_N restarts everything, the flash load included.
`default_nettype none

module icebreaker_top #(
  parameter int unsigned ClksPerBit = 104,       // 12 MHz / 115200 baud
  parameter int unsigned ImemBytes  = 512,       // TCMs: block RAM (two read ports: two copies)
  parameter int unsigned DmemBytes  = 512,
  parameter int unsigned DramBytes  = 131072,    // the four 32 KiB SPRAMs
  parameter logic [23:0] FwFlash    = 24'h100000, // flash offsets of the images
  parameter logic [23:0] PkgFlash   = 24'h140000
) (
  input  wire logic clk_i,          // CLK, pin 35
  input  wire logic btn_ni,         // BTN_N, pin 10: reset
  input  wire logic uart_rx_i,      // RX, pin 6
  output      logic uart_tx_o,      // TX, pin 9
  output      logic led_red_no,     // LEDR_N, pin 11
  output      logic led_green_no,   // LEDG_N, pin 37
  output      logic flash_cs_no,    // FLASH_SSB, pin 16
  output      logic flash_sck_o,    // FLASH_SCK, pin 15
  output      logic flash_mosi_o,   // FLASH_IO0, pin 14
  input  wire logic flash_miso_i    // FLASH_IO1, pin 17
);

  localparam int unsigned MemIdW = 6;
  localparam int unsigned DramAW = $clog2(DramBytes / 8);

  // ---- reset: held for 16 clocks after configuration and while BTN_N is low.
  // iCE40 flops start at 0 after configuration, so por_q counts up from 0.
  logic [1:0] btn_sync_q;
  logic [4:0] por_q;
  logic       rst_n;
  always_ff @(posedge clk_i) begin
    btn_sync_q <= {btn_sync_q[0], btn_ni};
    if (!btn_sync_q[1]) por_q <= 5'd0;
    else if (!por_q[4]) por_q <= por_q + 5'd1;
  end
  assign rst_n = por_q[4];

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
    .rst_ni       (rst_n),
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
  assign soc_rst_n = rst_n && boot_done && !halted_q;

  always_ff @(posedge clk_i) begin
    if (!rst_n) begin
      halted_q   <= 1'b0;
      exit_bad_q <= 1'b0;
    end else if (exit_valid && !halted_q && !utx_valid && utx_ready) begin
      // EXIT is sticky; halting waits for the UART to drain, since the
      // SoC's transmit buffer is lost when it is held in reset.
      halted_q   <= 1'b1;
      exit_bad_q <= exit_code != 32'd0;
    end
  end

  logic              mem_req_valid, mem_req_ready, mem_req_write;
  logic [31:0]       mem_req_addr;
  logic [7:0]        mem_req_len;
  logic [MemIdW-1:0] mem_req_id, mem_r_id, mem_b_id;
  logic              mem_w_valid, mem_w_ready, mem_w_last;
  logic [63:0]       mem_w_data, mem_r_data;
  logic [7:0]        mem_w_strb;
  logic              mem_r_valid, mem_r_ready, mem_r_last, mem_r_err;
  logic              mem_b_valid, mem_b_ready, mem_b_err;

  // Outputs a board has no use for: the commit trace and tohost.
  logic        commit_valid, commit_rd_we, tohost_valid;
  logic [31:0] commit_pc, commit_insn, commit_rd_wdata, tohost_data;
  logic [4:0]  commit_rd;

  tessel_soc #(
    .ImemBytes (ImemBytes),
    .DmemBytes (DmemBytes),
    .FastMul   (1'b0)           // the 8 DSPs are the NPU's
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
    .mem_req_valid_o    (mem_req_valid),
    .mem_req_ready_i    (mem_req_ready),
    .mem_req_write_o    (mem_req_write),
    .mem_req_addr_o     (mem_req_addr),
    .mem_req_len_o      (mem_req_len),
    .mem_req_id_o       (mem_req_id),
    .mem_w_valid_o      (mem_w_valid),
    .mem_w_ready_i      (mem_w_ready),
    .mem_w_data_o       (mem_w_data),
    .mem_w_strb_o       (mem_w_strb),
    .mem_w_last_o       (mem_w_last),
    .mem_r_valid_i      (mem_r_valid),
    .mem_r_ready_o      (mem_r_ready),
    .mem_r_data_i       (mem_r_data),
    .mem_r_id_i         (mem_r_id),
    .mem_r_last_i       (mem_r_last),
    .mem_r_err_i        (mem_r_err),
    .mem_b_valid_i      (mem_b_valid),
    .mem_b_ready_o      (mem_b_ready),
    .mem_b_id_i         (mem_b_id),
    .mem_b_err_i        (mem_b_err)
  );

  // ---- DRAM: the SPRAMs. Its port logic resets with the SoC; the array is
  // never cleared, and the loader port writes it while the SoC is in reset.
  board_mem #(.Bytes(DramBytes), .IdW(MemIdW)) u_dram (
    .clk_i       (clk_i),
    .rst_ni      (soc_rst_n),
    .req_valid_i (mem_req_valid),
    .req_ready_o (mem_req_ready),
    .req_write_i (mem_req_write),
    .req_addr_i  (mem_req_addr),
    .req_len_i   (mem_req_len),
    .req_id_i    (mem_req_id),
    .w_valid_i   (mem_w_valid),
    .w_ready_o   (mem_w_ready),
    .w_data_i    (mem_w_data),
    .w_strb_i    (mem_w_strb),
    .w_last_i    (mem_w_last),
    .r_valid_o   (mem_r_valid),
    .r_ready_i   (mem_r_ready),
    .r_data_o    (mem_r_data),
    .r_id_o      (mem_r_id),
    .r_last_o    (mem_r_last),
    .r_err_o     (mem_r_err),
    .b_valid_o   (mem_b_valid),
    .b_ready_i   (mem_b_ready),
    .b_id_o      (mem_b_id),
    .b_err_o     (mem_b_err),
    .ld_valid_i  (ld_valid),
    .ld_word_i   (ld_word),
    .ld_data_i   (ld_data),
    .ld_strb_i   (ld_strb)
  );

  // ---- UART pins --------------------------------------------------------------
  board_uart_tx #(.ClksPerBit(ClksPerBit)) u_utx (
    .clk_i   (clk_i),
    .rst_ni  (rst_n),
    .valid_i (utx_valid),
    .ready_o (utx_ready),
    .data_i  (utx_data),
    .tx_o    (uart_tx_o)
  );

  board_uart_rx #(.ClksPerBit(ClksPerBit)) u_urx (
    .clk_i   (clk_i),
    .rst_ni  (rst_n),
    .rx_i    (uart_rx_i),
    .valid_o (urx_valid),
    .ready_i (urx_ready),
    .data_o  (urx_data)
  );

  // ---- LEDs (active low) -----------------------------------------------------
  assign led_green_no = !(boot_done && !halted_q);
  assign led_red_no   = !(boot_err || exit_bad_q);

  logic unused;
  assign unused = ^{commit_valid, commit_rd_we, commit_pc, commit_insn, commit_rd_wdata,
                    commit_rd, tohost_valid, tohost_data};

endmodule

`default_nettype wire
