// board_uart_rx: the UART receive pin of a board (8N1, LSB first).
// Synchronises the pin, finds the start bit's falling edge, samples each bit
// in its middle and offers the byte to the SoC's UART (valid/ready). One
// byte is buffered; a byte that arrives while it is still full is dropped
// (the host link's checksums catch that).
`default_nettype none

module board_uart_rx #(
  parameter int unsigned ClksPerBit = 104   // 12 MHz / 115200 baud
) (
  input  wire logic       clk_i,
  input  wire logic       rst_ni,
  input  wire logic       rx_i,
  output      logic       valid_o,
  input  wire logic       ready_i,
  output      logic [7:0] data_o
);

  localparam int unsigned CW = $clog2(ClksPerBit + 1);

  typedef enum logic [1:0] {
    RxIdle,
    RxStart,
    RxData,
    RxStop
  } rx_state_e;

  rx_state_e     state_q, state_d;
  logic [1:0]    sync_q;                // two flops against metastability
  logic [CW-1:0] clks_q, clks_d;
  logic [2:0]    bit_q, bit_d;
  logic [7:0]    shift_q, shift_d;
  logic          full_q, full_d;
  logic [7:0]    data_q, data_d;
  logic          rx;

  assign rx = sync_q[1];

  always_comb begin
    state_d = state_q;
    clks_d  = clks_q;
    bit_d   = bit_q;
    shift_d = shift_q;
    full_d  = full_q;
    data_d  = data_q;
    if (full_q && ready_i) full_d = 1'b0;
    if (clks_q != '0) clks_d = clks_q - 1'b1;
    unique case (state_q)
      RxIdle: begin
        if (!rx) begin
          state_d = RxStart;
          clks_d  = CW'(ClksPerBit / 2 - 1);   // to the middle of the start bit
        end
      end
      RxStart: begin
        if (clks_q == '0) begin
          if (rx) begin
            state_d = RxIdle;                   // a glitch, not a start bit
          end else begin
            state_d = RxData;
            bit_d   = 3'd0;
            clks_d  = CW'(ClksPerBit - 1);
          end
        end
      end
      RxData: begin
        if (clks_q == '0) begin
          shift_d = {rx, shift_q[7:1]};
          bit_d   = bit_q + 3'd1;
          clks_d  = CW'(ClksPerBit - 1);
          if (bit_q == 3'd7) state_d = RxStop;
        end
      end
      RxStop: begin
        if (clks_q == '0) begin
          state_d = RxIdle;
          if (rx && !full_d) begin              // a framing error drops the byte
            full_d = 1'b1;
            data_d = shift_q;
          end
        end
      end
      default: state_d = RxIdle;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= RxIdle;
      sync_q  <= 2'b11;
      clks_q  <= '0;
      bit_q   <= 3'd0;
      shift_q <= 8'h00;
      full_q  <= 1'b0;
      data_q  <= 8'h00;
    end else begin
      state_q <= state_d;
      sync_q  <= {sync_q[0], rx_i};
      clks_q  <= clks_d;
      bit_q   <= bit_d;
      shift_q <= shift_d;
      full_q  <= full_d;
      data_q  <= data_d;
    end
  end

  assign valid_o = full_q;
  assign data_o  = data_q;

endmodule

`default_nettype wire
