// npu_store: the STORE unit. Runs one STORE-queue command at a time (checked
// and loop-adjusted by the dispatcher; tokens handled outside):
//   CFG_STORE, CFG_EPI  latch the source pitch / destination strides and the
//                       epilogue (zero point, clamp, max pooling)
//   STORE               per output pixel: every pooling tap's source row (one
//                       per cycle) through the epilogue (RequantLanes
//                       npu_requant, all DIM lanes at once when it is 0 or
//                       DIM, else a group of lanes per cycle, the row read
//                       again for each group),
//                       max-reduced, then written to SPAD (one row) or to DRAM
//                       (one burst per pixel with byte strobes, two when it
//                       crosses 4 KiB; several in flight)
// The PARAM row is read once, before the pixels; ACC_RD/SPAD_RD count every
// source row read (a row in two pooling windows is read twice). Without
// pooling the next pixel's source row is
// read while this pixel is output (to DRAM, and from ACC to SPAD: from
// StOut; SPAD to SPAD: in StWait, after the write), so a pixel takes StOut
// and StWait only (and StFinish, SPAD to SPAD).
`default_nettype none

module npu_store #(
  parameter int unsigned Dim       = tessel_target_pkg::Dim,
  parameter int unsigned SpadRows  = tessel_target_pkg::SpadRows,
  parameter int unsigned AccRows   = tessel_target_pkg::AccRows,
  parameter int unsigned ParamRows = tessel_target_pkg::ParamRows,
  parameter int unsigned RequantLanes = tessel_target_pkg::RequantLanes,   // 0: Dim
  localparam int unsigned Rl  = (RequantLanes == 0) ? Dim : RequantLanes,
  localparam int unsigned Groups = Dim / Rl,          // cycles an ACC row takes through the epilogue
  localparam int unsigned GBw = (Groups > 1) ? $clog2(Groups) : 1,
  localparam int unsigned SAw = $clog2(SpadRows),
  localparam int unsigned AAw = $clog2(AccRows),
  localparam int unsigned MAw = (SAw > AAw) ? SAw : AAw,   // source row bits (ACC or SPAD)
  localparam int unsigned PAw = (ParamRows > 1) ? $clog2(ParamRows) : 1
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,
  input  wire logic               cmd_valid_i,
  output      logic               cmd_ready_o,
  input  wire tessel_isa_pkg::cmd_t cmd_i,
  output      logic               done_o,
  input  wire logic               clr_i,          // START: configuration back to 0
  input  wire logic [31:0]        dram_base_i,
  // source reads (data one cycle after the address)
  output      logic               acc_re_o,
  output      logic [AAw-1:0]     acc_addr_o,
  input  wire logic [Dim*32-1:0]  acc_rdata_i,
  output      logic               spad_re_o,
  input  wire logic               spad_rgnt_i,    // the SPAD read port is shared: wait for it
  output      logic [SAw-1:0]     spad_addr_o,
  input  wire logic [Dim*8-1:0]   spad_rdata_i,
  output      logic               param_re_o,
  output      logic [PAw-1:0]     param_addr_o,
  input  wire logic [Dim*72-1:0]  param_rdata_i,
  // SPAD destination: held until granted
  output      logic               spad_we_o,
  input  wire logic               spad_wgnt_i,
  output      logic [SAw-1:0]     spad_waddr_o,
  output      logic [Dim*8-1:0]   spad_wdata_o,
  // DRAM destination: write requests (single beats) and their responses
  output      logic               dma_req_valid_o,
  input  wire logic               dma_req_ready_i,
  output      logic [31:0]        dma_req_addr_o,
  output      logic [7:0]         dma_req_len_o,
  output      logic               dma_w_valid_o,
  input  wire logic               dma_w_ready_i,
  output      logic [63:0]        dma_w_data_o,
  output      logic [7:0]         dma_w_strb_o,
  output      logic               dma_w_last_o,
  input  wire logic               dma_b_valid_i,
  // status and counter increments of this cycle
  output      logic               busy_o,
  output      logic               stall_dram_o,
  output      logic [15:0]        src_rd_bytes_o,   // ACC or SPAD per src_is_acc_o
  output      logic               src_is_acc_o,
  output      logic [15:0]        spad_wr_bytes_o,
  output      logic [15:0]        dram_wr_bytes_o
);
  localparam int unsigned OutBytes = 4 * Dim;       // largest pixel (raw int32)
  localparam int unsigned ShBytes  = OutBytes + 8;

  typedef enum logic [2:0] {StIdle, StParam, StTaps, StFinish, StOut, StWait, StDrainB} state_e;
  state_e state_d, state_q;

  // ---- configuration ---------------------------------------------------------
  // whole commands / PARAM rows are latched; the unit reads some fields
  /* verilator lint_off UNUSEDSIGNAL */
  tessel_isa_pkg::cmd_t cs_d, cs_q, ce_d, ce_q, cmd_d, cmd_q;
  /* verilator lint_on UNUSEDSIGNAL */
  // The wide registers are written with enables, so an idle unit does not
  // copy them every cycle (the simulator evaluates every block every cycle).
  logic         cs_we, ce_we, cmd_we, prm_we, v_we, sh_we;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0]  src_pitch, spad_pitch;              // addresses use their low bits
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0]  stride_x, stride_y;
  logic [2:0]   pool_k, pool_s, pool_pt, pool_pl;
  logic [7:0]   zp_out, lo, hi, src_h, src_w;
  assign src_pitch  = cs_q[27:12];
  assign stride_x   = cs_q[63:32];
  assign stride_y   = cs_q[95:64];
  assign spad_pitch = cs_q[111:96];
  assign pool_k     = ce_q[14:12];
  assign pool_s     = ce_q[17:15];
  assign pool_pt    = ce_q[20:18];
  assign pool_pl    = ce_q[23:21];
  assign zp_out     = ce_q[31:24];
  assign lo         = ce_q[39:32];
  assign hi         = ce_q[47:40];
  assign src_h      = ce_q[55:48];
  assign src_w      = ce_q[63:56];

  logic         src_spad, dst_spad, raw;
  logic [4:0]   n0;
  logic [7:0]   oh, ow;
  logic [31:0]  dram_off;
  // row fields and addresses are wider than the memories: the dispatcher has
  // checked them, only their low bits address a row
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0]  dst_row, src_row;
  logic [15:0]  param_row;
  logic [MAw-1:0] src_addr;                       // modulo 2^MAw: only its low bits address
  /* verilator lint_on UNUSEDSIGNAL */
  assign src_spad  = cmd_q[12];
  assign dst_spad  = cmd_q[13];
  assign raw       = cmd_q[14];
  assign n0        = cmd_q[20:16];
  assign oh        = cmd_q[31:24];
  assign dram_off  = cmd_q[63:32];
  assign dst_row   = cmd_q[79:64];
  assign src_row   = cmd_q[95:80];
  assign param_row = cmd_q[111:96];
  assign ow        = cmd_q[119:112];
  assign grp       = (Groups > 1) && !src_spad && !raw;

  // ---- iteration ---------------------------------------------------------------
  logic [7:0]  y_d, y_q, x_d, x_q;
  logic [2:0]  i_d, i_q, j_d, j_q;
  // whole commands / PARAM rows are latched; the unit reads some fields
  /* verilator lint_off UNUSEDSIGNAL */
  logic [Dim*72-1:0] prm_d, prm_q;
  /* verilator lint_on UNUSEDSIGNAL */
  logic        t1_d, t1_q, t1_in_d, t1_in_q;
  logic [GBw-1:0] rg_d, rg_q, t1g_d, t1g_q;          // the tap's lane group (read / in c1)
  logic        grp;                                  // this command's ACC rows go in groups
  logic        any_d, any_q;
  logic [Dim*32-1:0] v_d, v_q;                      // reduced pixel value per lane (int32)
  logic [3:0]  beat_d, beat_q, nbeats_d, nbeats_q;
  logic [ShBytes*8-1:0] sh_d, sh_q;                 // pixel bytes shifted to the beat offset
  logic [ShBytes-1:0]   shm_d, shm_q;               // their strobes
  logic [31:0] baddr_d, baddr_q;                    // beat-aligned address of beat 0
  logic [3:0]  n0_d, n0_q;                          // beats of the first burst (all but a 4 KiB split)
  logic [1:0]  rq_d, rq_q;                          // bursts requested so far (one or two)
  logic [1:0]  nreq;                                // bursts of this pixel
  logic [9:0]  to_4k;                               // beats from beat 0 to the next 4 KiB boundary
  logic [7:0]  outst_d, outst_q;                    // write responses outstanding
  logic        pf_d, pf_q;                          // the next pixel's source row was read
  logic        pf_rd;                               // ... and is read this cycle

  // tap coordinates of the current pooling tap (or the pixel itself)
  logic signed [11:0] sy, sx;
  logic        tap_in, last_tap, last_px, nxt_line;
  // v * k for a 3-bit k (pooling stride, padding) by shifts and adds: no
  // multiplier (an FPGA would spend a DSP slice on each)
  function automatic logic [15:0] mul3(logic [15:0] v, logic [2:0] k);
    mul3 = (k[0] ? v : 16'd0) + (k[1] ? v << 1 : 16'd0) + (k[2] ? v << 2 : 16'd0);
  endfunction
  // Source and destination rows without multiplies: y*src_pitch (or, with
  // pooling, y*pool_s*src_pitch), i*src_pitch and y*spad_pitch are kept in
  // registers as y and i step (by one, or back to 0), modulo 2^MAw / 2^SAw.
  logic [MAw-1:0] lyo_d, lyo_q, iyo_d, iyo_q, ystep, ptoff;
  logic [SAw-1:0] dyo_d, dyo_q;
  assign ystep = (pool_k == 3'd0) ? MAw'(src_pitch) : MAw'(mul3(src_pitch, pool_s));
  assign ptoff = MAw'(mul3(src_pitch, pool_pt));
  // (looked at in the command's states only; an idle unit skips them)
  always_comb begin
    sy       = '0;
    sx       = '0;
    tap_in   = 1'b0;
    nxt_line = 1'b0;
    src_addr = '0;
    last_tap = 1'b0;
    last_px  = 1'b0;
    if (state_q != StIdle) begin
      if (pool_k == 3'd0 && (state_q == StOut || state_q == StWait)) begin
        // the next pixel (its source row is read ahead)
        nxt_line = (x_q == ow - 8'd1);
        sy = nxt_line ? 12'(y_q) + 12'd1 : 12'(y_q);
        sx = nxt_line ? 12'd0 : 12'(x_q) + 12'd1;
      end else if (pool_k == 3'd0) begin
        sy = 12'(y_q);
        sx = 12'(x_q);
      end else begin
        sy = 12'(mul3(16'(y_q), pool_s)) - 12'(pool_pt) + 12'(i_q);
        sx = 12'(mul3(16'(x_q), pool_s)) - 12'(pool_pl) + 12'(j_q);
      end
      tap_in   = (pool_k == 3'd0) ||
                 (sy >= 0 && sy < $signed({4'd0, src_h}) && sx >= 0 && sx < $signed({4'd0, src_w}));
      // src_row + sy*src_pitch + sx from the terms' low bits: the line's
      // offset from the registers (the next line's for a read-ahead row)
      src_addr = MAw'(src_row) + lyo_q + MAw'(sx) +
                 ((pool_k != 3'd0) ? iyo_q - ptoff : nxt_line ? MAw'(src_pitch) : '0);
      last_tap = (pool_k == 3'd0) || (i_q == pool_k - 3'd1 && j_q == pool_k - 3'd1);
      last_px  = (x_q == ow - 8'd1) && (y_q == oh - 8'd1);
    end
  end

  // c1: the source row's lanes (or lane group t1g_q) through the epilogue
  // Only evaluated when c1 reduces an inside tap (t1_q && t1_in_q), so the
  // simulator skips the lane arithmetic in every other cycle.
  logic [Dim*32-1:0] val;
  logic [Rl*8-1:0]   rq;
  logic [Rl*32-1:0]  rq_acc, rq_bias, rq_mult;
  logic [Rl*6-1:0]   rq_shift;
  logic              val_en;
  assign val_en = t1_q && t1_in_q;
  // the group's lanes by constant selects (a Groups:1 multiplexer per bit)
  always_comb begin
    rq_acc   = acc_rdata_i[Rl*32-1:0];
    rq_bias  = prm_q[Rl*32-1:0];
    rq_mult  = prm_q[Dim*32 +: Rl*32];
    for (int l = 0; l < Rl; l++) rq_shift[l*6 +: 6] = prm_q[Dim*64 + l*8 +: 6];
    for (int g = 1; g < Groups; g++)
      if (32'(t1g_q) == g) begin
        rq_acc  = acc_rdata_i[g*Rl*32 +: Rl*32];
        rq_bias = prm_q[g*Rl*32 +: Rl*32];
        rq_mult = prm_q[Dim*32 + g*Rl*32 +: Rl*32];
        for (int l = 0; l < Rl; l++) rq_shift[l*6 +: 6] = prm_q[Dim*64 + (g*Rl + l)*8 +: 6];
      end
  end
  for (genvar l = 0; l < Rl; l++) begin : g_lane
    npu_requant u_rq (
      .en_i    (val_en && !src_spad && !raw),
      .acc_i   (rq_acc[l*32 +: 32]),
      .bias_i  (rq_bias[l*32 +: 32]),
      .mult_i  (rq_mult[l*32 +: 32]),
      .shift_i (rq_shift[l*6 +: 6]),
      .zp_i    (zp_out),
      .lo_i    (lo),
      .hi_i    (hi),
      .q_o     (rq[l*8 +: 8])
    );
  end
  always_comb begin
    for (int n = 0; n < Dim; n++) begin
      if (!val_en) val[n*32 +: 32] = '0;
      else if (src_spad) val[n*32 +: 32] = 32'($signed(spad_rdata_i[n*8 +: 8]));
      else if (raw) val[n*32 +: 32] = acc_rdata_i[n*32 +: 32];
      else val[n*32 +: 32] = 32'($signed(rq[(n % Rl)*8 +: 8]));
    end
  end

  // the finished pixel as bytes (lanes 0..n0-1; int8 or raw int32)
  logic [OutBytes*8-1:0] px_bytes;
  logic [OutBytes-1:0]   px_mask;
  logic [6:0]            px_n;
  // looked at in StOut only
  always_comb begin
    px_bytes = '0;
    px_mask  = '0;
    px_n     = '0;
    if (state_q == StOut) begin
    for (int n = 0; n < Dim; n++) begin
      if (raw) px_bytes[n*32 +: 32] = v_q[n*32 +: 32];
      else px_bytes[n*8 +: 8] = v_q[n*32 +: 8];
    end
    px_n = raw ? 7'(n0) * 7'd4 : 7'(n0);
    for (int b = 0; b < OutBytes; b++) px_mask[b] = (7'(b) < px_n);
    end
  end

  // y*stride_y and x*stride_x, kept as x and y move (every command starts
  // them at 0 and they only step by one): no multiplier per pixel
  logic [31:0] pyo_d, pyo_q, pxo_d, pxo_q;
  always_comb begin
    pyo_d = (y_d == '0) ? 32'd0 : (y_d != y_q) ? pyo_q + stride_y : pyo_q;
    pxo_d = (x_d == '0) ? 32'd0 : (x_d != x_q) ? pxo_q + stride_x : pxo_q;
    lyo_d = (y_d == '0) ? '0 : (y_d != y_q) ? lyo_q + ystep : lyo_q;
    iyo_d = (i_d == '0) ? '0 : (i_d != i_q) ? iyo_q + MAw'(src_pitch) : iyo_q;
    dyo_d = (y_d == '0) ? '0 : (y_d != y_q) ? dyo_q + SAw'(spad_pitch) : dyo_q;
  end
  logic [31:0] px_addr;
  logic [Dim*8-1:0] spad_row;
  always_comb begin
    px_addr  = '0;
    spad_row = '0;
    if (state_q == StOut) begin
      px_addr = dram_base_i + dram_off + pyo_q + pxo_q;
      for (int n = 0; n < Dim; n++) spad_row[n*8 +: 8] = (5'(n) < n0) ? v_q[n*32 +: 8] : zp_out;
    end
  end

  logic       prm_cap_q;
  // Data registers change only while the unit works (or takes a command):
  // written with that enable, an idle unit costs the simulator no copies.
  logic act;
  assign act = (state_q != StIdle) || cmd_valid_i;

  always_comb begin
    pf_rd    = 1'b0;
    state_d  = state_q;
    cs_d     = clr_i ? '0 : cmd_i;
    ce_d     = cs_d;
    cs_we    = clr_i;
    ce_we    = clr_i;
    cmd_d    = cmd_i;
    cmd_we   = 1'b0;
    prm_d    = param_rdata_i;               // PARAM row read in StParam
    prm_we   = prm_cap_q;
    t1_d     = 1'b0;
    t1g_d    = '0;
    v_d      = '0;
    v_we     = 1'b0;
    sh_d     = '0;
    shm_d    = '0;
    sh_we    = 1'b0;
    outst_d  = outst_q;
    cmd_ready_o     = 1'b0;
    done_o          = 1'b0;
    acc_re_o        = 1'b0;
    acc_addr_o      = AAw'(src_addr);
    spad_re_o       = 1'b0;
    spad_addr_o     = SAw'(src_addr);
    param_re_o      = 1'b0;
    param_addr_o    = PAw'(param_row);
    spad_we_o       = 1'b0;
    spad_waddr_o    = '0;
    spad_wdata_o    = spad_row;
    // the pixel's beats as one burst, or two when they cross 4 KiB
    dma_req_addr_o  = (rq_q == 2'd0) ? baddr_q : baddr_q + {25'd0, n0_q, 3'd0};
    dma_req_len_o   = (rq_q == 2'd0) ? 8'(n0_q) - 8'd1 : 8'(nbeats_q) - 8'(n0_q) - 8'd1;
    dma_w_last_o    = (beat_q == n0_q - 4'd1) || (beat_q == nbeats_q - 4'd1);
    to_4k           = '0;
    dma_w_data_o    = '0;
    dma_w_strb_o    = '0;
    if (state_q == StWait) begin
      dma_w_data_o = sh_q[64*32'(beat_q) +: 64];
      dma_w_strb_o = shm_q[8*32'(beat_q) +: 8];
    end
    stall_dram_o    = 1'b0;
    src_rd_bytes_o  = '0;
    src_is_acc_o    = !src_spad;
    spad_wr_bytes_o = '0;
    dram_wr_bytes_o = '0;

    if (dma_b_valid_i) outst_d = outst_d - 8'd1;

    // Idle with nothing offered: the registers below are not written (act),
    // so the simulator skips the state decode of every split block.
    if (act) begin
      y_d      = y_q;
      x_d      = x_q;
      i_d      = i_q;
      j_d      = j_q;
      t1_in_d  = tap_in;
      rg_d     = rg_q;
      any_d    = any_q;
      beat_d   = beat_q;
      nbeats_d = nbeats_q;
      baddr_d  = baddr_q;
      n0_d     = n0_q;
      rq_d     = rq_q;
      pf_d     = pf_q;

      // without pooling, the next pixel's source row once per pixel (c1
      // takes it into v, which StOut has already turned into this pixel's
      // bytes or row; to SPAD in the cycle its row is written, so an ACC
      // source only: a SPAD source is read after the write)
      if (pool_k == 3'd0 && !grp && !pf_q && !last_px &&
          ((state_q == StOut && (!dst_spad || (!src_spad && spad_wgnt_i))) || state_q == StWait)) begin
        acc_re_o  = !src_spad;
        spad_re_o = src_spad;
        pf_rd     = !src_spad || spad_rgnt_i;
        t1_d      = pf_rd;
        pf_d      = pf_rd;
      end

      unique case (state_q)
        StIdle: begin
          cmd_ready_o = 1'b1;
          if (cmd_valid_i) begin
            unique case (cmd_i[7:0])
              tessel_isa_pkg::OpCfgStore: begin
                cs_we  = 1'b1;
                done_o = 1'b1;
              end
              tessel_isa_pkg::OpCfgEpi: begin
                ce_we  = 1'b1;
                done_o = 1'b1;
              end
              tessel_isa_pkg::OpStore: begin
                cmd_we = 1'b1;
                y_d    = '0;
                x_d    = '0;
                i_d    = '0;
                j_d    = '0;
                pf_d   = 1'b0;
                rg_d   = '0;
                state_d = StParam;
              end
              default: done_o = 1'b1;
            endcase
          end
        end

        StParam: begin
          param_re_o = 1'b1;
          any_d      = 1'b0;
          state_d    = StTaps;
        end

        // one pooling tap per cycle (per lane group and cycle when grp); c1
        // (t1_q) reduces it into v
        StTaps: begin
          acc_re_o  = tap_in && !src_spad;
          spad_re_o = tap_in && src_spad;
          t1_d      = 1'b1;
          t1g_d     = rg_q;
          if (spad_re_o && !spad_rgnt_i) begin
            t1_d = 1'b0;                     // port busy: the same tap next cycle
          end else if (grp && rg_q != GBw'(Groups - 1)) begin
            rg_d = rg_q + 1'b1;              // the same row again for the next group
          end else if (last_tap) begin
            rg_d    = '0;
            i_d     = '0;
            j_d     = '0;
            state_d = StFinish;
          end else begin
            rg_d = '0;
            j_d = j_q + 3'd1;
            if (j_q == pool_k - 3'd1) begin
              j_d = '0;
              i_d = i_q + 3'd1;
            end
          end
        end

        // the last tap's value is reduced this cycle; prepare the output
        StFinish: begin
          state_d = StOut;
        end

        StOut: begin
          if (dst_spad) begin
            spad_we_o    = 1'b1;
            spad_waddr_o = SAw'(dst_row) + dyo_q + SAw'(x_q);
            if (spad_wgnt_i) begin
              spad_wr_bytes_o = 16'(Dim);
              state_d = StWait;
            end
          end else begin
            // shift the pixel's bytes to its offset in the first beat
            sh_we    = 1'b1;
            sh_d     = {64'd0, px_bytes} << (8 * px_addr[2:0]);
            shm_d    = {8'd0, px_mask} << px_addr[2:0];
            baddr_d  = {px_addr[31:3], 3'd0};
            nbeats_d = 4'((7'(px_addr[2:0]) + px_n + 7'd7) >> 3);
            to_4k    = 10'd512 - 10'(px_addr[11:3]);
            n0_d     = (10'(nbeats_d) > to_4k) ? 4'(to_4k) : nbeats_d;
            beat_d   = '0;
            rq_d     = '0;
            dram_wr_bytes_o = 16'(px_n);
            state_d  = StWait;
          end
        end

        // DRAM: the bursts' requests and the beats are offered independently
        // (a beat may go before its request: the SoC's arbiter holds it)
        StWait: begin
          if (dst_spad) begin
            state_d = StTaps;
          end else begin
            if (dma_req_valid_o && dma_req_ready_i) begin
              rq_d    = rq_q + 2'd1;
              outst_d = outst_d + 8'd1;
            end
            if (dma_w_valid_o && dma_w_ready_i) beat_d = beat_q + 4'd1;
            // the pixel is written when its bursts are requested and its beats sent
            stall_dram_o = !(rq_d == nreq && beat_d == nbeats_q);
            if (rq_d == nreq && beat_d == nbeats_q) state_d = StTaps;
          end
          if (state_d == StTaps) begin
            // next pixel, or the end of the command
            x_d = x_q + 8'd1;
            if (x_q == ow - 8'd1) begin
              x_d = '0;
              y_d = y_q + 8'd1;
            end
            any_d = 1'b0;
            pf_d  = 1'b0;
            // the read-ahead row is in v next cycle (read earlier), or the
            // cycle after (read now), or not read yet
            if (last_px) state_d = StDrainB;
            else if (pf_q) state_d = StOut;
            else if (pf_rd) state_d = StFinish;
          end
        end

        // the command ends when every write has its response
        StDrainB: begin
          if (outst_d == 8'd0) begin
            done_o  = 1'b1;
            state_d = StIdle;
          end
        end

        default: state_d = StIdle;
      endcase
    end else begin
      y_d = '0;
      x_d = '0;
      i_d = '0;
      j_d = '0;
      t1_in_d = '0;
      rg_d = '0;
      any_d = '0;
      beat_d = '0;
      nbeats_d = '0;
      baddr_d = '0;
      n0_d = '0;
      rq_d = '0;
      pf_d = '0;
      cmd_ready_o = 1'b1;
    end


    // every source row read counts, once per tap (ACC's port B is STORE's
    // own; SPAD's is granted)
    if ((acc_re_o || (spad_re_o && spad_rgnt_i)) && rg_q == '0) src_rd_bytes_o = src_spad ? 16'(Dim) : 16'(4 * Dim);

    // c1: reduce the tap's value into the pixel (max over the inside taps)
    if (t1_q) begin
      v_we = 1'b1;
      v_d  = v_q;
      if (t1_in_q) begin
        // the tap's lanes (its group's when grp); a pixel has a value once
        // a tap's last group is in
        for (int n = 0; n < Dim; n++) begin
          if ((!grp || 32'(t1g_q) == n / Rl) &&
              (!any_q || pool_k == 3'd0 || $signed(val[n*32 +: 32]) > $signed(v_q[n*32 +: 32])))
            v_d[n*32 +: 32] = val[n*32 +: 32];
        end
        if (!grp || t1g_q == GBw'(Groups - 1)) any_d = 1'b1;
      end else if (!any_q) begin
        // no inside tap yet: the value if none comes (ACC: lo, SPAD: -128)
        for (int n = 0; n < Dim; n++) v_d[n*32 +: 32] = src_spad ? 32'hffffff80 : 32'($signed(lo));
      end
    end
  end

  assign busy_o = (state_q != StIdle);
  // request and data of a beat are offered without waiting for ready
  assign nreq = (n0_q == nbeats_q) ? 2'd1 : 2'd2;
  assign dma_req_valid_o = (state_q == StWait) && !dst_spad && (rq_q != nreq) && (outst_q < 8'd255);
  assign dma_w_valid_o   = (state_q == StWait) && !dst_spad && (beat_q != nbeats_q);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      cs_q    <= '0;
      ce_q    <= '0;
      t1_q    <= 1'b0;
      t1g_q   <= '0;
      outst_q <= '0;
      prm_cap_q <= 1'b0;
    end else begin
      state_q <= state_d;
      if (cs_we) cs_q <= cs_d;
      if (ce_we) ce_q <= ce_d;
      t1_q    <= t1_d;
      t1g_q   <= t1g_d;
      outst_q <= outst_d;
      prm_cap_q <= param_re_o;
    end
  end

  always_ff @(posedge clk_i) begin
    if (act) begin
      y_q       <= y_d;
      x_q       <= x_d;
      pyo_q     <= pyo_d;
      pxo_q     <= pxo_d;
      lyo_q     <= lyo_d;
      iyo_q     <= iyo_d;
      dyo_q     <= dyo_d;
      i_q       <= i_d;
      j_q       <= j_d;
      t1_in_q   <= t1_in_d;
      rg_q      <= rg_d;
      any_q     <= any_d;
      beat_q    <= beat_d;
      nbeats_q  <= nbeats_d;
      baddr_q   <= baddr_d;
      n0_q      <= n0_d;
      rq_q      <= rq_d;
      pf_q      <= pf_d;
    end
    if (cmd_we) cmd_q <= cmd_d;
    if (prm_we) prm_q <= prm_d;
    if (v_we) v_q <= v_d;
    if (sh_we) begin
      sh_q  <= sh_d;
      shm_q <= shm_d;
    end
  end
endmodule

`default_nettype wire
