// tessel_uart: the UART's register interface (docs/memory-map.md) over byte
// streams. A board wraps the streams with a serial PHY; the simulator reads
// and writes the bytes directly. One byte of buffer each way.
`default_nettype none

module tessel_uart (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // Register bus (offset within the 4 KiB window); answers the next cycle.
  input  wire logic        req_valid_i,
  output      logic        req_ready_o,
  input  wire logic        req_we_i,
  input  wire logic [3:0]  req_be_i,
  input  wire logic [11:0] req_addr_i,
  input  wire logic [31:0] req_wdata_i,
  output      logic        rsp_valid_o,
  output      logic [31:0] rsp_rdata_o,
  output      logic        rsp_err_o,
  // Byte streams.
  output      logic        tx_valid_o,
  input  wire logic        tx_ready_i,
  output      logic [7:0]  tx_data_o,
  input  wire logic        rx_valid_i,
  output      logic        rx_ready_o,
  input  wire logic [7:0]  rx_data_i
);

  // Register offsets: tessel_memmap_pkg (targets/memmap.def).
  localparam logic [11:0] OffTxdata = tessel_memmap_pkg::UartTxdataOff;
  localparam logic [11:0] OffRxdata = tessel_memmap_pkg::UartRxdataOff;
  localparam logic [11:0] OffStatus = tessel_memmap_pkg::UartStatusOff;
  localparam logic [31:0] RxEmpty   = 32'd1 << tessel_memmap_pkg::UartRxdataEmptyBit;  // RXDATA: no byte

  logic       tx_full_q, tx_full_d;
  logic [7:0] tx_data_q, tx_data_d;
  logic       rx_full_q, rx_full_d;
  logic [7:0] rx_data_q, rx_data_d;
  logic       rsp_valid_q, rsp_err_q, rsp_err_d;
  logic [31:0] rsp_rdata_q, rsp_rdata_d;
  logic       tx_write, fire;

  // A TXDATA write waits while the buffer holds a byte: that is the stall
  // the memory map promises, and it needs no polling in firmware.
  assign tx_write    = req_we_i && req_addr_i == OffTxdata;
  assign req_ready_o = !(tx_write && tx_full_q);
  assign fire        = req_valid_i && req_ready_o;

  assign tx_valid_o  = tx_full_q;
  assign tx_data_o   = tx_data_q;
  assign rx_ready_o  = !rx_full_q;

  always_comb begin
    tx_full_d   = tx_full_q && !tx_ready_i;
    tx_data_d   = tx_data_q;
    rx_full_d   = rx_full_q;
    rx_data_d   = rx_data_q;
    rsp_rdata_d = 32'h0;
    rsp_err_d   = 1'b0;
    if (rx_valid_i && !rx_full_q) begin
      rx_full_d = 1'b1;
      rx_data_d = rx_data_i;
    end
    if (fire) begin
      unique case (req_addr_i)
        OffTxdata: begin
          if (req_we_i && req_be_i[0]) begin
            tx_full_d = 1'b1;
            tx_data_d = req_wdata_i[7:0];
          end
        end
        OffRxdata: begin
          if (!req_we_i) begin
            rsp_rdata_d = rx_full_q ? {24'h0, rx_data_q} : RxEmpty;
            // Only a byte that was there is consumed: one arriving in
            // this very cycle (rx_full_q low) must survive the read.
            if (rx_full_q) rx_full_d = 1'b0;
          end
        end
        OffStatus: rsp_rdata_d = {30'h0, rx_full_q, !tx_full_q};
        default:   rsp_err_d   = 1'b1;
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      tx_full_q   <= 1'b0;
      tx_data_q   <= 8'h0;
      rx_full_q   <= 1'b0;
      rx_data_q   <= 8'h0;
      rsp_valid_q <= 1'b0;
      rsp_rdata_q <= 32'h0;
      rsp_err_q   <= 1'b0;
    end else begin
      tx_full_q   <= tx_full_d;
      tx_data_q   <= tx_data_d;
      rx_full_q   <= rx_full_d;
      rx_data_q   <= rx_data_d;
      rsp_valid_q <= fire;
      rsp_rdata_q <= rsp_rdata_d;
      rsp_err_q   <= rsp_err_d;
    end
  end

  // TXDATA takes the low byte only.
  logic unused;
  assign unused = ^{req_be_i[3:1], req_wdata_i[31:8]};

  assign rsp_valid_o = rsp_valid_q;
  assign rsp_rdata_o = rsp_rdata_q;
  assign rsp_err_o   = rsp_err_q;

endmodule

`default_nettype wire
