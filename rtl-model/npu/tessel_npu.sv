// tessel_npu: the Tessel NPU (docs/npu-rtl.md). Register window and command
// SRAM on two core-bus ports, a DMA master on the SoC memory port, a level
// interrupt. Inside: the dispatcher (npu_dispatch + npu_check), three queues
// with the token counters between neighbours (npu_queue), the LOAD, EXEC and
// STORE units, the scratchpad, accumulator and parameter memories with their
// port arbitration, the counters, and the stream fetch (npu_fetch), which
// copies command streams from its read-only fetch window in DRAM into the
// command SRAM, during a run or not.
//
// Sharing rules (results never depend on them; docs/isa.md leaves races
// between unsynchronised queues undefined):
//   SPAD  read port A: EXEC taps; port B: EXEC weights, else STORE (waits);
//         write: EXEC (VADD/VPOOL), else STORE, else LOAD (they wait)
//   ACC   read port A: EXEC; port B: STORE; write: EXEC, else LOAD (waits)
//   PARAM read: STORE; write: LOAD
//   DMA   reads: LOAD (id 0) and the fetch (id 2), alternating when both
//         wait; writes (id 1): STORE, or MARK records while every unit is
//         idle; reads and writes alternate when both wait
//   CMD   SRAM core port: the fetch's word writes, else the core (it waits)
`default_nettype none

module tessel_npu (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        reg_req_valid_i,
  output      logic        reg_req_ready_o,
  input  wire logic        reg_req_we_i,
  input  wire logic [3:0]  reg_req_be_i,
  input  wire logic [15:0] reg_req_addr_i,
  input  wire logic [31:0] reg_req_wdata_i,
  output      logic        reg_rsp_valid_o,
  output      logic [31:0] reg_rsp_rdata_o,
  output      logic        reg_rsp_err_o,
  input  wire logic        cmd_req_valid_i,
  output      logic        cmd_req_ready_o,
  input  wire logic        cmd_req_we_i,
  input  wire logic [3:0]  cmd_req_be_i,
  input  wire logic [15:0] cmd_req_addr_i,
  input  wire logic [31:0] cmd_req_wdata_i,
  output      logic        cmd_rsp_valid_o,
  output      logic [31:0] cmd_rsp_rdata_o,
  output      logic        cmd_rsp_err_o,
  output      logic        dma_req_valid_o,
  input  wire logic        dma_req_ready_i,
  output      logic        dma_req_write_o,
  output      logic [31:0] dma_req_addr_o,
  output      logic [7:0]  dma_req_len_o,
  output      logic [3:0]  dma_req_id_o,
  output      logic        dma_w_valid_o,
  input  wire logic        dma_w_ready_i,
  output      logic [63:0] dma_w_data_o,
  output      logic [7:0]  dma_w_strb_o,
  output      logic        dma_w_last_o,
  input  wire logic        dma_r_valid_i,
  output      logic        dma_r_ready_o,
  input  wire logic [63:0] dma_r_data_i,
  // read beats are routed on the id (LOAD 0, fetch 2); errors are not
  // reported by the ISA
  input  wire logic [3:0]  dma_r_id_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic        dma_r_last_i,
  input  wire logic        dma_r_err_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic        dma_b_valid_i,
  output      logic        dma_b_ready_o,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [3:0]  dma_b_id_i,
  input  wire logic        dma_b_err_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output      logic        irq_o,
  // Observation for the simulator's command timeline (tessel-sim
  // --npu-timeline): {STORE, EXEC, LOAD command completed this cycle,
  // STORE, EXEC, LOAD busy, a run in progress}. Nothing reads it on a board.
  output      logic [6:0]  dbg_o
);
  localparam int unsigned Dim  = tessel_target_pkg::Dim;
  localparam int unsigned SAw  = $clog2(tessel_target_pkg::SpadRows);
  localparam int unsigned AAw  = $clog2(tessel_target_pkg::AccRows);
  localparam int unsigned PAw  = $clog2(tessel_target_pkg::ParamRows);
  localparam int unsigned CAw  = $clog2(tessel_target_pkg::CmdSramBytes / 16);
  localparam int unsigned NCnt = tessel_isa_pkg::NumCounters;
  localparam logic [7:0]  TokMax = 8'(tessel_target_pkg::TokenMax);

  // ---- registers and command SRAM -------------------------------------------------
  logic        start, abort, busy, run_end, clear, restart;
  logic [31:0] dram_base, dram_size, stream_base, stream_len;
  logic [7:0]  err_code;
  logic [31:0] err_index, cur_index, mark_count, mark_kernel;
  logic [NCnt*64-1:0] counters;
  logic [NCnt*32-1:0] cnt_inc;
  logic        fetch, fe_busy, fe_clash;
  logic [31:0] fe_base, fe_size, fe_src, fe_dst, fe_len;
  logic [7:0]  fe_err;

  npu_regs u_regs (
    .clk_i, .rst_ni,
    .req_valid_i   (reg_req_valid_i),
    .req_ready_o   (reg_req_ready_o),
    .req_we_i      (reg_req_we_i),
    .req_be_i      (reg_req_be_i),
    .req_addr_i    (reg_req_addr_i),
    .req_wdata_i   (reg_req_wdata_i),
    .rsp_valid_o   (reg_rsp_valid_o),
    .rsp_rdata_o   (reg_rsp_rdata_o),
    .rsp_err_o     (reg_rsp_err_o),
    .start_o       (start),
    .abort_o       (abort),
    .dram_base_o   (dram_base),
    .dram_size_o   (dram_size),
    .stream_base_o (stream_base),
    .stream_len_o  (stream_len),
    .fetch_o       (fetch),
    .fetch_base_o  (fe_base),
    .fetch_size_o  (fe_size),
    .fetch_src_o   (fe_src),
    .fetch_dst_o   (fe_dst),
    .fetch_len_o   (fe_len),
    .fetch_busy_i  (fe_busy),
    .fetch_err_i   (fe_err),
    .busy_i        (busy),
    .end_i         (run_end),
    .err_code_i    (err_code),
    .err_index_i   (err_index),
    .cur_index_i   (cur_index),
    .mark_count_i  (mark_count),
    .mark_kernel_i (mark_kernel),
    .counters_i    (counters),
    .irq_o         (irq_o)
  );

  // command window: the first CmdSramBytes are the SRAM, the rest a bus error;
  // the fetch's word writes go first, the core waits for them
  logic          cmd_in_range, crsp_valid_q, crsp_err_q, cmd_take;
  logic          d_re;
  logic [CAw-1:0] d_row;
  tessel_isa_pkg::cmd_t d_rdata;
  logic          fe_we;
  logic [CAw-1:0] fe_row;
  logic [1:0]    fe_lane;
  logic [31:0]   fe_wdata;
  assign cmd_in_range    = 32'(cmd_req_addr_i) < tessel_target_pkg::CmdSramBytes;
  assign cmd_req_ready_o = !fe_we;
  assign cmd_take        = cmd_req_valid_i && !fe_we;
  npu_cmd_sram u_cmd (
    .clk_i,
    .c_en_i    (fe_we || (cmd_take && cmd_in_range)),
    .c_we_i    (fe_we || cmd_req_we_i),
    .c_row_i   (fe_we ? fe_row : cmd_req_addr_i[CAw+3:4]),
    .c_lane_i  (fe_we ? fe_lane : cmd_req_addr_i[3:2]),
    .c_be_i    (fe_we ? 4'hF : cmd_req_be_i),
    .c_wdata_i (fe_we ? fe_wdata : cmd_req_wdata_i),
    .c_rdata_o (cmd_rsp_rdata_o),
    .d_re_i    (d_re),
    .d_row_i   (d_row),
    .d_rdata_o (d_rdata)
  );
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      crsp_valid_q <= 1'b0;
      crsp_err_q   <= 1'b0;
    end else begin
      crsp_valid_q <= cmd_take;
      crsp_err_q   <= cmd_take && !cmd_in_range;
    end
  end
  assign cmd_rsp_valid_o = crsp_valid_q;
  assign cmd_rsp_err_o   = crsp_err_q;

  // ---- dispatcher and queues ----------------------------------------------------------
  logic [2:0]   enq, qfull, qidle, qblocked, qdone;
  logic [225:0] enq_data;
  logic [47:0]  qbidx;
  logic         flush, stall_queue, stall_mark, mark_active;
  logic         mk_req_valid, mk_w_valid;
  logic [31:0]  mk_req_addr;
  logic [63:0]  mk_w_data;
  logic [7:0]   mk_w_strb;
  logic         wr_req_ready, w_ready_mk, b_mk;

  npu_dispatch u_disp (
    .clk_i, .rst_ni,
    .start_i         (start),
    .abort_i         (abort),
    .stream_base_i   (stream_base),
    .stream_len_i    (stream_len),
    .fetch_clash_i   (fe_clash),
    .dram_base_i     (dram_base),
    .dram_size_i     (dram_size),
    .busy_o          (busy),
    .end_o           (run_end),
    .err_code_o      (err_code),
    .err_index_o     (err_index),
    .cur_index_o     (cur_index),
    .mark_count_o    (mark_count),
    .mark_kernel_o   (mark_kernel),
    .clear_o         (clear),
    .restart_o       (restart),
    .cmd_re_o        (d_re),
    .cmd_addr_o      (d_row),
    .cmd_rdata_i     (d_rdata),
    .enq_o           (enq),
    .enq_data_o      (enq_data),
    .full_i          (qfull),
    .idle_i          (qidle),
    .blocked_i       (qblocked),
    .blocked_index_i (qbidx),
    .flush_o         (flush),
    .counters_i      (counters),
    .stall_queue_o   (stall_queue),
    .stall_mark_o    (stall_mark),
    .mark_active_o   (mark_active),
    .dma_req_valid_o (mk_req_valid),
    .dma_req_ready_i (mark_active && wr_req_ready),
    .dma_req_addr_o  (mk_req_addr),
    .dma_w_valid_o   (mk_w_valid),
    .dma_w_ready_i   (w_ready_mk),
    .dma_w_data_o    (mk_w_data),
    .dma_w_strb_o    (mk_w_strb),
    .dma_b_valid_i   (b_mk)
  );

  // token counters: LOAD->EXEC, EXEC->LOAD, EXEC->STORE, STORE->EXEC
  logic [7:0] tok_le_q, tok_el_q, tok_es_q, tok_se_q;
  logic [7:0] tok_le_d, tok_el_d, tok_es_d, tok_se_d;
  // per queue: pop_prev, pop_next, push_prev, push_next
  logic [3:0] q_ops [3];

  logic [2:0]   u_valid, u_ready, u_done;
  tessel_isa_pkg::cmd_t q_cmd [3];
  logic [81:0]  q_side [3];
  logic [3:0]   q_ok [3];
  always_comb begin
    // {push_next_ok, push_prev_ok, pop_next_ok, pop_prev_ok}
    q_ok[0] = {tok_le_q < TokMax, 1'b0, tok_el_q != 8'd0, 1'b0};
    q_ok[1] = {tok_es_q < TokMax, tok_el_q < TokMax, tok_se_q != 8'd0, tok_le_q != 8'd0};
    q_ok[2] = {1'b0, tok_se_q < TokMax, 1'b0, tok_es_q != 8'd0};
  end

  for (genvar q = 0; q < 3; q++) begin : g_queue
    npu_queue u_q (
      .clk_i, .rst_ni,
      .flush_i         (flush || clear),
      .enq_i           (enq[q]),
      .enq_data_i      (enq_data),
      .full_o          (qfull[q]),
      .cmd_valid_o     (u_valid[q]),
      .cmd_ready_i     (u_ready[q]),
      .cmd_o           (q_cmd[q]),
      .side_o          (q_side[q]),
      .unit_done_i     (u_done[q]),
      .pop_prev_ok_i   (q_ok[q][0]),
      .pop_next_ok_i   (q_ok[q][1]),
      .push_prev_ok_i  (q_ok[q][2]),
      .push_next_ok_i  (q_ok[q][3]),
      .pop_prev_o      (q_ops[q][0]),
      .pop_next_o      (q_ops[q][1]),
      .push_prev_o     (q_ops[q][2]),
      .push_next_o     (q_ops[q][3]),
      .idle_o          (qidle[q]),
      .blocked_o       (qblocked[q]),
      .blocked_index_o (qbidx[q*16 +: 16]),
      .cmd_done_o      (qdone[q])
    );
  end

  always_comb begin
    tok_le_d = tok_le_q + 8'(q_ops[0][3]) - 8'(q_ops[1][0]);
    tok_el_d = tok_el_q + 8'(q_ops[1][2]) - 8'(q_ops[0][1]);
    tok_es_d = tok_es_q + 8'(q_ops[1][3]) - 8'(q_ops[2][0]);
    tok_se_d = tok_se_q + 8'(q_ops[2][2]) - 8'(q_ops[1][1]);
    if (clear || restart) begin
      tok_le_d = '0;
      tok_el_d = '0;
      tok_es_d = '0;
      tok_se_d = '0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      tok_le_q <= '0;
      tok_el_q <= '0;
      tok_es_q <= '0;
      tok_se_q <= '0;
    end else begin
      tok_le_q <= tok_le_d;
      tok_el_q <= tok_el_d;
      tok_es_q <= tok_es_d;
      tok_se_q <= tok_se_d;
    end
  end

  // ---- memories ----------------------------------------------------------------------
  logic              sa_re, sb_re, st_sre, sw_we;
  logic [SAw-1:0]    sa_addr, sb_addr, st_saddr, sw_addr;
  logic [Dim*8-1:0]  sa_rdata, sb_rdata, sw_wdata;
  localparam int unsigned Pl = tessel_target_pkg::PreloadRowsPerCycle;
  logic [Pl*Dim*8-1:0] sb_rows;                    // port B: rows sb_addr .. +Pl-1 (EXEC's preload)
  assign sb_rdata = sb_rows[Dim*8-1:0];
  logic              ea_re, aw_we, st_are;
  logic [AAw-1:0]    ea_addr, aw_addr, st_aaddr;
  logic [Dim*32-1:0] ea_rdata, st_ardata, aw_wdata;
  logic              st_pre, pw_we;
  logic [PAw-1:0]    st_paddr, pw_addr;
  logic [Dim*72-1:0] p_rdata, pw_wdata;

  // unit-side signals
  logic              ex_bre, ex_awe;
  logic [SAw-1:0]    ex_baddr;
  logic [AAw-1:0]    ex_awaddr;
  logic [Dim*32-1:0] ex_awdata;
  logic              st_swe, ld_swe, ld_awe, ex_swe;
  logic [SAw-1:0]    ex_swaddr;
  logic [Dim*8-1:0]  ex_swdata;
  logic [15:0]       ex_spad_wr;
  logic [SAw-1:0]    st_swaddr, ld_swaddr;
  logic [Dim*8-1:0]  st_swdata, ld_swdata;
  logic [AAw-1:0]    ld_awaddr;
  logic [Dim*32-1:0] ld_awdata;

  always_comb begin
    sb_re    = ex_bre || st_sre;
    sb_addr  = ex_bre ? ex_baddr : st_saddr;
    sw_we    = ex_swe || st_swe || ld_swe;
    sw_addr  = ex_swe ? ex_swaddr : st_swe ? st_swaddr : ld_swaddr;
    sw_wdata = ex_swe ? ex_swdata : st_swe ? st_swdata : ld_swdata;
    aw_we    = ex_awe || ld_awe;
    aw_addr  = ex_awe ? ex_awaddr : ld_awaddr;
    aw_wdata = '0;                             // only looked at with aw_we
    if (ex_awe) aw_wdata = ex_awdata;
    else if (ld_awe) aw_wdata = ld_awdata;
  end

  npu_spad #(.Dim(Dim), .Depth(tessel_target_pkg::SpadRows), .Ways(Pl)) u_spad (
    .clk_i,
    .a_re_i (sa_re), .a_addr_i (sa_addr), .a_rdata_o (sa_rdata),
    .b_re_i (sb_re), .b_addr_i (sb_addr), .b_rdata_o (sb_rows),
    .we_i (sw_we), .waddr_i (sw_addr), .wdata_i (sw_wdata)
  );
  npu_sram #(.Width(Dim*32), .Depth(tessel_target_pkg::AccRows)) u_acc (
    .clk_i,
    .a_re_i (ea_re), .a_addr_i (ea_addr), .a_rdata_o (ea_rdata),
    .b_re_i (st_are), .b_addr_i (st_aaddr), .b_rdata_o (st_ardata),
    .we_i (aw_we), .waddr_i (aw_addr), .wdata_i (aw_wdata)
  );
  /* verilator lint_off PINCONNECTEMPTY */
  npu_sram #(.Width(Dim*72), .Depth(tessel_target_pkg::ParamRows), .ReadB(1'b0)) u_param (
    .clk_i,
    .a_re_i (st_pre), .a_addr_i (st_paddr), .a_rdata_o (p_rdata),
    .b_re_i (1'b0), .b_addr_i ('0), .b_rdata_o (),
    .we_i (pw_we), .waddr_i (pw_addr), .wdata_i (pw_wdata)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- units ----------------------------------------------------------------------------
  logic        ld_req_valid, ld_req_ready, st_req_valid, st_w_valid;
  logic [31:0] ld_req_addr, st_req_addr;
  logic [7:0]  ld_req_len, st_req_len;
  logic        st_w_last;
  logic [63:0] st_w_data;
  logic [7:0]  st_w_strb;
  logic        w_ready_st, b_st, st_req_ready;
  logic        ld_busy, ld_stall, ex_busy, ex_stall, st_busy, st_stall, st_src_acc;
  logic [15:0] ld_dram_rd, ld_spad_wr, ld_acc_wr;
  logic [15:0] ex_macs, ex_spad_rd, ex_acc_rd, ex_acc_wr;
  logic [15:0] st_src_rd;
  logic [15:0] st_spad_wr, st_dram_wr;

  npu_load u_load (
    .clk_i, .rst_ni,
    .cmd_valid_i     (u_valid[0]),
    .cmd_ready_o     (u_ready[0]),
    .cmd_i           (q_cmd[0]),
    .done_o          (u_done[0]),
    .clr_i           (clear || restart),
    .dram_base_i     (dram_base),
    .dma_req_valid_o (ld_req_valid),
    .dma_req_ready_i (ld_req_ready),
    .dma_req_addr_o  (ld_req_addr),
    .dma_req_len_o   (ld_req_len),
    .dma_r_valid_i   (dma_r_valid_i && !fe_beat),
    .dma_r_ready_o   (ld_r_ready),
    .dma_r_data_i    (dma_r_data_i),
    .spad_we_o       (ld_swe),
    .spad_gnt_i      (!st_swe && !ex_swe),
    .spad_waddr_o    (ld_swaddr),
    .spad_wdata_o    (ld_swdata),
    .acc_we_o        (ld_awe),
    .acc_gnt_i       (!ex_awe),
    .acc_waddr_o     (ld_awaddr),
    .acc_wdata_o     (ld_awdata),
    .param_we_o      (pw_we),
    .param_waddr_o   (pw_addr),
    .param_wdata_o   (pw_wdata),
    .busy_o          (ld_busy),
    .stall_dram_o    (ld_stall),
    .dram_rd_bytes_o (ld_dram_rd),
    .spad_wr_bytes_o (ld_spad_wr),
    .acc_wr_bytes_o  (ld_acc_wr)
  );

  npu_exec u_exec (
    .clk_i, .rst_ni,
    .cmd_valid_i     (u_valid[1]),
    .cmd_ready_o     (u_ready[1]),
    .cmd_i           (q_cmd[1]),
    .cmd_side_i      (q_side[1]),
    .done_o          (u_done[1]),
    .clr_i           (clear || restart),
    .spad_a_re_o     (sa_re),
    .spad_a_addr_o   (sa_addr),
    .spad_a_rdata_i  (sa_rdata),
    .spad_b_re_o     (ex_bre),
    .spad_b_addr_o   (ex_baddr),
    .spad_b_rdata_i  (sb_rows),
    .spad_we_o       (ex_swe),
    .spad_waddr_o    (ex_swaddr),
    .spad_wdata_o    (ex_swdata),
    .spad_wr_bytes_o (ex_spad_wr),
    .acc_re_o        (ea_re),
    .acc_raddr_o     (ea_addr),
    .acc_rdata_i     (ea_rdata),
    .acc_we_o        (ex_awe),
    .acc_waddr_o     (ex_awaddr),
    .acc_wdata_o     (ex_awdata),
    .busy_o          (ex_busy),
    .stall_preload_o (ex_stall),
    .macs_o          (ex_macs),
    .spad_rd_bytes_o (ex_spad_rd),
    .acc_rd_bytes_o  (ex_acc_rd),
    .acc_wr_bytes_o  (ex_acc_wr)
  );

  npu_store u_store (
    .clk_i, .rst_ni,
    .cmd_valid_i     (u_valid[2]),
    .cmd_ready_o     (u_ready[2]),
    .cmd_i           (q_cmd[2]),
    .done_o          (u_done[2]),
    .clr_i           (clear || restart),
    .dram_base_i     (dram_base),
    .acc_re_o        (st_are),
    .acc_addr_o      (st_aaddr),
    .acc_rdata_i     (st_ardata),
    .spad_re_o       (st_sre),
    .spad_rgnt_i     (!ex_bre),
    .spad_addr_o     (st_saddr),
    .spad_rdata_i    (sb_rdata),
    .param_re_o      (st_pre),
    .param_addr_o    (st_paddr),
    .param_rdata_i   (p_rdata),
    .spad_we_o       (st_swe),
    .spad_wgnt_i     (!ex_swe),
    .spad_waddr_o    (st_swaddr),
    .spad_wdata_o    (st_swdata),
    .dma_req_valid_o (st_req_valid),
    .dma_req_ready_i (st_req_ready),
    .dma_req_addr_o  (st_req_addr),
    .dma_req_len_o   (st_req_len),
    .dma_w_valid_o   (st_w_valid),
    .dma_w_ready_i   (w_ready_st),
    .dma_w_data_o    (st_w_data),
    .dma_w_strb_o    (st_w_strb),
    .dma_w_last_o    (st_w_last),
    .dma_b_valid_i   (b_st),
    .busy_o          (st_busy),
    .stall_dram_o    (st_stall),
    .src_rd_bytes_o  (st_src_rd),
    .src_is_acc_o    (st_src_acc),
    .spad_wr_bytes_o (st_spad_wr),
    .dram_wr_bytes_o (st_dram_wr)
  );

  // ---- stream fetch ------------------------------------------------------------------------
  logic        fe_req_valid, fe_req_ready, fe_beat, ld_r_ready;
  logic [31:0] fe_req_addr;
  assign fe_beat = dma_r_valid_i && dma_r_id_i == 4'd2;

  npu_fetch u_fetch (
    .clk_i, .rst_ni,
    .start_i     (fetch),
    .abort_i     (abort),
    .win_base_i  (fe_base),
    .win_size_i  (fe_size),
    .src_i       (fe_src),
    .dst_i       (fe_dst),
    .len_i       (fe_len),
    .run_busy_i  (busy),
    .run_base_i  (stream_base),
    .run_len_i   (stream_len),
    .clash_o     (fe_clash),
    .busy_o      (fe_busy),
    .err_o       (fe_err),
    .req_valid_o (fe_req_valid),
    .req_ready_i (fe_req_ready),
    .req_addr_o  (fe_req_addr),
    .r_valid_i   (fe_beat),
    .r_data_i    (dma_r_data_i),
    .we_o        (fe_we),
    .row_o       (fe_row),
    .lane_o      (fe_lane),
    .wdata_o     (fe_wdata)
  );

  // ---- DMA port ----------------------------------------------------------------------------
  // the write side is the STORE unit, or the dispatcher's MARK record writer
  logic        wr_req_valid;
  logic [31:0] wr_req_addr;
  logic        pick_wr, lock_d, lock_q, lock_wr_d, lock_wr_q, last_wr_d, last_wr_q;
  logic        rd_req_valid, pick_fe, lock_fe_d, lock_fe_q, last_fe_d, last_fe_q;
  // Three blocks, so the request side (valid, address) does not depend on the
  // port's ready: in one block Verilator sees a loop through the SoC's arbiter
  // (UNOPTFLAT) and evaluates it all again each time ready changes.
  always_comb begin
    wr_req_valid = mark_active ? mk_req_valid : st_req_valid;
    wr_req_addr  = mark_active ? mk_req_addr : st_req_addr;
    // a request shown and not taken stays (port rule 2); else alternate,
    // between the two readers, then between reads and writes
    if (lock_q) pick_fe = lock_fe_q;
    else if (ld_req_valid && fe_req_valid) pick_fe = !last_fe_q;
    else pick_fe = fe_req_valid;
    rd_req_valid = pick_fe ? fe_req_valid : ld_req_valid;
    if (lock_q) pick_wr = lock_wr_q;
    else if (rd_req_valid && wr_req_valid) pick_wr = !last_wr_q;
    else pick_wr = wr_req_valid;
    dma_req_valid_o = pick_wr ? wr_req_valid : rd_req_valid;
    dma_req_write_o = pick_wr;
    dma_req_addr_o  = pick_wr ? wr_req_addr : pick_fe ? fe_req_addr : ld_req_addr;
    dma_req_len_o   = pick_wr ? (mark_active ? 8'd0 : st_req_len) : pick_fe ? 8'd1 : ld_req_len;
    dma_req_id_o    = pick_wr ? 4'd1 : pick_fe ? 4'd2 : 4'd0;
    lock_wr_d       = pick_wr;
    lock_fe_d       = pick_fe;
  end
  // what the port's ready decides
  always_comb begin
    ld_req_ready = !pick_wr && !pick_fe && dma_req_ready_i;
    fe_req_ready = !pick_wr && pick_fe && dma_req_ready_i;
    wr_req_ready = pick_wr && dma_req_ready_i;
    st_req_ready = wr_req_ready && !mark_active;
    lock_d       = dma_req_valid_o && !dma_req_ready_i;
    last_wr_d    = (dma_req_valid_o && dma_req_ready_i) ? pick_wr : last_wr_q;
    last_fe_d    = (dma_req_valid_o && dma_req_ready_i && !pick_wr) ? pick_fe : last_fe_q;
    dma_r_ready_o = fe_beat || ld_r_ready;   // the fetch takes every beat of its id
  end
  // write data and write responses
  always_comb begin
    dma_w_valid_o = mark_active ? mk_w_valid : st_w_valid;
    dma_w_data_o  = mark_active ? mk_w_data : st_w_data;
    dma_w_strb_o  = mark_active ? mk_w_strb : st_w_strb;
    dma_w_last_o  = mark_active ? 1'b1 : st_w_last;   // MARK records: single beats
    w_ready_mk    = mark_active && dma_w_ready_i;
    w_ready_st    = !mark_active && dma_w_ready_i;
    dma_b_ready_o = 1'b1;
    b_mk          = mark_active && dma_b_valid_i;
    b_st          = !mark_active && dma_b_valid_i;
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      lock_q    <= 1'b0;
      lock_wr_q <= 1'b0;
      last_wr_q <= 1'b0;
      lock_fe_q <= 1'b0;
      last_fe_q <= 1'b0;
    end else begin
      lock_q    <= lock_d;
      lock_wr_q <= lock_wr_d;
      last_wr_q <= last_wr_d;
      lock_fe_q <= lock_fe_d;
      last_fe_q <= last_fe_d;
    end
  end

  // ---- counters ----------------------------------------------------------------------------
  // Every unit works only during a run (the dispatcher ends it when all are
  // idle), so every increment is zero outside it: built only while busy.
  always_comb begin
    cnt_inc = '0;
    if (busy) begin
      cnt_inc[tessel_isa_pkg::CntCycles*32 +: 32]          = 32'd1;
      cnt_inc[tessel_isa_pkg::CntLoadBusy*32 +: 32]        = 32'(ld_busy);
      cnt_inc[tessel_isa_pkg::CntLoadStallDram*32 +: 32]   = 32'(ld_stall);
      cnt_inc[tessel_isa_pkg::CntLoadStallToken*32 +: 32]  = 32'(qblocked[0]);
      cnt_inc[tessel_isa_pkg::CntExecBusy*32 +: 32]        = 32'(ex_busy);
      cnt_inc[tessel_isa_pkg::CntExecStallPreload*32 +: 32] = 32'(ex_stall);
      cnt_inc[tessel_isa_pkg::CntExecStallToken*32 +: 32]  = 32'(qblocked[1]);
      cnt_inc[tessel_isa_pkg::CntStoreBusy*32 +: 32]       = 32'(st_busy);
      cnt_inc[tessel_isa_pkg::CntStoreStallDram*32 +: 32]  = 32'(st_stall);
      cnt_inc[tessel_isa_pkg::CntStoreStallToken*32 +: 32] = 32'(qblocked[2]);
      cnt_inc[tessel_isa_pkg::CntFrontStallQueue*32 +: 32] = 32'(stall_queue);
      cnt_inc[tessel_isa_pkg::CntFrontStallMark*32 +: 32]  = 32'(stall_mark);
      cnt_inc[tessel_isa_pkg::CntMacs*32 +: 32]        = 32'(ex_macs);
      cnt_inc[tessel_isa_pkg::CntSpadRdBytes*32 +: 32] = 32'(ex_spad_rd) + (st_src_acc ? 32'd0 : 32'(st_src_rd));
      cnt_inc[tessel_isa_pkg::CntSpadWrBytes*32 +: 32] = 32'(ld_spad_wr) + 32'(st_spad_wr) + 32'(ex_spad_wr);
      cnt_inc[tessel_isa_pkg::CntAccRdBytes*32 +: 32]  = 32'(ex_acc_rd) + (st_src_acc ? 32'(st_src_rd) : 32'd0);
      cnt_inc[tessel_isa_pkg::CntAccWrBytes*32 +: 32]  = 32'(ex_acc_wr) + 32'(ld_acc_wr);
      cnt_inc[tessel_isa_pkg::CntDramRdBytes*32 +: 32] = 32'(ld_dram_rd);
      cnt_inc[tessel_isa_pkg::CntDramWrBytes*32 +: 32] = 32'(st_dram_wr);
      cnt_inc[tessel_isa_pkg::CntLoadCmds*32 +: 32]    = 32'(qdone[0]);
      cnt_inc[tessel_isa_pkg::CntExecCmds*32 +: 32]    = 32'(qdone[1]);
      cnt_inc[tessel_isa_pkg::CntStoreCmds*32 +: 32]   = 32'(qdone[2]);
    end
  end

  assign dbg_o = {qdone[2], qdone[1], qdone[0], st_busy, ex_busy, ld_busy, busy};

  npu_counters u_cnt (
    .clk_i, .rst_ni,
    .clr_i (clear),
    .en_i  (busy),
    .inc_i (cnt_inc),
    .cnt_o (counters)
  );
endmodule

`default_nettype wire
