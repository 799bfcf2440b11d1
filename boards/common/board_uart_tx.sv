// board_uart_tx: the UART transmit pin of a board (8N1, LSB first).
// Takes bytes from the SoC's UART byte stream (valid/ready) and shifts each
// out as start bit, 8 data bits, stop bit, ClksPerBit clocks per bit.
`default_nettype none

module board_uart_tx #(
  parameter int unsigned ClksPerBit = 104   // 12 MHz / 115200 baud
) (
  input  wire logic       clk_i,
  input  wire logic       rst_ni,
  input  wire logic       valid_i,
  output      logic       ready_o,
  input  wire logic [7:0] data_i,
  output      logic       tx_o
);

  localparam int unsigned CW = $clog2(ClksPerBit + 1);

  logic [9:0]    shift_q, shift_d;   // stop, data[7:0], start; bit 0 is on the pin
  logic [3:0]    bits_q, bits_d;     // bits still to send, 0 = idle
  logic [CW-1:0] clks_q, clks_d;     // clocks left in the current bit

  always_comb begin
    shift_d = shift_q;
    bits_d  = bits_q;
    clks_d  = clks_q;
    ready_o = bits_q == 4'd0;
    if (bits_q == 4'd0) begin
      if (valid_i) begin
        shift_d = {1'b1, data_i, 1'b0};
        bits_d  = 4'd10;
        clks_d  = CW'(ClksPerBit - 1);
      end
    end else if (clks_q != '0) begin
      clks_d = clks_q - 1'b1;
    end else begin
      shift_d = {1'b1, shift_q[9:1]};
      bits_d  = bits_q - 4'd1;
      clks_d  = CW'(ClksPerBit - 1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      shift_q <= 10'h3FF;
      bits_q  <= 4'd0;
      clks_q  <= '0;
    end else begin
      shift_q <= shift_d;
      bits_q  <= bits_d;
      clks_q  <= clks_d;
    end
  end

  assign tx_o = shift_q[0];

endmodule

`default_nettype wire
