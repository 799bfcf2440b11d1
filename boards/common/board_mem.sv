// board_mem: an on-chip memory behind the SoC's external memory port
// (docs/memory-port.md), for boards whose "DRAM" is FPGA RAM (the
// iCEBreaker's four SPRAMs: 64-bit words, yosys infers SB_SPRAM256KA from
// the single-port array below with synth_ice40 -spram).
//
// One burst at a time: a request is taken only when the previous one has
// finished (reads: every beat out; writes: every beat in and B taken), so
// the ordering rules of the port hold trivially. Reads stream one beat per
// cycle (the array's read register is the R data; it is only re-read when
// the beat has gone). Addresses past Bytes answer every beat with r_err /
// one b_err, as the simulator's DRAM model does.
//
// The loader port writes words while the SoC is held in reset (the flash
// boot copies firmware and package with it); it wins over the port.
`default_nettype none

module board_mem #(
  parameter int unsigned Bytes = 131072,  // a power of two, at least 4 KiB
  parameter int unsigned IdW   = 6,
  localparam int unsigned Words = Bytes / 8,
  localparam int unsigned AW    = $clog2(Words)
) (
  input  wire logic           clk_i,
  input  wire logic           rst_ni,
  // Memory port, slave side.
  input  wire logic           req_valid_i,
  output      logic           req_ready_o,
  input  wire logic           req_write_i,
  input  wire logic [31:0]    req_addr_i,
  input  wire logic [7:0]     req_len_i,
  input  wire logic [IdW-1:0] req_id_i,
  input  wire logic           w_valid_i,
  output      logic           w_ready_o,
  input  wire logic [63:0]    w_data_i,
  input  wire logic [7:0]     w_strb_i,
  input  wire logic           w_last_i,
  output      logic           r_valid_o,
  input  wire logic           r_ready_i,
  output      logic [63:0]    r_data_o,
  output      logic [IdW-1:0] r_id_o,
  output      logic           r_last_o,
  output      logic           r_err_o,
  output      logic           b_valid_o,
  input  wire logic           b_ready_i,
  output      logic [IdW-1:0] b_id_o,
  output      logic           b_err_o,
  // Loader: one 64-bit word per cycle, word index, byte strobes.
  input  wire logic           ld_valid_i,
  input  wire logic [AW-1:0]  ld_word_i,
  input  wire logic [63:0]    ld_data_i,
  input  wire logic [7:0]     ld_strb_i
);

  typedef enum logic [1:0] {
    MemIdle,
    MemRead,
    MemWrite,
    MemBresp
  } mem_state_e;

  mem_state_e     state_q, state_d;
  logic [AW-1:0]  word_q, word_d;       // word of the next beat
  logic [7:0]     left_q, left_d;       // beats still to issue (reads) or take (writes), minus one
  logic           issued_all_q, issued_all_d;
  logic [IdW-1:0] id_q, id_d;
  logic           err_q, err_d;
  logic           rvalid_q, rvalid_d;
  logic           rlast_q, rlast_d;

  // The array: a single-port RAM of 64-bit words with byte write enables.
  logic [63:0]   mem [Words];
  logic          ram_re, ram_we;
  logic [AW-1:0] ram_addr;
  logic [63:0]   ram_wdata, ram_rdata_q;
  logic [7:0]    ram_be;

  always_ff @(posedge clk_i) begin
    for (int b = 0; b < 8; b++) begin
      if (ram_we && ram_be[b]) mem[ram_addr][8*b +: 8] <= ram_wdata[8*b +: 8];
    end
    if (ram_re) ram_rdata_q <= mem[ram_addr];
  end

  // The port's address is the byte address in the upper half (0x8000_0000
  // and up); bits above the memory's size make the burst an error.
  logic        req_err;
  logic [30:0] req_off;
  assign req_off = req_addr_i[30:0];
  assign req_err = (req_off >> $clog2(Bytes)) != 31'd0;

  always_comb begin
    state_d      = state_q;
    word_d       = word_q;
    left_d       = left_q;
    issued_all_d = issued_all_q;
    id_d         = id_q;
    err_d        = err_q;
    rvalid_d     = rvalid_q;
    rlast_d      = rlast_q;
    req_ready_o  = 1'b0;
    w_ready_o    = 1'b0;
    ram_re       = 1'b0;
    ram_we       = 1'b0;
    ram_addr     = word_q;
    ram_wdata    = w_data_i;
    ram_be       = w_strb_i;

    // An R beat that is taken frees the read register.
    if (rvalid_q && r_ready_i) rvalid_d = 1'b0;

    unique case (state_q)
      MemIdle: begin
        req_ready_o = !ld_valid_i;
        if (req_valid_i && !ld_valid_i) begin
          word_d       = req_off[AW+2:3];
          left_d       = req_len_i;
          issued_all_d = 1'b0;
          id_d         = req_id_i;
          err_d        = req_err;
          state_d      = req_write_i ? MemWrite : MemRead;
        end
      end
      MemRead: begin
        // Issue the next beat when the read register is free (or frees now).
        if (!issued_all_q && (!rvalid_q || r_ready_i)) begin
          ram_re     = !err_q;
          rvalid_d   = 1'b1;
          rlast_d    = left_q == 8'd0;
          word_d     = word_q + 1'b1;
          left_d     = left_q - 8'd1;
          if (left_q == 8'd0) issued_all_d = 1'b1;
        end
        if (issued_all_q && rvalid_q && r_ready_i) state_d = MemIdle;
      end
      MemWrite: begin
        w_ready_o = 1'b1;
        if (w_valid_i) begin
          ram_we = !err_q;
          word_d = word_q + 1'b1;
          if (w_last_i) state_d = MemBresp;
        end
      end
      MemBresp: begin
        if (b_ready_i) state_d = MemIdle;
      end
      default: state_d = MemIdle;
    endcase

    // The loader owns the array while it writes (the SoC is in reset).
    if (ld_valid_i) begin
      ram_re    = 1'b0;
      ram_we    = 1'b1;
      ram_addr  = ld_word_i;
      ram_wdata = ld_data_i;
      ram_be    = ld_strb_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q      <= MemIdle;
      word_q       <= '0;
      left_q       <= 8'd0;
      issued_all_q <= 1'b0;
      id_q         <= '0;
      err_q        <= 1'b0;
      rvalid_q     <= 1'b0;
      rlast_q      <= 1'b0;
    end else begin
      state_q      <= state_d;
      word_q       <= word_d;
      left_q       <= left_d;
      issued_all_q <= issued_all_d;
      id_q         <= id_d;
      err_q        <= err_d;
      rvalid_q     <= rvalid_d;
      rlast_q      <= rlast_d;
    end
  end

  assign r_valid_o = rvalid_q;
  assign r_data_o  = err_q ? 64'h0 : ram_rdata_q;
  assign r_id_o    = id_q;
  assign r_last_o  = rlast_q;
  assign r_err_o   = err_q;
  assign b_valid_o = state_q == MemBresp;
  assign b_id_o    = id_q;
  assign b_err_o   = err_q;

  // Bit 31 selects the port (always set); the low bits address bytes in a beat.
  logic unused;
  assign unused = ^{req_addr_i[31], req_addr_i[2:0]};

endmodule

`default_nettype wire
