// npu_fetch: the stream fetch (CTRL.FETCH, docs/isa.md section 9). Copies
// FETCH_LEN commands from byte offset FETCH_SRC of the fetch window
// (FETCH_BASE/FETCH_SIZE, read only) to byte offset FETCH_DST of the command
// SRAM, one command at a time: a 2-beat read on the memory port (id 2), the
// beats into a 128-bit buffer, then four word writes through the command
// SRAM's core port (which waits meanwhile). A run may go on in the meantime,
// from another part of the command SRAM.
//
// Checked at CTRL.FETCH, before any access (FETCH_ERR, STATUS.FETCH_ERROR):
//   FETCH_RANGE    source or destination misaligned, or leaving its memory
//   FETCH_OVERLAP  a run is going on and its stream overlaps the destination
// clash_o tells the dispatcher that a START's stream would overlap the
// destination of the fetch in flight (the run then ends with FETCH_OVERLAP).
// CTRL.ABORT stops the fetch after the command in flight (FETCH_ERR ABORTED).
//
// One request at a time, and the buffer is empty when it is made, so the
// fetch takes its beats at once and never holds up the read channel for the
// LOAD unit's beats. A command costs the memory latency plus about 7 cycles:
// kernels run far longer than their streams take to fetch.
`default_nettype none

module npu_fetch #(
  parameter int unsigned CmdSramBytes = tessel_target_pkg::CmdSramBytes,
  localparam int unsigned CAw = $clog2(CmdSramBytes / 16)
) (
  input  wire logic           clk_i,
  input  wire logic           rst_ni,
  input  wire logic           start_i,       // CTRL.FETCH taken (only while !busy_o)
  input  wire logic           abort_i,
  input  wire logic [31:0]    win_base_i,    // FETCH_BASE
  input  wire logic [31:0]    win_size_i,    // FETCH_SIZE
  input  wire logic [31:0]    src_i,         // FETCH_SRC
  input  wire logic [31:0]    dst_i,         // FETCH_DST
  input  wire logic [31:0]    len_i,         // FETCH_LEN
  // the stream the dispatcher runs, or is asked to start
  input  wire logic           run_busy_i,
  input  wire logic [31:0]    run_base_i,    // STREAM_BASE
  input  wire logic [31:0]    run_len_i,     // STREAM_LEN
  output      logic           clash_o,       // busy_o and [run_base, +16*run_len) meets the destination
  output      logic           busy_o,
  output      logic [7:0]     err_o,         // FETCH_ERR: set from the cycle after CTRL.FETCH
  // memory-port read requests (2 beats each) and their beats
  output      logic           req_valid_o,
  input  wire logic           req_ready_i,
  output      logic [31:0]    req_addr_o,
  input  wire logic           r_valid_i,     // a beat of this fetch's id
  input  wire logic [63:0]    r_data_i,
  // command SRAM word writes (the core's port)
  output      logic           we_o,
  output      logic [CAw-1:0] row_o,
  output      logic [1:0]     lane_o,
  output      logic [31:0]    wdata_o
);
  typedef enum logic [1:0] {
    StIdle,   // nothing to do
    StReq,    // request shown until taken (port rule 2)
    StData,   // two beats to come
    StWrite   // four word writes of the buffered command
  } state_e;

  state_e         state_q, state_d;
  logic [31:0]    addr_q, addr_d;      // bus address of the next command
  logic [CAw-1:0] row_q, row_d;        // its command SRAM row
  logic [31:0]    left_q, left_d;      // commands still to fetch, this one included
  logic [CAw:0]   lo_q, lo_d;          // destination rows [lo, hi) of this fetch
  logic [CAw:0]   hi_q, hi_d;
  logic [127:0]   buf_q, buf_d;
  logic [1:0]     cnt_q, cnt_d;        // beat (StData) or word (StWrite)
  logic           stop_q, stop_d;      // ABORT seen
  logic [7:0]     err_q, err_d;

  // the start checks, in 64 bits so nothing wraps
  logic [63:0] src_end, dst_end, run_end;
  logic        bad_range, meets_run;
  always_comb begin
    src_end   = {32'd0, src_i} + {28'd0, len_i, 4'd0};
    dst_end   = {32'd0, dst_i} + {28'd0, len_i, 4'd0};
    run_end   = {32'd0, run_base_i} + {28'd0, run_len_i, 4'd0};
    bad_range = src_i[2:0] != 3'd0 || dst_i[3:0] != 4'd0 ||
                src_end > {32'd0, win_size_i} || dst_end > 64'(CmdSramBytes);
    meets_run = run_busy_i && len_i != 32'd0 && run_len_i != 32'd0 &&
                {32'd0, dst_i} < run_end && {32'd0, run_base_i} < dst_end;
    // a stream start against the fetch in flight (lo/hi are rows)
    clash_o   = busy_o && run_len_i != 32'd0 &&
                {32'd0, run_base_i} < 64'({hi_q, 4'd0}) &&
                64'({lo_q, 4'd0}) < run_end;
  end

  always_comb begin
    state_d = state_q;
    addr_d  = addr_q;
    row_d   = row_q;
    left_d  = left_q;
    lo_d    = lo_q;
    hi_d    = hi_q;
    buf_d   = buf_q;
    cnt_d   = cnt_q;
    stop_d  = stop_q || (abort_i && state_q != StIdle);
    err_d   = err_q;
    unique case (state_q)
      StIdle: begin
        stop_d = 1'b0;
        if (start_i) begin
          addr_d = win_base_i + src_i;
          row_d  = CAw'(dst_i >> 4);
          left_d = len_i;
          lo_d   = (CAw+1)'(dst_i >> 4);
          hi_d   = (CAw+1)'(dst_end >> 4);
          err_d  = tessel_isa_pkg::ErrNone;
          if (bad_range) err_d = tessel_isa_pkg::ErrFetchRange;
          else if (meets_run) err_d = tessel_isa_pkg::ErrFetchOverlap;
          else if (len_i != 32'd0) state_d = StReq;
        end
      end
      StReq: if (req_ready_i) begin
        state_d = StData;
        cnt_d   = 2'd0;
      end
      StData: if (r_valid_i) begin
        buf_d[64*cnt_q[0] +: 64] = r_data_i;
        cnt_d = cnt_q + 2'd1;
        if (cnt_q[0]) begin
          state_d = StWrite;
          cnt_d   = 2'd0;
        end
      end
      StWrite: begin
        cnt_d = cnt_q + 2'd1;
        if (cnt_q == 2'd3) begin
          addr_d = addr_q + 32'd16;
          row_d  = row_q + CAw'(1);
          left_d = left_q - 32'd1;
          if (left_q == 32'd1 || stop_d) begin
            state_d = StIdle;
            if (left_q != 32'd1) err_d = tessel_isa_pkg::ErrAborted;
          end else begin
            state_d = StReq;
          end
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      addr_q  <= '0;
      row_q   <= '0;
      left_q  <= '0;
      lo_q    <= '0;
      hi_q    <= '0;
      cnt_q   <= '0;
      stop_q  <= 1'b0;
      err_q   <= '0;
    end else begin
      state_q <= state_d;
      addr_q  <= addr_d;
      row_q   <= row_d;
      left_q  <= left_d;
      lo_q    <= lo_d;
      hi_q    <= hi_d;
      cnt_q   <= cnt_d;
      stop_q  <= stop_d;
      err_q   <= err_d;
    end
  end
  always_ff @(posedge clk_i) buf_q <= buf_d;

  assign busy_o      = state_q != StIdle;
  assign err_o       = err_q;
  assign req_valid_o = state_q == StReq;
  assign req_addr_o  = addr_q;
  assign we_o        = state_q == StWrite;
  assign row_o       = row_q;
  assign lane_o      = cnt_q;
  assign wdata_o     = buf_q[32*cnt_q +: 32];
endmodule

`default_nettype wire
