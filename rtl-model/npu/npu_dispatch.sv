// npu_dispatch: the dispatcher (FRONT, docs/isa.md sections 2, 5, 7).
// On START it checks STREAM_BASE/STREAM_LEN (and that the stream does not
// overlap the destination of a fetch in flight: npu_fetch), then per command: closes or
// repeats finished loop levels, fetches the command from the command SRAM,
// runs NOP/LOOP/LSTRIDE/MARK itself, checks every other command (npu_check,
// with the slot offsets of the open loop levels and the configuration
// registers as earlier commands set them) and appends it to its queue,
// waiting while the queue is full. A MARK waits until every queue is idle,
// then counts, snapshots the counters and optionally writes its record to
// DRAM (single-beat writes with strobes). The first failing check, a token
// deadlock or CTRL.ABORT ends the run: the queues are flushed and the run ends
// once the units have finished what they were executing.
// A command takes two cycles here (fetch, check) plus its queue's wait.
`default_nettype none

module npu_dispatch #(
  parameter int unsigned CmdSramBytes = tessel_target_pkg::CmdSramBytes,
  parameter int unsigned LoopDepth    = tessel_target_pkg::LoopDepth,
  parameter int unsigned CounterBits  = tessel_target_pkg::CounterBits,
  localparam int unsigned NCnt = tessel_isa_pkg::NumCounters,
  localparam int unsigned CAw  = $clog2(CmdSramBytes / 16)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  // control and registers
  input  wire logic              start_i,
  input  wire logic              abort_i,
  input  wire logic [31:0]       stream_base_i,
  input  wire logic [31:0]       stream_len_i,
  input  wire logic              fetch_clash_i,  // the stream overlaps a fetch in flight
  input  wire logic [31:0]       dram_base_i,
  input  wire logic [31:0]       dram_size_i,
  output      logic              busy_o,
  output      logic              end_o,          // pulse: the run ended (err_code_o says how)
  output      logic [7:0]        err_code_o,
  output      logic [31:0]       err_index_o,
  output      logic [31:0]       cur_index_o,
  output      logic [31:0]       mark_count_o,
  output      logic [31:0]       mark_kernel_o,
  output      logic              clear_o,        // pulse at START: counters, tokens, unit configs
  output      logic              restart_o,      // pulse at a MARK with reset: tokens, unit configs
  // command SRAM read port (data one cycle later)
  output      logic              cmd_re_o,
  output      logic [CAw-1:0]    cmd_addr_o,
  input  wire tessel_isa_pkg::cmd_t cmd_rdata_i,
  // queues: index 0 LOAD, 1 EXEC, 2 STORE
  output      logic [2:0]        enq_o,
  output      logic [225:0]      enq_data_o,
  input  wire logic [2:0]        full_i,
  input  wire logic [2:0]        idle_i,
  input  wire logic [2:0]        blocked_i,
  input  wire logic [47:0]       blocked_index_i,
  output      logic              flush_o,
  // counters (for MARK records) and front stall events
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [NCnt*64-1:0] counters_i,     // bits above CounterBits of each are 0
  /* verilator lint_on UNUSEDSIGNAL */
  output      logic              stall_queue_o,
  output      logic              stall_mark_o,
  // MARK record writes (the port is free: every unit is idle)
  output      logic              mark_active_o,
  output      logic              dma_req_valid_o,
  input  wire logic              dma_req_ready_i,
  output      logic [31:0]       dma_req_addr_o,
  output      logic              dma_w_valid_o,
  input  wire logic              dma_w_ready_i,
  output      logic [63:0]       dma_w_data_o,
  output      logic [7:0]        dma_w_strb_o,
  input  wire logic              dma_b_valid_i
);
  typedef logic signed [63:0] s64_t;
  localparam int unsigned RecBytes = tessel_isa_pkg::MarkRecordBytes;
  localparam int unsigned RecWords = RecBytes / 8;          // kernel, MARK_COUNT, counters

  typedef enum logic [3:0] {
    StIdle, StAdvance, StFetch, StCheck, StEnq, StMarkWait, StMarkWrite, StMarkB, StDrain, StErrDrain
  } state_e;
  state_e state_d, state_q;

  // ---- run state ----------------------------------------------------------------
  logic [15:0] pc_d, pc_q;
  logic [7:0]  err_d, err_q;
  logic [31:0] eidx_d, eidx_q;
  logic [31:0] mcount_d, mcount_q, mkernel_d, mkernel_q;
  tessel_isa_pkg::cmd_t w_q, w_d;
  logic        w_we;
  logic [1:0]  qsel_d, qsel_q;
  logic [225:0] ent_d, ent_q;
  logic        ent_we;
  logic        ls_d, ls_q;                          // an LSTRIDE waits for its LOOP
  logic [15:0] ls_idx_d, ls_idx_q;
  logic signed [31:0] ls_g_d, ls_g_q;               // LSTRIDE's strides of slots G, H
  logic signed [15:0] ls_h_d, ls_h_q;
  tessel_isa_pkg::cmd_t cfg_q [5];                          // CFG_LOAD, CFG_EXEC, CFG_VEC, CFG_STORE, CFG_EPI
  logic [4:0]   cfg_we;                             // written with cfg_d (START clears all five)
  tessel_isa_pkg::cmd_t cfg_d;
  logic        dl_d, dl_q;                          // deadlock condition seen last cycle

  // ---- loop stack ---------------------------------------------------------------
  localparam int unsigned Lw = $clog2(LoopDepth + 1);    // depth 0..LoopDepth
  localparam int unsigned Li = (LoopDepth > 1) ? $clog2(LoopDepth) : 1;  // level index
  localparam int unsigned LoopSlots = 1 << Li;
  logic [Lw-1:0] depth_d, depth_q;
  // Levels are written with enables (a LOOP opens one, an iteration bumps its
  // count), not copied every cycle: the stack is most of the dispatcher's state.
  logic [15:0] lstart_q [LoopSlots];
  logic [15:0] lend_q [LoopSlots];
  logic [15:0] lcount_q [LoopSlots];
  logic [15:0] liter_q [LoopSlots];
  // Read as 64-bit values; stored (g_slot below) at the widths they can reach.
  s64_t        lstride_q [LoopSlots][8];
  s64_t        lsaved_q [LoopSlots][8];
  logic        lpush;                               // a LOOP opens level depth_q
  logic [15:0] lpush_start, lpush_end, lpush_count;
  s64_t        lpush_stride [8];
  s64_t        lpush_saved [8];
  logic        liter_we;                            // level liter_lvl's iteration := liter_d
  logic [Li-1:0] liter_lvl;
  logic [15:0] liter_d;
  s64_t        off_d [8];
  s64_t        off_q [8];

  // ---- MARK record writer -------------------------------------------------------------
  // While the record is written every unit is idle and nothing is enqueued,
  // so only CYCLES moves, and FRONT_STALL_MARK took the MARK's last waiting
  // cycle after the snapshot: those two are snapshot, the others read live.
  // Beats go out in order; beat b is record word b shifted by the record's
  // byte offset, its low bytes from word b-1 (kept in rprev_q), so no wide
  // shifter or second word multiplexer is needed.
  logic [63:0] snap_cyc_q, snap_fsm_q;
  // the counters with their constant-zero bits (above CounterBits) visible
  logic [NCnt*64-1:0] cntv;
  always_comb begin
    for (int i = 0; i < NCnt; i++) cntv[i*64 +: 64] = 64'(counters_i[i*64 +: CounterBits]);
  end
  logic [63:0] rprev_d, rprev_q;
  logic        snap_we;
  logic [2:0]  roff_d, roff_q;                      // the record's offset in its first beat
  logic [31:0] rbase_d, rbase_q;
  logic [4:0]  rbeat_d, rbeat_q, rnb_d, rnb_q;
  logic        rreq_d, rreq_q, rw_d, rw_q;
  logic [5:0]  routst_d, routst_q;

  // ---- the checker on the fetched command ----------------------------------------
  logic [7:0]   chk_err;
  tessel_isa_pkg::cmd_t chk_eff;
  logic [81:0]  chk_side;
  logic [8*64-1:0] off_flat;
  always_comb begin
    off_flat = '0;
    if (state_q == StCheck) for (int k = 0; k < 8; k++) off_flat[k*64 +: 64] = off_q[k];
  end
  npu_check #(.LoopDepth(LoopDepth)) u_check (
    .cmd_i       (w_q),
    .off_i       (off_flat),
    .cfg_load_i  (cfg_q[0]),
    .cfg_exec_i  (cfg_q[1]),
    .cfg_vec_i   (cfg_q[2]),
    .cfg_store_i (cfg_q[3]),
    .cfg_epi_i   (cfg_q[4]),
    .dram_size_i (dram_size_i),
    .en_i        (state_q == StCheck),
    .err_o       (chk_err),
    .eff_o       (chk_eff),
    .side_o      (chk_side)
  );

  logic [7:0]  op;
  logic [Lw-1:0] top;
  logic [15:0] body_end, limit;
  s64_t        mark_dram;
  logic        all_idle, any_blocked, abort_now;
  logic [15:0] dl_index;
  always_comb begin
    op        = w_q[7:0];
    top       = depth_q - Lw'(1);
    body_end  = pc_q + 16'd1 + 16'(w_q[31:24]);
    limit     = (depth_q != '0) ? lend_q[Li'(top)] : stream_len_i[15:0];
    mark_dram = 64'(w_q[63:32]) + off_q[0];
    all_idle  = &idle_i;
    any_blocked = |blocked_i;
    // ERR_INDEX of a deadlock: the first unit (LOAD, EXEC, STORE) that is not idle
    dl_index  = !idle_i[0] ? blocked_index_i[15:0] : !idle_i[1] ? blocked_index_i[31:16] : blocked_index_i[47:32];
  end

  // The MARK record: kernel, MARK_COUNT, then every counter, all 64-bit LE;
  // word i of it (0 past the end).
  function automatic logic [63:0] rec_word(logic [NCnt*64-1:0] c, logic [63:0] cyc, logic [63:0] fsm,
                                           logic [31:0] count, logic [15:0] kernel, logic [4:0] i);
    rec_word = '0;
    if (i == 5'd0) rec_word = 64'(kernel);
    else if (i == 5'd1) rec_word = 64'(count);
    else if (32'(i) == 2 + tessel_isa_pkg::CntCycles) rec_word = cyc;
    else if (32'(i) == 2 + tessel_isa_pkg::CntFrontStallMark) rec_word = fsm;
    else if (32'(i) < RecWords) rec_word = c[64*(32'(i) - 2) +: 64];
  endfunction
  logic [63:0]  rcur;                                  // record word rbeat_q
  logic [63:0]  rdata;                                 // beat rbeat_q: {rcur, rprev_q} at roff_q
  always_comb begin
    rcur  = '0;
    rdata = '0;
    if (state_q == StMarkWrite) begin
      rcur  = rec_word(cntv, snap_cyc_q, snap_fsm_q, mcount_q, w_q[23:8], rbeat_q);
      rdata = (rcur << (8 * roff_q)) | ((roff_q == 3'd0) ? 64'd0 : rprev_q >> (64 - 8 * 32'(roff_q)));
    end
  end

  // Data registers change only while the unit works (or takes a command):
  // written with that enable, an idle unit costs the simulator no copies.
  logic act;
  assign act = (state_q != StIdle) || start_i;

  always_comb begin
    state_d   = state_q;
    pc_d      = pc_q;
    err_d     = err_q;
    eidx_d    = eidx_q;
    mcount_d  = mcount_q;
    mkernel_d = mkernel_q;
    w_d       = cmd_rdata_i;
    w_we      = 1'b0;
    ent_d     = '0;
    ent_we    = 1'b0;
    ls_d      = ls_q;
    dl_d      = 1'b0;
    depth_d   = depth_q;
    cfg_we    = '0;
    cfg_d     = w_q;
    lpush       = 1'b0;
    lpush_start = '0;
    lpush_end   = '0;
    lpush_count = '0;
    for (int k = 0; k < 8; k++) begin
      lpush_stride[k] = '0;
      lpush_saved[k]  = '0;
    end
    liter_we  = 1'b0;
    liter_lvl = Li'(top);
    liter_d   = '0;
    snap_we  = 1'b0;
    routst_d = routst_q;
    end_o    = 1'b0;
    clear_o  = 1'b0;
    restart_o = 1'b0;
    cmd_re_o = 1'b0;
    cmd_addr_o = CAw'(stream_base_i[31:4] + 28'(pc_q));
    enq_o      = '0;
    enq_data_o = ent_q;
    flush_o    = 1'b0;
    stall_queue_o = 1'b0;
    stall_mark_o  = 1'b0;
    mark_active_o = 1'b0;
    dma_req_addr_o  = rbase_q + {24'd0, rbeat_q, 3'd0};
    {dma_w_strb_o, dma_w_data_o} = '0;
    // MARK_COUNT was counted when the record was started
    if (state_q == StMarkWrite)
      {dma_w_strb_o, dma_w_data_o} = {((rbeat_q == 5'd0) ? 8'hFF << roff_q : 8'hFF) &
                                      ((32'(rbeat_q) == RecWords) ? ~(8'hFF << roff_q) : 8'hFF),
                                      rdata};
    abort_now = abort_i && state_q != StIdle && state_q != StErrDrain &&
                state_q != StMarkWrite && state_q != StMarkB;
    if (dma_b_valid_i) routst_d = routst_d - 6'd1;

    // Idle with nothing offered: the registers below are not written (act),
    // so the simulator skips the state decode of every split block.
    if (act) begin
      qsel_d    = qsel_q;
      ls_idx_d  = ls_idx_q;
      ls_g_d    = ls_g_q;
      ls_h_d    = ls_h_q;
      for (int k = 0; k < 8; k++) off_d[k] = off_q[k];
      roff_d   = roff_q;
      rbase_d  = rbase_q;
      rbeat_d  = rbeat_q;
      rnb_d    = rnb_q;
      rreq_d   = rreq_q;
      rw_d     = rw_q;
      rprev_d  = rprev_q;

      unique case (state_q)
        StIdle: begin
          if (start_i) begin
            clear_o   = 1'b1;
            pc_d      = '0;
            err_d     = tessel_isa_pkg::ErrNone;
            eidx_d    = '0;
            mcount_d  = '0;
            mkernel_d = '0;
            ls_d      = 1'b0;
            depth_d   = '0;
            cfg_we    = '1;
            cfg_d     = '0;
            for (int k = 0; k < 8; k++) off_d[k] = '0;
            if (stream_base_i[3:0] != 4'd0 ||
                {32'd0, stream_base_i} + {28'd0, stream_len_i, 4'd0} > 64'(CmdSramBytes)) begin
              err_d   = tessel_isa_pkg::ErrStreamRange;
              state_d = StErrDrain;
            end else if (fetch_clash_i) begin
              err_d   = tessel_isa_pkg::ErrFetchOverlap;
              state_d = StErrDrain;
            end else begin
              state_d = StAdvance;
            end
          end
        end

        // close finished loop levels (one per cycle), or fetch the next command
        StAdvance: begin
          if (depth_q != '0 && pc_q == lend_q[Li'(top)]) begin
            if (liter_q[Li'(top)] + 16'd1 < lcount_q[Li'(top)]) begin
              liter_we     = 1'b1;
              liter_d      = liter_q[Li'(top)] + 16'd1;
              pc_d         = lstart_q[Li'(top)];
              for (int k = 0; k < 8; k++) off_d[k] = off_q[k] + lstride_q[Li'(top)][k];
            end else begin
              for (int k = 0; k < 8; k++) off_d[k] = lsaved_q[Li'(top)][k];
              depth_d = top;
            end
          end else if (32'(pc_q) >= stream_len_i) begin
            if (ls_q) begin
              err_d   = tessel_isa_pkg::ErrBadField;
              eidx_d  = 32'(ls_idx_q);
              state_d = StErrDrain;
            end else begin
              state_d = StDrain;
            end
          end else begin
            cmd_re_o = 1'b1;
            state_d  = StFetch;
          end
        end

        StFetch: begin
          w_we    = 1'b1;
          state_d = StCheck;
        end

        StCheck: begin
          state_d = StAdvance;
          if (ls_q && op != tessel_isa_pkg::OpLoop) begin
            err_d   = tessel_isa_pkg::ErrBadField;
            eidx_d  = 32'(ls_idx_q);
            state_d = StErrDrain;
          end else begin
            unique case (op)
              tessel_isa_pkg::OpNop: begin
                if (w_q[127:8] != '0) begin
                  err_d   = tessel_isa_pkg::ErrBadField;
                  state_d = StErrDrain;
                end else pc_d = pc_q + 16'd1;
              end
              tessel_isa_pkg::OpLoop: begin
                if (w_q[23:8] == '0 || w_q[31:24] == '0) begin
                  err_d   = tessel_isa_pkg::ErrBadField;
                  state_d = StErrDrain;
                end else if (body_end > limit || 32'(depth_q) >= LoopDepth) begin
                  err_d   = tessel_isa_pkg::ErrLoop;
                  state_d = StErrDrain;
                end else begin
                  lpush       = 1'b1;
                  lpush_start = pc_q + 16'd1;
                  lpush_end   = body_end;
                  lpush_count = w_q[23:8];
                  liter_we    = 1'b1;
                  liter_lvl   = Li'(depth_q);
                  liter_d     = '0;
                  lpush_stride[0] = 64'($signed(w_q[63:32]));
                  lpush_stride[1] = 64'($signed(w_q[79:64]));
                  lpush_stride[2] = 64'($signed(w_q[95:80]));
                  lpush_stride[3] = 64'($signed(w_q[111:96]));
                  lpush_stride[4] = 64'($signed(w_q[119:112]));
                  lpush_stride[5] = 64'($signed(w_q[127:120]));
                  lpush_stride[6] = ls_q ? 64'(ls_g_q) : 64'sd0;
                  lpush_stride[7] = ls_q ? 64'(ls_h_q) : 64'sd0;
                  for (int k = 0; k < 8; k++) lpush_saved[k] = off_q[k];
                  depth_d = depth_q + Lw'(1);
                  ls_d    = 1'b0;
                  pc_d    = pc_q + 16'd1;
                end
              end
              tessel_isa_pkg::OpLstride: begin
                if (w_q[31:8] != '0 || w_q[127:80] != '0) begin
                  err_d   = tessel_isa_pkg::ErrBadField;
                  state_d = StErrDrain;
                end else begin
                  ls_d     = 1'b1;
                  ls_idx_d = pc_q;
                  ls_g_d   = $signed(w_q[63:32]);
                  ls_h_d   = $signed(w_q[79:64]);
                  pc_d     = pc_q + 16'd1;
                end
              end
              tessel_isa_pkg::OpMark: begin
                if ((w_q & ~tessel_isa_pkg::OpMarkUsed) != '0) begin
                  err_d   = tessel_isa_pkg::ErrBadField;
                  state_d = StErrDrain;
                end else if (w_q[24] && (mark_dram < 0 || mark_dram + 64'(RecBytes) > 64'(dram_size_i))) begin
                  err_d   = tessel_isa_pkg::ErrDramRange;
                  state_d = StErrDrain;
                end else begin
                  state_d = StMarkWait;
                end
              end
              default: begin
                if (chk_err != tessel_isa_pkg::ErrNone) begin
                  err_d   = chk_err;
                  state_d = StErrDrain;
                end else begin
                  unique case (op)
                    tessel_isa_pkg::OpCfgLoad:  cfg_we[0] = 1'b1;
                    tessel_isa_pkg::OpCfgExec:  cfg_we[1] = 1'b1;
                    tessel_isa_pkg::OpCfgVec:   cfg_we[2] = 1'b1;
                    tessel_isa_pkg::OpCfgStore: cfg_we[3] = 1'b1;
                    tessel_isa_pkg::OpCfgEpi:   cfg_we[4] = 1'b1;
                    default: ;
                  endcase
                  qsel_d  = (op[7:4] == 4'h1) ? 2'd0 : (op[7:4] == 4'h2) ? 2'd1 : 2'd2;
                  ent_we  = 1'b1;
                  ent_d   = {pc_q, chk_side, chk_eff};
                  state_d = StEnq;
                end
              end
            endcase
            if (state_d == StErrDrain) eidx_d = 32'(pc_q);
          end
        end

        StEnq: begin
          if (!full_i[qsel_q]) begin
            enq_o[qsel_q] = 1'b1;
            pc_d    = pc_q + 16'd1;
            state_d = StAdvance;
          end else begin
            stall_queue_o = 1'b1;
            dl_d = 1'b1;
          end
        end

        StMarkWait: begin
          stall_mark_o = 1'b1;
          dl_d = 1'b1;
          if (all_idle) begin
            mcount_d  = mcount_q + 32'd1;
            mkernel_d = {16'd0, w_q[23:8]};
            pc_d      = pc_q + 16'd1;
            state_d   = StAdvance;
            if (w_q[25]) begin                  // reset: as START leaves them, counters aside
              restart_o = 1'b1;
              cfg_we    = '1;
              cfg_d     = '0;
            end
            if (w_q[24]) begin
              rbase_d  = dram_base_i + 32'(mark_dram) ;
              snap_we  = 1'b1;
              roff_d   = rbase_d[2:0];
              rbase_d  = {rbase_d[31:3], 3'd0};
              rnb_d    = (dram_base_i[2:0] + mark_dram[2:0] == 3'd0) ? 5'd24 : 5'd25;
              rbeat_d  = '0;
              rreq_d   = 1'b0;
              rw_d     = 1'b0;
              rprev_d  = '0;
              routst_d = '0;
              state_d  = StMarkWrite;
            end
          end
        end

        // one request per beat, request and data offered together
        StMarkWrite: begin
          mark_active_o   = 1'b1;
          rreq_d = rreq_q || dma_req_ready_i;
          rw_d   = rw_q || dma_w_ready_i;
          if (!rreq_q && dma_req_ready_i) routst_d = routst_d + 6'd1;
          if (rreq_d && rw_d) begin
            rreq_d  = 1'b0;
            rw_d    = 1'b0;
            rbeat_d = rbeat_q + 5'd1;
            rprev_d = rcur;
            if (rbeat_q == rnb_q - 5'd1) state_d = StMarkB;
          end
        end
        StMarkB: begin
          mark_active_o = 1'b1;
          if (routst_d == '0) state_d = StAdvance;
        end

        // everything dispatched: the run ends when every queue is idle
        StDrain: begin
          dl_d = 1'b1;
          if (all_idle) begin
            end_o   = 1'b1;
            state_d = StIdle;
          end
        end

        // an error: flush the queues, let running commands finish
        StErrDrain: begin
          flush_o = 1'b1;
          if (all_idle) begin
            end_o   = 1'b1;
            state_d = StIdle;
          end
        end

        default: state_d = StIdle;
      endcase
    end else begin
      qsel_d = '0;
      ls_idx_d = '0;
      ls_g_d = '0;
      ls_h_d = '0;
      for (int k = 0; k < 8; k++) off_d[k] = '0;
      roff_d = '0;
      rbase_d = '0;
      rbeat_d = '0;
      rnb_d = '0;
      rreq_d = '0;
      rw_d = '0;
      rprev_d = '0;
    end

    // deadlock: the dispatcher waits (full queue, MARK, end) and every unit is
    // idle or blocked on a token, at least one blocked, two cycles in a row
    dl_d = dl_d && any_blocked && ((idle_i | blocked_i) == 3'b111);
    if (dl_q && dl_d && state_d != StIdle && state_q != StErrDrain) begin
      err_d   = tessel_isa_pkg::ErrDeadlock;
      eidx_d  = 32'(dl_index);
      state_d = StErrDrain;
    end
    if (abort_now) begin
      err_d   = tessel_isa_pkg::ErrAborted;
      eidx_d  = 32'(pc_q);
      state_d = StErrDrain;
    end
  end

  assign busy_o          = (state_q != StIdle);
  assign dma_req_valid_o = (state_q == StMarkWrite) && !rreq_q;
  assign dma_w_valid_o   = (state_q == StMarkWrite) && !rw_q;
  assign err_code_o    = err_q;
  assign err_index_o   = eidx_q;
  assign cur_index_o   = 32'(pc_q);
  assign mark_count_o  = mcount_q;
  assign mark_kernel_o = mkernel_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      pc_q      <= '0;
      err_q     <= '0;
      eidx_q    <= '0;
      mcount_q  <= '0;
      mkernel_q <= '0;
      ls_q      <= 1'b0;
      depth_q   <= '0;
      dl_q      <= 1'b0;
      routst_q  <= '0;
    end else begin
      state_q   <= state_d;
      pc_q      <= pc_d;
      err_q     <= err_d;
      eidx_q    <= eidx_d;
      mcount_q  <= mcount_d;
      mkernel_q <= mkernel_d;
      ls_q      <= ls_d;
      depth_q   <= depth_d;
      dl_q      <= dl_d;
      routst_q  <= routst_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (act) begin
      qsel_q   <= qsel_d;
      ls_idx_q <= ls_idx_d;
      ls_g_q   <= ls_g_d;
      ls_h_q   <= ls_h_d;
      roff_q   <= roff_d;
      rbase_q  <= rbase_d;
      rbeat_q  <= rbeat_d;
      rnb_q    <= rnb_d;
      rreq_q   <= rreq_d;
      rw_q     <= rw_d;
      rprev_q  <= rprev_d;
    end
    if (w_we) w_q <= w_d;
    if (ent_we) ent_q <= ent_d;
    for (int k = 0; k < 5; k++) if (cfg_we[k]) cfg_q[k] <= cfg_d;
    if (lpush) begin
      lstart_q[Li'(depth_q)] <= lpush_start;
      lend_q[Li'(depth_q)]   <= lpush_end;
      lcount_q[Li'(depth_q)] <= lpush_count;
    end
    if (liter_we) liter_q[liter_lvl] <= liter_d;
    if (snap_we) begin
      snap_cyc_q <= cntv[64*tessel_isa_pkg::CntCycles +: 64];
      snap_fsm_q <= cntv[64*tessel_isa_pkg::CntFrontStallMark +: 64];
    end
  end

  // ---- loop offsets and strides at the widths they can reach --------------------------
  // A slot's offset is the sum over open levels of iteration * stride, with
  // iteration <= 65534 and |stride| <= 2^(SW-1) for an SW-bit stride field:
  // |offset| < LoopDepth * 2^(SW+15), so SW + 16 + clog2(LoopDepth) signed bits
  // hold it exactly and nothing below can wrap (the checks see the same
  // values as with 64 bits). Strides are kept at their field's width.
  localparam int unsigned Ld = (LoopDepth > 1) ? $clog2(LoopDepth) : 0;
  function automatic int unsigned stride_w(int unsigned k);
    unique case (k)
      0, 6:    stride_w = 32;                     // A, G: DRAM bytes
      4, 5:    stride_w = 8;                      // E, F: tap coordinates
      default: stride_w = 16;                     // B, C, D, H: rows
    endcase
  endfunction
  for (genvar k = 0; k < 8; k++) begin : g_slot
    localparam int unsigned SW = stride_w(k);
    localparam int unsigned OW = SW + 16 + Ld;
    logic signed [OW-1:0] off_n_q;
    logic signed [SW-1:0] stride_n_q [LoopSlots];
    logic signed [OW-1:0] saved_n_q [LoopSlots];
    always_ff @(posedge clk_i) begin
      if (act) off_n_q <= OW'(off_d[k]);
      if (lpush) begin
        stride_n_q[Li'(depth_q)] <= SW'(lpush_stride[k]);
        saved_n_q[Li'(depth_q)]  <= OW'(lpush_saved[k]);
      end
    end
    assign off_q[k] = 64'(off_n_q);
    for (genvar l = 0; l < LoopSlots; l++) begin : g_lvl
      assign lstride_q[l][k] = 64'(stride_n_q[l]);
      assign lsaved_q[l][k]  = 64'(saved_n_q[l]);
    end
  end
endmodule

`default_nettype wire
