// board_flash_boot: the boot loader of a board whose memory the bitstream
// cannot preload (iCE40 SPRAM). While the SoC is held in reset it reads
// images from SPI flash (command 0x03, after 0xAB wakes the flash from
// deep power-down) and writes them into the memory-port RAM through
// board_mem's loader port; done_o releases the SoC.
//
// Two images, each at a fixed flash offset, each with a 16-byte header
// (little-endian; docs/boards.md "Flash layout"):
//   +0  magic  "TSLB" (0x424C5354)
//   +4  dest   byte offset in the RAM (a multiple of 8)
//   +8  len    payload bytes (dest + len <= the RAM's size)
//   +12 sum    the 32-bit sum of the payload bytes
// Image 0 (firmware) must be valid: a bad header or sum ends in err_o and the
// SoC stays in reset. Image 1 (model package) is optional: a wrong magic
// skips it (nothing was written), any other fault is an error.
//
// Small on purpose (it shares an iCE40 with the SoC): the header is checked
// field by field as it streams in (one 32-bit shift register), and payload
// bytes are written one at a time with a one-byte strobe, so no word buffer.
`default_nettype none

module board_flash_boot #(
  parameter int unsigned  MemBytes   = 131072,     // RAM size, a power of two
  parameter logic [23:0]  Image0Addr = 24'h100000, // firmware header in flash
  parameter logic [23:0]  Image1Addr = 24'h140000, // package header in flash
  parameter int unsigned  WakeClks   = 64,         // >= 3 us after 0xAB (tRES1)
  localparam int unsigned AW         = $clog2(MemBytes / 8)
) (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,
  // SPI flash.
  output      logic          flash_cs_no,
  output      logic          flash_sck_o,
  output      logic          flash_mosi_o,
  input  wire logic          flash_miso_i,
  // Loader port of board_mem.
  output      logic          ld_valid_o,
  output      logic [AW-1:0] ld_word_o,
  output      logic [63:0]   ld_data_o,
  output      logic [7:0]    ld_strb_o,
  // Outcome.
  output      logic          done_o,     // both images handled: release the SoC
  output      logic          err_o       // a bad image: the SoC stays in reset
);

  localparam logic [31:0] Magic = 32'h424C5354;   // "TSLB"
  localparam int unsigned LW    = $clog2(MemBytes) + 1;
  localparam int unsigned WW    = $clog2(WakeClks + 1);

  typedef enum logic [3:0] {
    BootWake,      // 0xAB with chip select low
    BootWakeWait,  // chip select high for WakeClks
    BootCmd,       // 0x03 and the 24-bit address
    BootHdr,       // 16 header bytes
    BootCheck,
    BootData,      // payload bytes
    BootSum,
    BootNext,
    BootDone,
    BootErr
  } boot_state_e;

  boot_state_e   state_q, state_d;
  logic          image_q, image_d;        // 0 firmware, 1 package
  logic [3:0]    cnt_q, cnt_d;            // byte index within command / header
  logic [WW-1:0] wait_q, wait_d;
  logic [31:0]   fld_q, fld_d;            // the header field coming in; then the sum
  logic          magic_ok_q, magic_ok_d;
  logic          range_ok_q, range_ok_d;  // dest aligned and in the RAM, len <= size
  logic [LW-1:0] dest_q, dest_d;          // byte address of the next payload byte
  logic [LW-1:0] left_q, left_d;          // payload bytes still to read
  logic [31:0]   sum_q, sum_d;
  logic          cs_n_q, cs_n_d;
  logic          started_q, started_d;    // a byte of the current step is on the wire

  logic       spi_start, spi_done;
  logic [7:0] spi_tx, spi_rx;

  board_spi_byte u_spi (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (spi_start),
    .tx_i    (spi_tx),
    .done_o  (spi_done),
    .rx_o    (spi_rx),
    .sck_o   (flash_sck_o),
    .mosi_o  (flash_mosi_o),
    .miso_i  (flash_miso_i)
  );

  logic [23:0] image_addr;
  assign image_addr = image_q ? Image1Addr : Image0Addr;

  // The field as it is once this byte is in (bytes arrive LSB first).
  logic [31:0] fld_in;
  assign fld_in = {spi_rx, fld_q[31:8]};

  always_comb begin
    state_d    = state_q;
    image_d    = image_q;
    cnt_d      = cnt_q;
    wait_d     = wait_q;
    fld_d      = fld_q;
    magic_ok_d = magic_ok_q;
    range_ok_d = range_ok_q;
    dest_d     = dest_q;
    left_d     = left_q;
    sum_d      = sum_q;
    cs_n_d     = cs_n_q;
    started_d  = started_q;
    spi_start  = 1'b0;
    spi_tx     = 8'h00;
    ld_valid_o = 1'b0;

    unique case (state_q)
      BootWake: begin
        cs_n_d = 1'b0;
        if (!started_q) begin
          spi_start = !cs_n_q;         // chip select low for a cycle first
          spi_tx    = 8'hAB;
          started_d = !cs_n_q;
        end else if (spi_done) begin
          started_d = 1'b0;
          cs_n_d    = 1'b1;
          wait_d    = WW'(WakeClks);
          state_d   = BootWakeWait;
        end
      end
      BootWakeWait: begin
        if (wait_q != '0) wait_d = wait_q - 1'b1;
        else begin
          state_d = BootCmd;
          cnt_d   = 4'd0;
        end
      end
      BootCmd: begin
        cs_n_d = 1'b0;
        // The byte to send: this one, or the next when this one is done.
        unique case (started_q && spi_done ? cnt_q[1:0] + 2'd1 : cnt_q[1:0])
          2'd0:    spi_tx = 8'h03;
          2'd1:    spi_tx = image_addr[23:16];
          2'd2:    spi_tx = image_addr[15:8];
          default: spi_tx = image_addr[7:0];
        endcase
        if (!started_q) begin
          spi_start = !cs_n_q;
          started_d = !cs_n_q;
        end else if (spi_done) begin
          cnt_d = cnt_q + 4'd1;
          if (cnt_q == 4'd3) begin
            state_d   = BootHdr;
            started_d = 1'b0;
            cnt_d     = 4'd0;
          end else begin
            spi_start = 1'b1;           // the next byte back to back
          end
        end
      end
      BootHdr: begin
        if (!started_q) begin
          spi_start  = 1'b1;
          started_d  = 1'b1;
          range_ok_d = 1'b1;
        end else if (spi_done) begin
          fld_d = fld_in;
          cnt_d = cnt_q + 4'd1;
          // A field is complete with its fourth byte.
          unique case (cnt_q)
            4'd3:  magic_ok_d = fld_in == Magic;
            4'd7: begin
              dest_d = fld_in[LW-1:0];
              if (fld_in >= 32'(MemBytes) || fld_in[2:0] != 3'd0) range_ok_d = 1'b0;
            end
            4'd11: begin
              left_d = fld_in[LW-1:0];
              if (fld_in > 32'(MemBytes)) range_ok_d = 1'b0;
            end
            default: ;
          endcase
          if (cnt_q == 4'd15) begin
            state_d   = BootCheck;
            started_d = 1'b0;
          end else begin
            spi_start = 1'b1;
          end
        end
      end
      BootCheck: begin
        // fld_q now holds the expected sum. dest and len are each at most
        // the size, so their LW+1-bit sum does not wrap.
        sum_d = 32'd0;
        if (!magic_ok_q) begin
          state_d = image_q ? BootNext : BootErr;   // no package: fine
        end else if (!range_ok_q || {1'b0, dest_q} + {1'b0, left_q} > (LW + 1)'(MemBytes)) begin
          state_d = BootErr;
        end else begin
          state_d = left_q == '0 ? BootSum : BootData;
        end
      end
      BootData: begin
        if (!started_q) begin
          spi_start = 1'b1;
          started_d = 1'b1;
        end else if (spi_done) begin
          ld_valid_o = 1'b1;            // this byte, at dest_q
          sum_d      = sum_q + {24'd0, spi_rx};
          dest_d     = dest_q + 1'b1;
          left_d     = left_q - 1'b1;
          if (left_q == LW'(1)) begin
            started_d = 1'b0;
            state_d   = BootSum;
          end else begin
            spi_start = 1'b1;
          end
        end
      end
      BootSum: begin
        cs_n_d  = 1'b1;
        state_d = sum_q == fld_q ? BootNext : BootErr;
      end
      BootNext: begin
        cs_n_d = 1'b1;
        if (image_q) state_d = BootDone;
        else begin
          image_d = 1'b1;
          cnt_d   = 4'd0;
          state_d = BootCmd;
        end
      end
      BootDone: cs_n_d = 1'b1;
      BootErr:  cs_n_d = 1'b1;
      default:  state_d = BootErr;
    endcase
  end

  // One byte per write: its lane's strobe, the byte on every lane.
  assign ld_word_o = dest_q[LW-2:3];
  assign ld_data_o = {8{spi_rx}};
  assign ld_strb_o = 8'b1 << dest_q[2:0];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q    <= BootWake;
      image_q    <= 1'b0;
      cnt_q      <= 4'd0;
      wait_q     <= '0;
      fld_q      <= 32'd0;
      magic_ok_q <= 1'b0;
      range_ok_q <= 1'b0;
      dest_q     <= '0;
      left_q     <= '0;
      sum_q      <= 32'd0;
      cs_n_q     <= 1'b1;
      started_q  <= 1'b0;
    end else begin
      state_q    <= state_d;
      image_q    <= image_d;
      cnt_q      <= cnt_d;
      wait_q     <= wait_d;
      fld_q      <= fld_d;
      magic_ok_q <= magic_ok_d;
      range_ok_q <= range_ok_d;
      dest_q     <= dest_d;
      left_q     <= left_d;
      sum_q      <= sum_d;
      cs_n_q     <= cs_n_d;
      started_q  <= started_d;
    end
  end

  assign flash_cs_no = cs_n_q;
  assign done_o      = state_q == BootDone;
  assign err_o       = state_q == BootErr;

endmodule

`default_nettype wire
