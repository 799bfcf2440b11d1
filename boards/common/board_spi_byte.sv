// board_spi_byte: one byte over SPI mode 0 (clock idles low, both sides
// sample on the rising edge, MSB first), at half the system clock. The
// caller drives chip select; start_i begins a byte, done_o pulses when it
// has been exchanged and rx_o holds the byte received.
`default_nettype none

module board_spi_byte (
  input  wire logic       clk_i,
  input  wire logic       rst_ni,
  input  wire logic       start_i,   // taken while idle (also in the cycle done_o is high)
  input  wire logic [7:0] tx_i,
  output      logic       done_o,
  output      logic [7:0] rx_o,
  output      logic       sck_o,
  output      logic       mosi_o,
  input  wire logic       miso_i
);

  logic       busy_q, busy_d;
  logic       sck_q, sck_d;
  logic [2:0] bit_q, bit_d;
  logic [7:0] tx_q, tx_d;
  logic [7:0] rx_q, rx_d;
  logic       done_q, done_d;

  always_comb begin
    busy_d = busy_q;
    sck_d  = sck_q;
    bit_d  = bit_q;
    tx_d   = tx_q;
    rx_d   = rx_q;
    done_d = 1'b0;
    if (!busy_q) begin
      if (start_i) begin
        busy_d = 1'b1;
        tx_d   = tx_i;
        bit_d  = 3'd0;
      end
    end else if (!sck_q) begin
      // Rising edge: MISO has been stable since the last falling edge.
      sck_d = 1'b1;
      rx_d  = {rx_q[6:0], miso_i};
    end else begin
      // Falling edge: the next bit goes out.
      sck_d = 1'b0;
      tx_d  = {tx_q[6:0], 1'b0};
      bit_d = bit_q + 3'd1;
      if (bit_q == 3'd7) begin
        busy_d = 1'b0;
        done_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      sck_q  <= 1'b0;
      bit_q  <= 3'd0;
      tx_q   <= 8'h00;
      rx_q   <= 8'h00;
      done_q <= 1'b0;
    end else begin
      busy_q <= busy_d;
      sck_q  <= sck_d;
      bit_q  <= bit_d;
      tx_q   <= tx_d;
      rx_q   <= rx_d;
      done_q <= done_d;
    end
  end

  assign done_o = done_q;
  assign rx_o   = rx_q;
  assign sck_o  = sck_q;
  assign mosi_o = tx_q[7];

endmodule

`default_nettype wire
