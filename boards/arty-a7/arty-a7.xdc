## arty-a7.xdc: constraints of arty_a7_top on the Digilent Arty A7-35T
## (pins from Digilent's Arty-A7-35-Master.xdc). For Vivado; docs/boards.md.

## 100 MHz oscillator; the MMCM's 50 MHz output is derived by Vivado.
set_property -dict { PACKAGE_PIN E3  IOSTANDARD LVCMOS33 } [get_ports clk100_i]
create_clock -name sys_clk_pin -period 10.00 -waveform {0 5} [get_ports clk100_i]

## RESET button (ck_rst, active low)
set_property -dict { PACKAGE_PIN C2  IOSTANDARD LVCMOS33 } [get_ports rst_ni]

## USB-UART (FTDI): uart_txd_in is the FPGA's RX, uart_rxd_out its TX
set_property -dict { PACKAGE_PIN A9  IOSTANDARD LVCMOS33 } [get_ports uart_rx_i]
set_property -dict { PACKAGE_PIN D10 IOSTANDARD LVCMOS33 } [get_ports uart_tx_o]

## LD4..LD7
set_property -dict { PACKAGE_PIN H5  IOSTANDARD LVCMOS33 } [get_ports {led_o[0]}]
set_property -dict { PACKAGE_PIN J5  IOSTANDARD LVCMOS33 } [get_ports {led_o[1]}]
set_property -dict { PACKAGE_PIN T9  IOSTANDARD LVCMOS33 } [get_ports {led_o[2]}]
set_property -dict { PACKAGE_PIN T10 IOSTANDARD LVCMOS33 } [get_ports {led_o[3]}]

## Quad-SPI configuration flash (single-bit SPI: dq0 out, dq1 in); its clock
## is CCLK, driven through STARTUPE2 in the top.
set_property -dict { PACKAGE_PIN L13 IOSTANDARD LVCMOS33 } [get_ports flash_cs_no]
set_property -dict { PACKAGE_PIN K17 IOSTANDARD LVCMOS33 } [get_ports flash_mosi_o]
set_property -dict { PACKAGE_PIN K18 IOSTANDARD LVCMOS33 } [get_ports flash_miso_i]
## flash_sck_o is tied low in synthesis (simulation-only pin): a spare header pin.
set_property -dict { PACKAGE_PIN G13 IOSTANDARD LVCMOS33 } [get_ports flash_sck_o]

## Configuration
set_property CONFIG_VOLTAGE 3.3 [current_design]
set_property CFGBVS VCCO [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4 [current_design]
