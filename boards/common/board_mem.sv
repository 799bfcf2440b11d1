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
  localparam int unsigned Words = Bytes / 8,
  localparam int unsigned AW    = $clog2(Words),
  localparam int unsigned IdW   = tessel_memport_pkg::IdW
) (
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,
  // Memory port, slave side.
  input  wire tessel_memport_pkg::req_t req_i,
  output      tessel_memport_pkg::rsp_t rsp_o,
  // Loader: one 64-bit word per cycle, word index, byte strobes.
  input  wire logic                     ld_valid_i,
  input  wire logic [AW-1:0]            ld_word_i,
  input  wire logic [63:0]              ld_data_i,
  input  wire logic [7:0]               ld_strb_i
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
  logic           req_ready, w_ready;

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
  assign req_off = req_i.req_addr[30:0];
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
    req_ready    = 1'b0;
    w_ready      = 1'b0;
    ram_re       = 1'b0;
    ram_we       = 1'b0;
    ram_addr     = word_q;
    ram_wdata    = req_i.w_data;
    ram_be       = req_i.w_strb;

    // An R beat that is taken frees the read register.
    if (rvalid_q && req_i.r_ready) rvalid_d = 1'b0;

    unique case (state_q)
      MemIdle: begin
        req_ready = !ld_valid_i;
        if (req_i.req_valid && !ld_valid_i) begin
          word_d       = req_off[AW+2:3];
          left_d       = req_i.req_len;
          issued_all_d = 1'b0;
          id_d         = req_i.req_id;
          err_d        = req_err;
          state_d      = req_i.req_write ? MemWrite : MemRead;
        end
      end
      MemRead: begin
        // Issue the next beat when the read register is free (or frees now).
        if (!issued_all_q && (!rvalid_q || req_i.r_ready)) begin
          ram_re     = !err_q;
          rvalid_d   = 1'b1;
          rlast_d    = left_q == 8'd0;
          word_d     = word_q + 1'b1;
          left_d     = left_q - 8'd1;
          if (left_q == 8'd0) issued_all_d = 1'b1;
        end
        if (issued_all_q && rvalid_q && req_i.r_ready) state_d = MemIdle;
      end
      MemWrite: begin
        w_ready = 1'b1;
        if (req_i.w_valid) begin
          ram_we = !err_q;
          word_d = word_q + 1'b1;
          if (req_i.w_last) state_d = MemBresp;
        end
      end
      MemBresp: begin
        if (req_i.b_ready) state_d = MemIdle;
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

  assign rsp_o.req_ready = req_ready;
  assign rsp_o.w_ready   = w_ready;
  assign rsp_o.r_valid   = rvalid_q;
  assign rsp_o.r_data    = err_q ? 64'h0 : ram_rdata_q;
  assign rsp_o.r_id      = id_q;
  assign rsp_o.r_last    = rlast_q;
  assign rsp_o.r_err     = err_q;
  assign rsp_o.b_valid   = state_q == MemBresp;
  assign rsp_o.b_id      = id_q;
  assign rsp_o.b_err     = err_q;

  // Bit 31 selects the port (always set); the low bits address bytes in a beat.
  logic unused;
  assign unused = ^{req_i.req_addr[31], req_i.req_addr[2:0]};

endmodule

`default_nettype wire
