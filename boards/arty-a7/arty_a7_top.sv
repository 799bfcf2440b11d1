// arty_a7_top: the Tessel SoC on the Digilent Arty A7-35T (XC7A35T-1CSG324,
// 100 MHz oscillator). Board facts: boards/arty-a7/board.cfg; pins:
// arty-a7.xdc; docs/boards.md. What is built with open tools is a yosys
// synth_xilinx netlist and a resource estimate; place and route is the
// vendor's (Vivado), see docs/boards.md.
//
// Clock: an MMCM makes the 50 MHz system clock from the 100 MHz input.
// Memory port: board_mem in block RAM (the board's DDR3 needs the vendor's
// memory controller IP, which is not here). Boot: board_flash_boot from the
// configuration flash, whose clock pin on 7-series parts is reached only
// through STARTUPE2 (USRCCLKO). Without SYNTHESIS (Verilator lint) both
// primitives are left out: the input clock runs the SoC and the flash clock
// is an ordinary output.
// LEDs (active high): LD4 running, LD5 exited with 0, LD6 exited non-zero,
// LD7 flash image refused. ck_rst (the RESET button) restarts everything.
`default_nettype none

module arty_a7_top #(
  parameter int unsigned ClksPerBit = 434,        // 50 MHz / 115200 baud
  parameter int unsigned ImemBytes  = 4096,
  parameter int unsigned DmemBytes  = 4096,
  parameter int unsigned DramBytes  = 131072,     // block RAM behind the memory port
  parameter bit          Npu        = 1'b0,       // board.cfg target (board.mk sets it)
  parameter logic [23:0] FwFlash    = 24'h400000, // flash offsets of the images
  parameter logic [23:0] PkgFlash   = 24'h440000
) (
  input  wire logic       clk100_i,      // E3
  input  wire logic       rst_ni,        // C2, ck_rst (RESET button, active low)
  input  wire logic       uart_rx_i,     // A9, uart_txd_in
  output      logic       uart_tx_o,     // D10, uart_rxd_out
  output      logic [3:0] led_o,         // H5 J5 T9 T10 (LD4..LD7)
  output      logic       flash_cs_no,   // L13, qspi_cs
  output      logic       flash_mosi_o,  // K17, qspi_dq[0]
  input  wire logic       flash_miso_i,  // K18, qspi_dq[1]
  output      logic       flash_sck_o    // unused pin in synthesis (SCK is CCLK, via STARTUPE2)
);

  logic clk, flash_sck;

`ifdef SYNTHESIS
  logic clk_fb, clk_mmcm, mmcm_locked;
  MMCME2_BASE #(
    .CLKIN1_PERIOD    (10.0),
    .CLKFBOUT_MULT_F  (10.0),   // VCO 1000 MHz
    .CLKOUT0_DIVIDE_F (20.0)    // 50 MHz
  ) u_mmcm (
    .CLKIN1   (clk100_i),
    .CLKFBIN  (clk_fb),
    .CLKFBOUT (clk_fb),
    .CLKOUT0  (clk_mmcm),
    .LOCKED   (mmcm_locked),
    .PWRDWN   (1'b0),
    .RST      (1'b0)
  );
  BUFG u_bufg (.I(clk_mmcm), .O(clk));

  STARTUPE2 u_startup (
    .CLK       (1'b0),
    .GSR       (1'b0),
    .GTS       (1'b0),
    .KEYCLEARB (1'b1),
    .PACK      (1'b0),
    .USRCCLKO  (flash_sck),
    .USRCCLKTS (1'b0),
    .USRDONEO  (1'b1),
    .USRDONETS (1'b1)
  );
  assign flash_sck_o = 1'b0;
`else
  logic mmcm_locked;
  assign clk         = clk100_i;
  assign mmcm_locked = 1'b1;
  assign flash_sck_o = flash_sck;
`endif

  // Reset: two synchronising flops, then 16 clocks, after lock and button.
  logic [1:0] rst_sync_q, rst_sync_d;
  logic [4:0] por_q, por_d;
  always_comb begin
    rst_sync_d = {rst_sync_q[0], rst_ni && mmcm_locked};
    por_d      = por_q;
    if (!rst_sync_q[1])  por_d = 5'd0;
    else if (!por_q[4])  por_d = por_q + 5'd1;
  end
  always_ff @(posedge clk) begin
    rst_sync_q <= rst_sync_d;
    por_q      <= por_d;
  end

  logic running, exit_bad, boot_err;

  board_soc #(
    .ClksPerBit (ClksPerBit),
    .ImemBytes  (ImemBytes),
    .DmemBytes  (DmemBytes),
    .DramBytes  (DramBytes),
    .FastMul    (1'b1),         // 90 DSP48E1: the single-cycle multiplier
    .Npu        (Npu),
    .FwFlash    (FwFlash),
    .PkgFlash   (PkgFlash)
  ) u_board (
    .clk_i        (clk),
    .rst_ni       (por_q[4]),
    .uart_rx_i    (uart_rx_i),
    .uart_tx_o    (uart_tx_o),
    .flash_cs_no  (flash_cs_no),
    .flash_sck_o  (flash_sck),
    .flash_mosi_o (flash_mosi_o),
    .flash_miso_i (flash_miso_i),
    .running_o    (running),
    .exit_bad_o   (exit_bad),
    .boot_err_o   (boot_err)
  );

  logic halted_ok;
  assign halted_ok = por_q[4] && !running && !exit_bad && !boot_err;
  assign led_o = {boot_err, exit_bad, halted_ok, running};

endmodule

`default_nettype wire
