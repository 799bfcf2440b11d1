// icebreaker_top: the Tessel SoC on the iCEBreaker (iCE40UP5K-SG48, 12 MHz).
// Board facts: boards/icebreaker/board.cfg; pins: icebreaker.pcf;
// docs/boards.md. The SoC with its flash boot, RAM and UART is board_soc;
// this wrapper adds the power-on reset, the button and the LEDs:
//   green on: running      both off: exited with 0
//   red on:   exited with a non-zero code, or the flash image was refused
// BTN_N restarts everything, the flash load included.
`default_nettype none

module icebreaker_top #(
  parameter int unsigned ClksPerBit = 104,        // 12 MHz / 115200 baud
  parameter int unsigned ImemBytes  = 0,          // TCMs: none (the firmware runs from SPRAM)
  parameter int unsigned DmemBytes  = 0,
  parameter bit          CoreLite   = 1'b1,       // the lite core (board.cfg core = lite)
  parameter int unsigned TimerBits  = 32,         // board.cfg timer_bits
  parameter bit          MemSlice   = 1'b0,       // board.cfg mem_slice
  parameter bit          Npu        = 1'b0,       // board.cfg target (none: no NPU)
  parameter bit          NpuSeq     = 1'b0,       // board.cfg npu_seq: the core-sequenced NPU's datapath
  parameter int unsigned DramBytes  = 131072,     // the four 32 KiB SPRAMs
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

  // Reset: held for 16 clocks after configuration and while BTN_N is low.
  // iCE40 flops start at 0 after configuration, so por_q counts up from 0.
  logic [1:0] btn_sync_q, btn_sync_d;
  logic [4:0] por_q, por_d;
  always_comb begin
    btn_sync_d = {btn_sync_q[0], btn_ni};
    por_d      = por_q;
    if (!btn_sync_q[1])  por_d = 5'd0;
    else if (!por_q[4])  por_d = por_q + 5'd1;
  end
  always_ff @(posedge clk_i) begin
    btn_sync_q <= btn_sync_d;
    por_q      <= por_d;
  end

  logic running, exit_bad, boot_err;

  board_soc #(
    .ClksPerBit (ClksPerBit),
    .ImemBytes  (ImemBytes),
    .DmemBytes  (DmemBytes),
    .DramBytes  (DramBytes),
    .FastMul    (1'b0),         // the 8 DSPs are the NPU's
    .CoreLite   (CoreLite),
    .TimerBits  (TimerBits),
    .MemSlice   (MemSlice),
    .Npu        (Npu),
    .NpuSeq     (NpuSeq),
    .FwFlash    (FwFlash),
    .PkgFlash   (PkgFlash)
  ) u_board (
    .clk_i        (clk_i),
    .rst_ni       (por_q[4]),
    .uart_rx_i    (uart_rx_i),
    .uart_tx_o    (uart_tx_o),
    .flash_cs_no  (flash_cs_no),
    .flash_sck_o  (flash_sck_o),
    .flash_mosi_o (flash_mosi_o),
    .flash_miso_i (flash_miso_i),
    .running_o    (running),
    .exit_bad_o   (exit_bad),
    .boot_err_o   (boot_err)
  );

  // LEDs are active low.
  assign led_green_no = !running;
  assign led_red_no   = !(boot_err || exit_bad);

endmodule

`default_nettype wire
