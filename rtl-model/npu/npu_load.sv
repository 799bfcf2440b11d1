// npu_load: the LOAD unit. Runs one LOAD-queue command at a time (checked and
// loop-adjusted by the dispatcher; tokens handled outside):
//   CFG_LOAD  latches the DRAM strides
//   LOAD      3D strided DMA into consecutive SPAD/ACC/PARAM rows with padding
// Two halves run concurrently:
//   * the generator walks the box (z, y, x), puts one descriptor per run of
//     rows (pad or real, destination, byte offset, beats per row, rows) into a
//     small FIFO and, for a real run, issues one read burst for its bytes
//     (split at 4 KiB); up to Inflight descriptors are queued and at most
//     DramMaxInflight requests wait for data (the target's promise; the second
//     half of a row split at 4 KiB may exceed it by one), all with one id so
//     data returns in order. A run is one row, or (SPAD/ACC rows of whole,
//     aligned beats, contiguous in DRAM: stride_x == row bytes) up to
//     DramBurstBytes of consecutive real rows of one line: without it every
//     8-byte SPAD row was its own request, and dram_max_inflight requests of
//     one beat each cannot cover the DRAM latency;
//   * the assembler takes the head descriptor, collects each row's beats,
//     formats the row (lanes n0.. and pad rows get the pad value) and writes
//     it once the memory grants the write: in the cycle its last beat arrives
//     (the beat bypasses the stage), so a one-beat row costs one cycle, not two.
`default_nettype none

module npu_load #(
  parameter int unsigned Dim       = tessel_target_pkg::Dim,
  parameter int unsigned SpadRows  = tessel_target_pkg::SpadRows,
  parameter int unsigned AccRows   = tessel_target_pkg::AccRows,
  parameter int unsigned ParamRows = tessel_target_pkg::ParamRows,
  parameter int unsigned Inflight  = 8,
  localparam int unsigned SAw = $clog2(SpadRows),
  localparam int unsigned AAw = $clog2(AccRows),
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
  // read requests and data (one id: in order)
  output      logic               dma_req_valid_o,
  input  wire logic               dma_req_ready_i,
  output      logic [31:0]        dma_req_addr_o,
  output      logic [7:0]         dma_req_len_o,
  input  wire logic               dma_r_valid_i,
  output      logic               dma_r_ready_o,
  input  wire logic [63:0]        dma_r_data_i,
  // row writes, each held until granted
  output      logic               spad_we_o,
  input  wire logic               spad_gnt_i,
  output      logic [SAw-1:0]     spad_waddr_o,
  output      logic [Dim*8-1:0]   spad_wdata_o,
  output      logic               acc_we_o,
  input  wire logic               acc_gnt_i,
  output      logic [AAw-1:0]     acc_waddr_o,
  output      logic [Dim*32-1:0]  acc_wdata_o,
  output      logic               param_we_o,
  output      logic [PAw-1:0]     param_waddr_o,
  output      logic [Dim*72-1:0]  param_wdata_o,
  // status and counter increments of this cycle
  output      logic               busy_o,
  output      logic               stall_dram_o,
  output      logic [15:0]        dram_rd_bytes_o,
  output      logic [15:0]        spad_wr_bytes_o,
  output      logic [15:0]        acc_wr_bytes_o
);
  localparam int unsigned StageBeats = (9 * Dim + 14) / 8;   // a PARAM row at any offset
  localparam int unsigned Qw = $clog2(Inflight);
  localparam int unsigned Sw = $clog2(StageBeats);
  localparam int unsigned BurstBeats = tessel_target_pkg::DramBurstBytes / 8;  // largest burst
  localparam int unsigned MaxRun = (BurstBeats < 8) ? BurstBeats : 8;        // rows per run (3-bit count)
  localparam int unsigned MaxReqs = tessel_target_pkg::DramMaxInflight;       // requests waiting for data

  // ---- configuration and command --------------------------------------------
  // whole commands / PARAM rows are latched; the unit reads some fields
  /* verilator lint_off UNUSEDSIGNAL */
  tessel_isa_pkg::cmd_t cfg_d, cfg_q, cmd_d, cmd_q;
  /* verilator lint_on UNUSEDSIGNAL */
  logic         cfg_we, cmd_we;                      // written with enables, not every cycle
  logic [31:0] stride_x, stride_y, stride_z;
  assign stride_x = cfg_q[63:32];
  assign stride_y = cfg_q[95:64];
  assign stride_z = cfg_q[127:96];
  logic [1:0]  mem;
  logic [4:0]  n0;
  logic [7:0]  pad;
  logic [2:0]  pad_r, pad_t, pad_b, pad_l;
  logic [11:0] nx, ny, nz;
  assign mem      = cmd_q[13:12];
  assign n0       = cmd_q[20:16];
  assign pad_r    = cmd_q[23:21];
  assign pad      = cmd_q[31:24];
  assign nx       = cmd_q[91:80];
  assign pad_t    = cmd_q[94:92];
  assign ny       = cmd_q[107:96];
  assign nz       = cmd_q[119:108];
  assign pad_b    = cmd_q[122:120];
  assign pad_l    = cmd_q[125:123];

  logic [7:0] nbytes;                                // bytes of a real row: n0 * e
  always_comb begin
    unique case (mem)
      tessel_isa_pkg::MemAcc:   nbytes = 8'(n0) * 8'd4;
      tessel_isa_pkg::MemParam: nbytes = 8'(n0) * 8'd9;
      default:                  nbytes = 8'(n0);
    endcase
  end

  // Data registers change only while the unit works (or takes a command):
  // written with that enable, an idle unit costs the simulator no copies.
  logic act;
  assign act = gen_q || split_q || (dq_cnt_q != '0) || full_q || cmd_valid_i;

  // ---- generator ---------------------------------------------------------------
  logic        gen_d, gen_q;                         // walking the box
  logic [11:0] x_d, x_q, y_d, y_q, z_d, z_q;
  // The address terms, kept as the generator walks (no multiplier), mod 2^32:
  // base = DRAM_BASE + dram - pad_t*stride_y - pad_l*stride_x (set when the
  // command is taken; DRAM_BASE does not change during a run), zb = z*stride_z,
  // line = z*stride_z + y*stride_y, xo = x*stride_x.
  logic [31:0] base_d, base_q, zb_d, zb_q, line_d, line_q, xo_d, xo_q;
  // k*v for a 3-bit pad count k, as shifts and adds
  function automatic logic [31:0] pad_mul(logic [31:0] v, logic [2:0] k);
    pad_mul = (k[0] ? v : 32'd0) + (k[1] ? v << 1 : 32'd0) + (k[2] ? v << 2 : 32'd0);
  endfunction
  logic [23:0] drow_d, drow_q;                       // destination row of (z, y, x)
  logic        split_d, split_q;                     // second part of a 4 KiB-split burst pending
  logic [31:0] saddr_d, saddr_q;
  logic [4:0]  sbeats_d, sbeats_q;
  logic        is_pad;
  logic [31:0] raddr;                                // bus address of the row's first byte
  logic [4:0]  rbeats, first_beats;
  logic [9:0]  to_4k;
  logic        can_run;                              // the row may start a run of several
  logic [3:0]  run;                                  // rows in this descriptor (1..MaxRun)
  // only while the generator walks the box (an idle unit skips the multiplies)
  always_comb begin
    is_pad      = 1'b0;
    raddr       = '0;
    rbeats      = '0;
    to_4k       = '0;
    first_beats = '0;
    if (gen_q) begin
      is_pad = (y_q < 12'(pad_t)) || (y_q >= ny - 12'(pad_b)) ||
               (x_q < 12'(pad_l)) || (x_q >= nx - 12'(pad_r));
      raddr  = base_q + line_q + xo_q;
      rbeats = 5'((9'(raddr[2:0]) + 9'(nbytes) + 9'd7) >> 3);
      to_4k  = 10'd512 - (10'(raddr[11:3]));
      first_beats = (10'(rbeats) > to_4k) ? 5'(to_4k) : rbeats;
    end
  end

  // Runs: consecutive real rows of this line that follow each other in DRAM,
  // whole beats each, in one burst of at most BurstBeats that stays inside
  // the 4 KiB page (so a run is never split).
  always_comb begin
    can_run = gen_q && !is_pad && (mem != tessel_isa_pkg::MemParam) && (nbytes[2:0] == 3'd0) &&
              (raddr[2:0] == 3'd0) && (stride_x == 32'(nbytes));
    run = 4'd1;
    if (can_run) begin
      for (int k = 2; k <= MaxRun; k++) begin
        if (10'(k) * 10'(rbeats) <= 10'(BurstBeats) && 10'(k) * 10'(rbeats) <= to_4k &&
            13'(x_q) + 13'(k) <= 13'(nx) - 13'(pad_r)) run = 4'(k);
      end
    end
  end

  // ---- descriptor FIFO ---------------------------------------------------------
  // {pad, split at 4 KiB, beats per row, offset, destination row, rows - 1}
  localparam int unsigned Dw = 1 + 1 + 5 + 3 + 24 + 3;
  logic [Dw-1:0] dq_q [Inflight];
  logic [Dw-1:0] dq_wdata;
  logic [Qw:0]   dq_cnt_d, dq_cnt_q;
  logic [Qw-1:0] dq_wp_d, dq_wp_q, dq_rp_d, dq_rp_q;
  logic          dq_push, dq_pop;
  logic          h_pad;
  logic          h_split;                            // two requests (split at 4 KiB)
  logic [4:0]    h_beats;
  logic [2:0]    h_off;
  logic [2:0]    h_last;                             // rows of the run - 1
  /* verilator lint_off UNUSEDSIGNAL */
  logic [23:0]   h_row;                              // checked: its low bits address the row
  logic [StageBeats*64-1:0] shifted;                 // the stage holds up to 7 bytes more than a row
  /* verilator lint_on UNUSEDSIGNAL */
  assign {h_pad, h_split, h_beats, h_off, h_row, h_last} = dq_q[dq_rp_q];

  // requests issued whose data has not all arrived
  logic [5:0]    reqs_d, reqs_q;
  logic          req_room;
  assign req_room = reqs_q < 6'(MaxReqs);

  // ---- assembler -----------------------------------------------------------------
  // the beats of the head row, written one at a time (a register file)
  logic [63:0] stage_q [StageBeats];
  logic        stage_we;
  logic [4:0]  beat_d, beat_q;
  logic [2:0]  rrow_d, rrow_q;                       // row of the head run being assembled
  logic        full_d, full_q;                       // the head row's bytes are all in the stage
  logic        beat_in, last_in;                     // a beat / the row's last beat arrives
  logic [Dim*72-1:0] rowbytes;
  logic row_ready, row_written;
  // The row is formatted only while it is offered (row_ready): the shift of
  // the whole stage is the widest thing this unit computes.
  always_comb begin
    shifted       = '0;
    rowbytes      = '0;
    spad_wdata_o  = '0;
    acc_wdata_o   = '0;
    param_wdata_o = '0;
    if (row_ready) begin
      for (int b = 0; b < StageBeats; b++)
        shifted[b*64 +: 64] = (last_in && Sw'(b) == Sw'(beat_q)) ? dma_r_data_i : stage_q[b];
      shifted  = shifted >> (8 * h_off);
      rowbytes = shifted[Dim*72-1:0];
      for (int n = 0; n < Dim; n++) begin
        spad_wdata_o[n*8 +: 8]  = (h_pad || 5'(n) >= n0) ? pad : rowbytes[n*8 +: 8];
        acc_wdata_o[n*32 +: 32] = (h_pad || 5'(n) >= n0) ? 32'($signed(pad)) : rowbytes[n*32 +: 32];
      end
      param_wdata_o = rowbytes;
    end
  end

  // a request never waits for ready (its own block: the port's ready may
  // depend on valid)
  always_comb dma_req_valid_o = split_q || (gen_q && dq_cnt_q != (Qw+1)'(Inflight) && !is_pad && req_room);

  always_comb begin
    cfg_d    = clr_i ? '0 : cmd_i;
    cfg_we   = clr_i;
    cmd_d    = cmd_i;
    cmd_we   = 1'b0;
    gen_d    = gen_q;
    x_d      = x_q;
    y_d      = y_q;
    z_d      = z_q;
    drow_d   = drow_q;
    base_d   = base_q;
    zb_d     = zb_q;
    line_d   = line_q;
    xo_d     = xo_q;
    split_d  = split_q;
    saddr_d  = saddr_q;
    sbeats_d = sbeats_q;
    stage_we = 1'b0;
    beat_d   = beat_q;
    full_d   = full_q;
    dq_push  = 1'b0;
    dq_pop   = 1'b0;
    dq_wdata = {is_pad, 10'(rbeats) > to_4k, rbeats, raddr[2:0], drow_q, 3'(run - 4'd1)};
    reqs_d   = reqs_q;
    rrow_d   = rrow_q;
    cmd_ready_o     = 1'b0;
    done_o          = 1'b0;
    dma_req_addr_o  = {raddr[31:3], 3'd0};
    dma_req_len_o   = 8'(first_beats) * 8'(run) - 8'd1;
    dram_rd_bytes_o = '0;
    spad_wr_bytes_o = '0;
    acc_wr_bytes_o  = '0;
    stall_dram_o    = 1'b0;

    dma_r_ready_o = 1'b0;
    beat_in     = 1'b0;
    last_in     = 1'b0;
    row_ready   = 1'b0;
    spad_we_o   = 1'b0;
    acc_we_o    = 1'b0;
    param_we_o  = 1'b0;
    row_written = 1'b0;
    // an idle unit: ready, nothing else to decide (a single test per cycle)
    if (!act) begin
      cmd_ready_o = 1'b1;
    end else begin
      // generator: one row per cycle while the FIFO has room
      if (!gen_q && !split_q && dq_cnt_q == '0 && !full_q) begin
        cmd_ready_o = 1'b1;
        if (cmd_valid_i) begin
          unique case (cmd_i[7:0])
            tessel_isa_pkg::OpCfgLoad: begin
              cfg_we = 1'b1;
              done_o = 1'b1;
            end
            tessel_isa_pkg::OpLoad: begin
              cmd_we = 1'b1;
              gen_d  = 1'b1;
              x_d    = '0;
              y_d    = '0;
              z_d    = '0;
              zb_d   = '0;
              line_d = '0;
              xo_d   = '0;
              base_d = dram_base_i + cmd_i[63:32] - pad_mul(stride_y, cmd_i[94:92]) -
                       pad_mul(stride_x, cmd_i[125:123]);
              drow_d = 24'(cmd_i[79:64]);
            end
            default: done_o = 1'b1;
          endcase
        end
      end else if (split_q) begin
        // the rest of a burst that crossed a 4 KiB boundary
        dma_req_addr_o  = saddr_q;
        dma_req_len_o   = 8'(sbeats_q) - 8'd1;
        if (dma_req_ready_i) begin
          split_d = 1'b0;
          reqs_d  = reqs_d + 6'd1;
        end
      end else if (gen_q && dq_cnt_q != (Qw+1)'(Inflight)) begin
        if (is_pad || (dma_req_ready_i && req_room)) begin
          dq_push = 1'b1;
          if (!is_pad) begin
            reqs_d = reqs_d + 6'd1;
            dram_rd_bytes_o = 16'(nbytes) * 16'(run);
            if (10'(rbeats) > to_4k) begin
              split_d  = 1'b1;
              saddr_d  = {raddr[31:12] + 20'd1, 12'd0};
              sbeats_d = rbeats - first_beats;
            end
          end
          drow_d = drow_q + 24'(run);
          x_d    = x_q + 12'(run);
          // a run of several rows has stride_x = nbytes (can_run)
          xo_d   = xo_q + ((run == 4'd1) ? stride_x : 32'(12'(run) * 12'(nbytes)));
          if (x_q + 12'(run) == nx) begin
            x_d  = '0;
            xo_d = '0;
            y_d  = y_q + 12'd1;
            line_d = line_q + stride_y;
            if (y_q == ny - 12'd1) begin
              y_d  = '0;
              z_d    = z_q + 12'd1;
              zb_d   = zb_q + stride_z;
              line_d = zb_d;
              if (z_q == nz - 12'd1) gen_d = 1'b0;
            end
          end
        end
      end
      if (dma_req_valid_o && !dma_req_ready_i) stall_dram_o = 1'b1;

      // assembler: collect the head row's beats
      dma_r_ready_o = (dq_cnt_q != '0) && !h_pad && !full_q;
      beat_in = dma_r_valid_i && dma_r_ready_o;
      last_in = beat_in && (beat_q == h_beats - 5'd1);
      if (beat_in) begin
        stage_we = 1'b1;
        beat_d = beat_q + 5'd1;
        if (last_in) begin
          beat_d = '0;
          // the run's data is all in: its request(s) no longer wait
          if (rrow_q == h_last) reqs_d = reqs_d - (h_split ? 6'd2 : 6'd1);
          full_d = 1'b1;                               // unless written at once (below)
        end
      end
      row_ready = (dq_cnt_q != '0) && (h_pad || full_q || last_in);
      if (dq_cnt_q != '0 && !h_pad && !full_q && !dma_r_valid_i) stall_dram_o = 1'b1;
      spad_we_o  = row_ready && (mem == tessel_isa_pkg::MemSpad);
      acc_we_o   = row_ready && (mem == tessel_isa_pkg::MemAcc);
      param_we_o = row_ready && (mem == tessel_isa_pkg::MemParam);
      row_written = param_we_o || (spad_we_o && spad_gnt_i) || (acc_we_o && acc_gnt_i);
      if (row_written) begin
        full_d = 1'b0;
        rrow_d = rrow_q + 3'd1;
        if (rrow_q == h_last) begin
          dq_pop = 1'b1;
          rrow_d = '0;
          // the command is done with its last row written
          if (!gen_q && dq_cnt_q == (Qw+1)'(1)) done_o = 1'b1;
        end
        if (spad_we_o) spad_wr_bytes_o = 16'(Dim);
        if (acc_we_o) acc_wr_bytes_o = 16'(4 * Dim);
      end
    end

    dq_wp_d  = dq_push ? dq_wp_q + Qw'(1) : dq_wp_q;
    dq_rp_d  = dq_pop ? dq_rp_q + Qw'(1) : dq_rp_q;
    dq_cnt_d = dq_cnt_q + (dq_push ? (Qw+1)'(1) : '0) - (dq_pop ? (Qw+1)'(1) : '0);
  end

  assign spad_waddr_o  = SAw'(h_row) + SAw'(rrow_q);
  assign acc_waddr_o   = AAw'(h_row) + AAw'(rrow_q);
  assign param_waddr_o = PAw'(h_row);                // PARAM rows are never runs
  assign busy_o        = gen_q || (dq_cnt_q != '0);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cfg_q    <= '0;
      gen_q    <= 1'b0;
      split_q  <= 1'b0;
      full_q   <= 1'b0;
      beat_q   <= '0;
      rrow_q   <= '0;
      reqs_q   <= '0;
      dq_cnt_q <= '0;
      dq_wp_q  <= '0;
      dq_rp_q  <= '0;
    end else begin
      if (cfg_we) cfg_q <= cfg_d;
      gen_q    <= gen_d;
      split_q  <= split_d;
      full_q   <= full_d;
      beat_q   <= beat_d;
      rrow_q   <= rrow_d;
      reqs_q   <= reqs_d;
      dq_cnt_q <= dq_cnt_d;
      dq_wp_q  <= dq_wp_d;
      dq_rp_q  <= dq_rp_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (act) begin
      x_q      <= x_d;
      y_q      <= y_d;
      z_q      <= z_d;
      base_q   <= base_d;
      zb_q     <= zb_d;
      line_q   <= line_d;
      xo_q     <= xo_d;
      drow_q   <= drow_d;
      saddr_q  <= saddr_d;
      sbeats_q <= sbeats_d;
    end
    if (cmd_we) cmd_q <= cmd_d;
    if (stage_we) stage_q[Sw'(beat_q)] <= dma_r_data_i;
    if (dq_push) dq_q[dq_wp_q] <= dq_wdata;
  end
endmodule

`default_nettype wire
