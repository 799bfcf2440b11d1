// npu_exec: the EXEC unit. Runs one EXEC-queue command at a time (already
// checked and loop-adjusted by the dispatcher; tokens are handled outside):
//   CFG_EXEC  latches the conv address generator's geometry
//   MATMUL    passes over (tap, channel block): the weight tile of pass p+1 is
//             preloaded (PreloadRowsPerCycle rows per cycle, from the
//             scratchpad's port B) into the array's other bank while pass p streams its
//             oh*ow tap rows, one row per cycle, with a read-modify-write of
//             the accumulator rows (docs/isa.md "MATMUL")
//   DWCONV    per output pixel all kh*kw taps, one accumulator write per
//             pixel. Kernels of at most DwCacheTaps taps: the first pixel runs
//             one tap per cycle and keeps the weight rows it reads on port B
//             in registers; every later pixel reads two tap rows per cycle
//             (ports A and B, 2*DIM MACs), an odd count ending with one. On
//             targets asking for 4*DIM MACs per cycle, with column dilation 1
//             and stride_x 1 or 2 below kw the tap rows also go into a
//             window register, and a pixel after the first of its output line
//             reads only its new kernel columns (kh*stride_x rows): the
//             window, shifted by stride_x columns, gives the others, whose
//             products its cycles add DwOldMul at a time (a kernel slides
//             when they fit). Larger kernels: one tap per cycle (weights on
//             port B).
//   CFG_VEC, VADD, VPOOL  run by the vector unit (npu_vec) on the same ports
//   ENOP      nothing to do
// Pipeline of a streamed row: c0 SPAD/ACC read addresses, c1 data -> array,
// c2 accumulator write. The byte and MAC counters are reported per cycle as
// increments with the exact rules of docs/isa.md section 3.
`default_nettype none

module npu_exec #(
  parameter int unsigned Dim      = tessel_target_pkg::Dim,
  parameter int unsigned SpadRows = tessel_target_pkg::SpadRows,
  parameter int unsigned AccRows  = tessel_target_pkg::AccRows,
  parameter int unsigned Pl       = tessel_target_pkg::PreloadRowsPerCycle,  // a power of two <= Dim
  // DWCONV weight rows held in registers: kernels of at most this many taps run
  // two taps per cycle (the target's dw_cache_taps, as the cost model prices it)
  parameter int unsigned DwCacheTaps = tessel_target_pkg::DwCacheTaps,
  localparam int unsigned Cw  = $clog2(DwCacheTaps),
  localparam int unsigned Nw  = $clog2(DwCacheTaps + 1),   // a count of cache slots
  localparam int unsigned SAw = $clog2(SpadRows),
  localparam int unsigned AAw = $clog2(AccRows)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  // command in (taken when valid && ready), done pulse when it has completed
  input  wire logic              cmd_valid_i,
  output      logic              cmd_ready_o,
  input  wire tessel_isa_pkg::cmd_t cmd_i,
  input  wire logic [81:0]       cmd_side_i,    // effective {in[33:0], iy0[23:0], ix0[23:0]} (npu_check)
  output      logic              done_o,
  input  wire logic              clr_i,         // START: configuration back to 0
  // scratchpad read ports: A taps, B weights (data one cycle after address)
  output      logic              spad_a_re_o,
  output      logic [SAw-1:0]    spad_a_addr_o,
  input  wire logic [Dim*8-1:0]  spad_a_rdata_i,
  output      logic              spad_b_re_o,
  output      logic [SAw-1:0]    spad_b_addr_o,
  input  wire logic [Pl*Dim*8-1:0] spad_b_rdata_i,  // rows b .. b+Pl-1 (preload); the others read row b
  // scratchpad write port (VADD, VPOOL)
  output      logic              spad_we_o,
  output      logic [SAw-1:0]    spad_waddr_o,
  output      logic [Dim*8-1:0]  spad_wdata_o,
  output      logic [15:0]       spad_wr_bytes_o,
  // accumulator read and write ports
  output      logic              acc_re_o,
  output      logic [AAw-1:0]    acc_raddr_o,
  input  wire logic [Dim*32-1:0] acc_rdata_i,
  output      logic              acc_we_o,
  output      logic [AAw-1:0]    acc_waddr_o,
  output      logic [Dim*32-1:0] acc_wdata_o,
  // status and counter increments of this cycle
  output      logic              busy_o,
  output      logic              stall_preload_o,
  output      logic [15:0]       macs_o,
  output      logic [15:0]       spad_rd_bytes_o,
  output      logic [15:0]       acc_rd_bytes_o,
  output      logic [15:0]       acc_wr_bytes_o
);
  localparam int unsigned Rw = $clog2(Dim);
  // two taps per cycle where the target's depthwise throughput asks for it
  localparam bit DwPair = tessel_target_pkg::DwMacsPerCycle >= 2 * Dim;
  // and the sliding window where it asks for 4 DIM (3x3 at stride 1: 4.5 DIM),
  // whose reused taps take DwOldMul products per lane and cycle
  localparam bit DwSlide = tessel_target_pkg::DwMacsPerCycle >= 4 * Dim;
  localparam int unsigned DwOldMul = 3;

  typedef enum logic [2:0] {StIdle, StMatmul, StDw, StDrain, StVec} state_e;

  // ---- configuration (CFG_EXEC) -------------------------------------------
  logic [15:0] out_pitch_q, cb_stride_q;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0] in_pitch_q;                           // taps use its low SAw bits
  /* verilator lint_on UNUSEDSIGNAL */
  logic [7:0]  kh_q, kw_q, ncb_q, pad_q;
  logic [2:0]  sy_q, sx_q, dy_q, dx_q;
  logic [9:0]  in_h_q, in_w_q;
  tessel_isa_pkg::cmd_t cfg_d, cfg_q;
  logic         cfg_we, cmd_we;                     // configuration / command latched

  assign out_pitch_q = cfg_q[27:12];
  assign kh_q        = cfg_q[39:32];
  assign kw_q        = cfg_q[47:40];
  assign ncb_q       = cfg_q[55:48];
  assign pad_q       = cfg_q[63:56];
  assign sy_q        = cfg_q[66:64];
  assign sx_q        = cfg_q[69:67];
  assign dy_q        = cfg_q[72:70];
  assign dx_q        = cfg_q[75:73];
  assign in_h_q      = cfg_q[85:76];
  assign in_w_q      = cfg_q[95:86];
  assign in_pitch_q  = cfg_q[111:96];
  assign cb_stride_q = cfg_q[127:112];

  // ---- command fields (MATMUL and DWCONV share the layout) -----------------
  // whole commands are latched; the unit reads some fields
  /* verilator lint_off UNUSEDSIGNAL */
  tessel_isa_pkg::cmd_t cmd_d, cmd_q;
  /* verilator lint_on UNUSEDSIGNAL */
  logic         accum_q;
  logic [9:0]   oh_q, ow_q;
  // whole commands are latched; the unit reads some fields
  /* verilator lint_off UNUSEDSIGNAL */
  logic [81:0]  side_d, side_q;
  /* verilator lint_on UNUSEDSIGNAL */
  logic signed [33:0] in_q;
  logic [15:0]  wgt_q, acc_q;
  logic signed [23:0] ix0_q;
  assign accum_q = cmd_q[12];
  assign oh_q    = cmd_q[25:16];
  assign in_q    = $signed(side_q[81:48]);
  assign wgt_q   = cmd_q[63:48];
  assign acc_q   = cmd_q[79:64];
  assign ow_q    = cmd_q[89:80];
  assign ix0_q   = $signed(side_q[23:0]);

  state_e state_d, state_q;

  // ---- streamer (tap rows of the current pass, or DW taps of a pixel) -------
  logic [23:0] pass_d, pass_q, npass_d, npass_q;    // pass = (t*ncb + cb)
  logic [7:0]  ky_d, ky_q, kx_d, kx_q, cb_d, cb_q;
  logic [9:0]  y_d, y_q, x_d, x_q;
  logic signed [23:0] piy_d, piy_q, pix_d, pix_q;   // MATMUL: pass origin; DW: pixel origin
  logic signed [23:0] iy_d, iy_q, ix_d, ix_q;       // current tap coordinates
  logic signed [33:0] pbase_d, pbase_q;             // in + cb*cb_stride
  logic [23:0] aline_d, aline_q;                    // acc + y*out_pitch
  logic [15:0] waddr_d, waddr_q;                    // DW: weight row of the tap
  logic [1:0]  gap_d, gap_q;
  logic [19:0] rows_d, rows_q;                      // oh*ow
  logic        dwc_on_d, dwc_on_q;                  // DW: this kernel fits the weight cache
  logic        dws_on_d, dws_on_q;                  // DW: ... and slides its window along a line

  // ---- preloader ------------------------------------------------------------
  logic [23:0] pl_pass_d, pl_pass_q;
  logic [Rw-1:0] pl_row_d, pl_row_q;
  logic [SAw-1:0] pl_addr_d, pl_addr_q;
  logic [1:0]  full_d, full_q;
  logic        plw_d, plw_q, plw_bank_d, plw_bank_q;
  logic [Rw-1:0] plw_row_d, plw_row_q;

  // ---- pipeline stage c1 / c2 -----------------------------------------------
  logic        s1_d, s1_q, s1_in_d, s1_in_q, s1_rd_d, s1_rd_q, s1_bank_d, s1_bank_q;
  logic        s1_first_d, s1_first_q, s1_last_d, s1_last_q;
  logic [AAw-1:0] s1_addr_d, s1_addr_q, s2_addr_d, s2_addr_q;
  logic        dww_d, dww_q;
  logic        s1_two_d, s1_two_q;                  // DW: c1 holds two taps (second on port B)
  logic        s1_in2_d, s1_in2_q;                  // DW: the second tap is inside the image
  logic        s1_fill_d, s1_fill_q;                // DW: c1's weight row goes into the cache
  logic        s1_wc_d, s1_wc_q;                    // DW: c1's weights come from the cache
  logic [Cw-1:0] s1_widx_d, s1_widx_q;              // DW: cache index of c1's (first) tap
  logic [Cw-1:0] s1_widx2_d, s1_widx2_q;            // DW: ... and of its second tap
  logic        s1_old_d, s1_old_q;                  // DW: c1 belongs to a sliding pixel
  logic [1:0]  pj_d, pj_q, s1_pj_d, s1_pj_q;        // DW: the cycle's index in its pixel
  logic [DwCacheTaps*Dim*8-1:0] win_d, win_q;       // DW: this pixel's tap rows (pad applied)
  logic [DwCacheTaps-1:0] win_in_d, win_in_q;       // DW: ... and which were inside the image
  logic        win_we;
  logic [DwCacheTaps*Dim*8-1:0] dwc_d, dwc_q;       // DW: the kernel's weight rows
  logic        dwc_we;
  logic [Dim*32-1:0] dwsum_d, dwsum_q;             // written only while a DW tap is in c1
  logic        dwsum_we;
  logic        arr_valid;
  logic        dw_mode_d, dw_mode_q;                // c1 belongs to a DWCONV
  assign dw_mode_d = (state_d == StDw) || (state_q == StDw);
  logic [Dim*32-1:0] arr_out;

  // tap address and tap_in test (shared by MATMUL and DWCONV)
  logic        tap_in;
  // The SPAD address is the low SAw bits of in + iy*in_pitch + ix: computed
  // modulo 2^SAw from the low bits of each term (same bits, a SAw x SAw
  // multiply instead of 34 x 34).
  logic [SAw-1:0] tap_row, tap_line;               // tap_line: in + iy*in_pitch
  // only while streaming (an idle unit skips the multiply)
  always_comb begin
    tap_in   = 1'b0;
    tap_line = '0;
    tap_row  = '0;
    if (state_q == StMatmul || state_q == StDw) begin
      tap_in   = (iy_q >= 0) && (iy_q < $signed({14'd0, in_h_q})) &&
                 (ix_q >= 0) && (ix_q < $signed({14'd0, in_w_q}));
      tap_line = SAw'(pbase_q) + SAw'(iy_q) * SAw'(in_pitch_q);
      tap_row  = tap_line + SAw'(ix_q);
    end
  end

  // DW pairs: the tap after the current one (next kernel column, or the
  // first column of the next kernel row), its inside test and SPAD row (from
  // tap_row's terms: adders and dil_y (3 bits) times in_pitch)
  // (a sliding pixel's kernel rows start at column kx0 = kw - stride_x, its
  // first new one; dil_x is 1 then)
  logic signed [23:0] iy2, ix2;
  logic        tap2_in;
  logic [SAw-1:0] tap2_row;
  logic        dw_slide;                            // DW: this pixel reuses the window
  logic [7:0]  kx0, kx_skip;
  assign kx_skip  = kw_q - {5'd0, sx_q};
  assign dw_slide = dws_on_q && x_q != 10'd0;
  assign kx0      = dw_slide ? kx_skip : 8'd0;
  always_comb begin
    iy2      = iy_q;
    ix2      = ix_q;
    tap2_in  = 1'b0;
    tap2_row = '0;
    if (state_q == StDw) begin
      iy2      = (kx_q == kw_q - 8'd1) ? iy_q + 24'(dy_q) : iy_q;
      ix2      = (kx_q == kw_q - 8'd1) ? pix_q + 24'(kx0) : ix_q + 24'(dx_q);
      tap2_in  = (iy2 >= 0) && (iy2 < $signed({14'd0, in_h_q})) &&
                 (ix2 >= 0) && (ix2 < $signed({14'd0, in_w_q}));
      tap2_row = tap_row + SAw'(dx_q);
      if (kx_q == kw_q - 8'd1)
        tap2_row = tap_line + SAw'(pix_q) + SAw'(kx0) + (dy_q[0] ? SAw'(in_pitch_q) : '0) +
                   (dy_q[1] ? SAw'(in_pitch_q) << 1 : '0) + (dy_q[2] ? SAw'(in_pitch_q) << 2 : '0);
    end
  end

  // DW window slots (tap t = ky*kw + kx) a sliding pixel takes from the
  // window: kx + stride_x < kw; fixed while a command runs (its CFG_EXEC).
  // olist: their indices in order; cycle j of a sliding pixel multiplies
  // olist[j*DwOldMul ..], so a kernel slides when its nold old slots fit
  // the ceil(new/2) cycles its new rows take (3x3: 6 in 2 at stride 1).
  logic [DwCacheTaps-1:0] dw_old;
  logic [7:0]  okx;
  logic [Nw-1:0] nold, nnew;                        // how many old / new slots
  logic [DwCacheTaps*Cw-1:0] olist;                  // (packed: yosys keeps it in registers)
  logic        dws_ok;                              // the command's kernel slides
  always_comb begin
    okx  = '0;
    nold = '0;
    olist = '0;
    for (int k = 0; k < DwCacheTaps; k++) begin
      dw_old[k] = ({1'b0, okx} + 9'(sx_q) < {1'b0, kw_q}) && (24'(k) < npass_q);
      if (dw_old[k]) olist[32'(nold)*Cw +: Cw] = Cw'(k);
      nold = nold + Nw'(dw_old[k]);
      okx  = (okx == kw_q - 8'd1) ? 8'd0 : okx + 8'd1;
    end
    nnew   = Nw'(npass_q) - nold;
    dws_ok = DwSlide && dwc_on_q && dx_q == 3'd1 && sx_q <= 3'd2 && {5'd0, sx_q} < kw_q &&
             16'(nold) <= 16'(DwOldMul) * ((16'(nnew) + 16'd1) >> 1);
  end

  logic last_x, last_y, last_kx, last_cb, last_pass, last2, dw_cached, dw_two;
  logic [23:0] pass2;                               // DW: the second tap's index
  logic [7:0]  dw_kx;                               // DW: this cycle's last tap: column,
  logic signed [23:0] dw_iy, dw_ix;                 //   coordinates,
  logic        dw_kx_last;                          //   last column of its kernel row
  logic [Dim*8-1:0] pad_row;
  assign pad_row = {Dim{pad_q}};

  logic [31:0] base;
  logic signed [19:0] prod;                          // DW: a lane's products this cycle
  logic [Dim*8-1:0] v1, v2;                          // DW: c1's tap rows, pad applied
  logic [Nw-1:0] nold_in;                            // DW: reused taps inside the image
  logic [DwOldMul*Cw-1:0] oslot;                     // DW: c1's old slots
  logic [DwOldMul*Dim*8-1:0] old_x, old_w;           // DW: ... their window and weight rows
  logic [Cw+1:0] oidx;                               // DW: an old slot's place in olist
  // Data registers change only while the unit works (or takes a command):
  // written with that enable, an idle unit costs the simulator no copies.
  logic act;
  assign act = (state_q != StIdle) || cmd_valid_i;

  always_comb begin
    base       = '0;
    prod       = '0;
    state_d    = state_q;
    cfg_d      = clr_i ? '0 : cmd_i;
    cfg_we     = clr_i;
    cmd_d      = cmd_i;
    side_d     = cmd_side_i;
    cmd_we     = 1'b0;
    full_d     = full_q;
    plw_d      = 1'b0;
    s1_d       = 1'b0;
    dww_d      = 1'b0;
    dwsum_d    = '0;
    dwsum_we   = 1'b0;
    dwc_d      = dwc_q;
    dwc_we     = 1'b0;
    win_d      = win_q;
    win_in_d   = win_in_q;
    win_we     = 1'b0;
    v1         = '0;
    v2         = '0;
    nold_in    = '0;
    oslot      = '0;
    old_x      = '0;
    old_w      = '0;
    oidx       = '0;
    cmd_ready_o     = 1'b0;
    done_o          = 1'b0;
    spad_a_re_o     = 1'b0;
    spad_a_addr_o   = tap_row;
    spad_b_re_o     = 1'b0;
    spad_b_addr_o   = pl_addr_q;
    acc_re_o        = 1'b0;
    acc_raddr_o     = AAw'(aline_q + 24'(x_q));
    stall_preload_o = 1'b0;
    macs_o          = '0;
    spad_rd_bytes_o = '0;
    acc_rd_bytes_o  = '0;
    acc_wr_bytes_o  = '0;
    last_x    = (x_q == ow_q - 10'd1);
    last_y    = (y_q == oh_q - 10'd1);
    last_kx   = (kx_q == kw_q - 8'd1);
    last_cb   = (cb_q == ncb_q - 8'd1);
    last_pass = (pass_q == npass_q - 24'd1);
    // DW: weights from the cache (a cached kernel after its first pixel);
    // two taps this cycle when two are left at least
    pass2      = pass_q + 24'd1 + (last_kx ? 24'(kx0) : 24'd0);
    last2      = (pass2 == npass_q - 24'd1);
    dw_cached  = dwc_on_q && (x_q != 10'd0 || y_q != 10'd0);
    dw_two     = dw_cached && !last_pass;
    dw_kx      = dw_two ? (last_kx ? kx0 : kx_q + 8'd1) : kx_q;
    dw_iy      = dw_two ? iy2 : iy_q;
    dw_ix      = dw_two ? ix2 : ix_q;
    dw_kx_last = (dw_kx == kw_q - 8'd1);

    // preload data arriving from SPAD port B goes into the array (see below)
    if (plw_q && plw_row_q == Rw'(Dim - Pl)) full_d[plw_bank_q] = 1'b1;

    // Idle with nothing offered: the registers below are not written (act),
    // so the simulator skips the state decode of every split block.
    if (act) begin
      pass_d     = pass_q;
      npass_d    = npass_q;
      ky_d       = ky_q;
      kx_d       = kx_q;
      cb_d       = cb_q;
      y_d        = y_q;
      x_d        = x_q;
      piy_d      = piy_q;
      pix_d      = pix_q;
      iy_d       = iy_q;
      ix_d       = ix_q;
      pbase_d    = pbase_q;
      aline_d    = aline_q;
      waddr_d    = waddr_q;
      gap_d      = (gap_q != 2'd0) ? gap_q - 2'd1 : 2'd0;
      rows_d     = rows_q;
      dwc_on_d   = dwc_on_q;
      dws_on_d   = dws_on_q;
      pl_pass_d  = pl_pass_q;
      pl_row_d   = pl_row_q;
      pl_addr_d  = pl_addr_q;
      plw_bank_d = pl_pass_q[0];
      plw_row_d  = pl_row_q;
      s1_in_d    = tap_in;
      s1_rd_d    = 1'b0;
      s1_bank_d  = pass_q[0];
      s1_first_d = 1'b0;
      s1_last_d  = 1'b0;
      s1_addr_d  = AAw'(aline_q + 24'(x_q));
      s2_addr_d  = s1_addr_q;
      s1_two_d   = 1'b0;
      s1_in2_d   = tap2_in;
      s1_fill_d  = 1'b0;
      s1_wc_d    = 1'b0;
      s1_widx_d  = Cw'(pass_q);
      s1_widx2_d = Cw'(pass2);
      s1_old_d   = 1'b0;
      pj_d       = pj_q + 2'd1;
      s1_pj_d    = pj_q;

      unique case (state_q)
        StIdle: begin
          cmd_ready_o = 1'b1;
          if (cmd_valid_i) begin
            unique case (cmd_i[7:0])
              tessel_isa_pkg::OpCfgExec: begin
                cfg_we = 1'b1;
                done_o = 1'b1;
              end
              tessel_isa_pkg::OpMatmul, tessel_isa_pkg::OpDwconv: begin
                cmd_we  = 1'b1;
                pass_d  = '0;
                ky_d    = '0;
                kx_d    = '0;
                cb_d    = '0;
                y_d     = '0;
                x_d     = '0;
                aline_d = 24'(cmd_i[79:64]);
                pbase_d = $signed(cmd_side_i[81:48]);
                piy_d   = $signed(cmd_side_i[47:24]);
                pix_d   = $signed(cmd_side_i[23:0]);
                iy_d    = $signed(cmd_side_i[47:24]);
                ix_d    = $signed(cmd_side_i[23:0]);
                waddr_d = cmd_i[63:48];
                gap_d   = '0;
                rows_d  = 20'(cmd_i[25:16]) * 20'(cmd_i[89:80]);
                full_d  = '0;
                pl_pass_d = '0;
                pl_row_d  = '0;
                pl_addr_d = SAw'(cmd_i[63:48]);
                if (cmd_i[7:0] == tessel_isa_pkg::OpMatmul) begin
                  npass_d = 24'(kh_q) * 24'(kw_q) * 24'(ncb_q);
                  state_d = StMatmul;
                end else begin
                  npass_d = 24'(kh_q) * 24'(kw_q);
                  state_d = StDw;
                  dwc_on_d = DwPair && (npass_d <= 24'(DwCacheTaps));
                  dws_on_d = 1'b0;   // decided in the first cycle (dws_ok needs npass)
                  // weights are read once per tap in the counters' model
                  spad_rd_bytes_o = 16'(npass_d * 24'(Dim));
                end
              end
              tessel_isa_pkg::OpCfgVec, tessel_isa_pkg::OpVadd, tessel_isa_pkg::OpVpool: begin
                if (cmd_i[7:0] == tessel_isa_pkg::OpCfgVec) done_o = 1'b1;   // latched by npu_vec at once
                else state_d = StVec;
              end
              default: done_o = 1'b1;   // ENOP
            endcase
          end
        end

        StMatmul: begin
          // preloader: next weight rows into the free bank
          if (pl_pass_q < npass_q && !full_q[pl_pass_q[0]] &&
              !(plw_q && plw_bank_q == pl_pass_q[0] && plw_row_q == Rw'(Dim - Pl))) begin
            spad_b_re_o     = 1'b1;
            spad_b_addr_o   = pl_addr_q;
            spad_rd_bytes_o = 16'(Pl * Dim);
            plw_d      = 1'b1;
            plw_bank_d = pl_pass_q[0];
            plw_row_d  = pl_row_q;
            pl_addr_d  = pl_addr_q + SAw'(Pl);
            pl_row_d   = pl_row_q + Rw'(Pl);
            if (pl_row_q == Rw'(Dim - Pl)) pl_pass_d = pl_pass_q + 24'd1;
          end
          // streamer: one tap row per cycle once the pass's bank is full
          if (full_q[pass_q[0]] && gap_q == 2'd0) begin
              spad_a_re_o = tap_in;
            acc_re_o    = accum_q || (pass_q != 24'd0);
            s1_d        = 1'b1;
            s1_rd_d     = acc_re_o;
            macs_o      = 16'(Dim * Dim);
            spad_rd_bytes_o = spad_rd_bytes_o + (tap_in ? 16'(Dim) : 16'd0);
            acc_rd_bytes_o  = acc_re_o ? 16'(4 * Dim) : 16'd0;
            x_d  = x_q + 10'd1;
            ix_d = ix_q + 24'(sx_q);
            if (last_x) begin
              x_d     = '0;
              ix_d    = pix_q;
              y_d     = y_q + 10'd1;
              iy_d    = iy_q + 24'(sy_q);
              aline_d = aline_q + 24'(out_pitch_q);
              if (last_y) begin
                // end of the pass: release its bank, move to the next pass
                full_d[pass_q[0]] = 1'b0;
                pass_d  = pass_q + 24'd1;
                y_d     = '0;
                aline_d = 24'(acc_q);
                gap_d   = (rows_q < 20'd3) ? 2'(20'd3 - rows_q) : 2'd0;
                cb_d    = cb_q + 8'd1;
                pbase_d = pbase_q + 34'(cb_stride_q);
                if (last_cb) begin
                  cb_d    = '0;
                  pbase_d = in_q;
                  kx_d    = kx_q + 8'd1;
                  pix_d   = pix_q + 24'(dx_q);
                  if (last_kx) begin
                    kx_d  = '0;
                    pix_d = ix0_q;
                    ky_d  = ky_q + 8'd1;
                    piy_d = piy_q + 24'(dy_q);
                  end
                end
                ix_d = pix_d;
                iy_d = piy_d;
                if (last_pass) state_d = StDrain;
              end
            end
          end else begin
            stall_preload_o = 1'b1;
          end
        end

        StDw: begin
          // the first tap on port A; its weight row on port B (uncached
          // kernels, a cached kernel's first pixel), or the second tap there
          spad_a_re_o     = tap_in;
          spad_b_re_o     = dw_two ? tap2_in : !dw_cached;
          spad_b_addr_o   = dw_two ? tap2_row : SAw'(waddr_q);
          s1_d            = 1'b1;
          s1_two_d        = dw_two;
          s1_fill_d       = dwc_on_q && !dw_cached;
          s1_wc_d         = dw_cached;
          s1_first_d      = (pass_q == 24'(kx0));
          s1_old_d        = dw_slide;
          // the first pixel's first cycle: the slide decision (a 1-tap
          // kernel, the only one ending its first pixel here, never slides)
          if (pass_q == 24'd0 && x_q == 10'd0 && y_q == 10'd0) dws_on_d = dws_ok;
          s1_last_d       = dw_two ? last2 : last_pass;
          s1_rd_d         = accum_q && s1_first_d;
          acc_re_o        = s1_rd_d;
          macs_o          = (dw_two ? 16'(2 * Dim) : 16'(Dim)) +
                            (s1_old_d && s1_first_d ? 16'(nold) * 16'(Dim) : 16'd0);
          spad_rd_bytes_o = (tap_in ? 16'(Dim) : 16'd0) + (dw_two && tap2_in ? 16'(Dim) : 16'd0);
          acc_rd_bytes_o  = s1_rd_d ? 16'(4 * Dim) : 16'd0;
          // the tap after this cycle's last one (the second when two; pass
          // counts the taps, ky is not needed), or the first tap of the next pixel
          pass_d  = (dw_two ? pass2 : pass_q) + 24'd1;
          waddr_d = waddr_q + 16'd1;
          kx_d    = dw_kx + 8'd1;
          ix_d    = dw_ix + 24'(dx_q);
          iy_d    = dw_iy;
          if (dw_kx_last) begin
            pass_d = pass_d + 24'(kx0);
            kx_d   = kx0;
            ix_d   = pix_q + 24'(kx0);
            iy_d   = dw_iy + 24'(dy_q);
          end
          if (s1_first_d) s1_pj_d = '0;
          pj_d = s1_first_d ? 2'd1 : pj_q + 2'd1;
          if (s1_last_d) begin
            // the next pixel slides unless it starts a line
            pass_d  = (dws_on_q && !last_x) ? 24'(kx_skip) : 24'd0;
            waddr_d = wgt_q;
            ky_d    = '0;
            kx_d    = 8'(pass_d);
            x_d     = x_q + 10'd1;
            pix_d   = pix_q + 24'(sx_q);
            if (last_x) begin
              x_d     = '0;
              pix_d   = ix0_q;
              y_d     = y_q + 10'd1;
              piy_d   = piy_q + 24'(sy_q);
              aline_d = aline_q + 24'(out_pitch_q);
              if (last_y) state_d = StDrain;
            end
            ix_d = pix_d + 24'(kx_d);
            iy_d = piy_d;
          end
        end

        StVec: begin
          spad_a_re_o   = v_a_re;
          spad_a_addr_o = v_a_addr;
          spad_b_re_o   = v_b_re;
          spad_b_addr_o = v_b_addr;
          spad_rd_bytes_o = v_rd_bytes;
          if (v_done) begin
            done_o  = 1'b1;
            state_d = StIdle;
          end
        end

        StDrain: begin
          if (!s1_q && !arr_valid && !dww_q) begin
            done_o  = 1'b1;
            state_d = StIdle;
          end
        end

        default: state_d = StIdle;
      endcase
    end else begin
      pass_d = '0;
      npass_d = '0;
      ky_d = '0;
      kx_d = '0;
      cb_d = '0;
      y_d = '0;
      x_d = '0;
      piy_d = '0;
      pix_d = '0;
      iy_d = '0;
      ix_d = '0;
      pbase_d = '0;
      aline_d = '0;
      waddr_d = '0;
      gap_d = '0;
      rows_d = '0;
      dwc_on_d = '0;
      dws_on_d = '0;
      pl_pass_d = '0;
      pl_row_d = '0;
      pl_addr_d = '0;
      plw_bank_d = '0;
      plw_row_d = '0;
      s1_in_d = '0;
      s1_rd_d = '0;
      s1_bank_d = '0;
      s1_first_d = '0;
      s1_last_d = '0;
      s1_addr_d = '0;
      s2_addr_d = '0;
      s1_two_d = '0;
      s1_in2_d = '0;
      s1_fill_d = '0;
      s1_wc_d = '0;
      s1_widx_d = '0;
      s1_widx2_d = '0;
      s1_old_d = '0;
      pj_d = '0;
      s1_pj_d = '0;
      cmd_ready_o = 1'b1;
    end

    // DW: c1 sums the lane products (of one tap, or two, and up to DwOldMul
    // of a sliding pixel's reused taps); the last tap of a pixel writes
    // in c2; a cached kernel's first pixel fills the cache; a sliding kernel
    // keeps its tap rows in the window, shifted stride_x columns after a
    // pixel's last tap
    if (s1_q && dw_mode_q) begin
      dwsum_we = 1'b1;
      // (an index past the list is not used: the wrap keeps it in range;
      // pj * DwOldMul + m < 2 * DwCacheTaps, so one subtraction is the
      // modulo). The rows by constant selects: an index computed into a
      // part-select made yosys build a 576-bit shifter per lane and slot
      // and a 32-bit modulo per slot, about 30 k LUTs of npu8's Xilinx
      // mapping (docs/npu-rtl.md "Area").
      for (int m = 0; m < DwOldMul; m++) begin
        oidx = (Cw + 2)'(s1_pj_q) * (Cw + 2)'(DwOldMul) + (Cw + 2)'(m);
        if (oidx >= (Cw + 2)'(DwCacheTaps)) oidx = oidx - (Cw + 2)'(DwCacheTaps);
        oslot[m*Cw +: Cw] = '0;
        for (int k = 0; k < DwCacheTaps; k++)
          if (oidx == (Cw + 2)'(k)) oslot[m*Cw +: Cw] = olist[k*Cw +: Cw];
        old_x[m*Dim*8 +: Dim*8] = '0;
        old_w[m*Dim*8 +: Dim*8] = '0;
        for (int k = 0; k < DwCacheTaps; k++)
          if (oslot[m*Cw +: Cw] == Cw'(k)) begin
            old_x[m*Dim*8 +: Dim*8] = win_q[k*Dim*8 +: Dim*8];
            old_w[m*Dim*8 +: Dim*8] = dwc_q[k*Dim*8 +: Dim*8];
          end
      end
      v1 = s1_in_q ? spad_a_rdata_i : pad_row;
      v2 = s1_in2_q ? spad_b_row : pad_row;
      for (int n = 0; n < Dim; n++) begin
        base = s1_first_q ? (s1_rd_q ? acc_rdata_i[n*32 +: 32] : 32'd0) : dwsum_q[n*32 +: 32];
        // the products summed at 20 bits first: one 32-bit adder per lane
        prod = 20'($signed(v1[n*8 +: 8]) * $signed(dw_w1[n*8 +: 8]));
        if (s1_two_q) prod = prod + 20'($signed(v2[n*8 +: 8]) * $signed(dw_w2[n*8 +: 8]));
        // a sliding pixel's old slots, DwOldMul a cycle
        if (s1_old_q)
          for (int m = 0; m < DwOldMul; m++)
            if (16'(s1_pj_q) * 16'(DwOldMul) + 16'(m) < 16'(nold))
              prod = prod + 20'($signed(old_x[m*Dim*8 + n*8 +: 8]) * $signed(old_w[m*Dim*8 + n*8 +: 8]));
        dwsum_d[n*32 +: 32] = base + 32'(prod);
      end
      dww_d = s1_last_q;
      dwc_we = s1_fill_q;
      for (int k = 0; k < DwCacheTaps; k++)
        if (Cw'(k) == s1_widx_q) dwc_d[k*Dim*8 +: Dim*8] = spad_b_row;
      if (s1_old_q && s1_first_q)
        for (int k = 0; k < DwCacheTaps; k++) nold_in = nold_in + Nw'(dw_old[k] && win_in_q[k]);
      spad_rd_bytes_o = spad_rd_bytes_o + 16'(nold_in) * 16'(Dim);
      win_we = dws_on_q;
      for (int k = 0; k < DwCacheTaps; k++) begin
        if (Cw'(k) == s1_widx_q) begin
          win_d[k*Dim*8 +: Dim*8] = v1;
          win_in_d[k] = s1_in_q;
        end
        if (s1_two_q && Cw'(k) == s1_widx2_q) begin
          win_d[k*Dim*8 +: Dim*8] = v2;
          win_in_d[k] = s1_in2_q;
        end
      end
      // (stride_x is 1 or 2; an old slot's k + stride_x is a tap of its
      // kernel row, below DwCacheTaps: the modulo only keeps the unreachable
      // selects in range, and is of constants: stride 2 or not picks one)
      if (s1_last_q)
        for (int k = 0; k < DwCacheTaps - 1; k++)
          if (dw_old[k]) begin
            if (sx_q[1]) begin
              win_d[k*Dim*8 +: Dim*8] = win_d[((k + 2) % DwCacheTaps)*Dim*8 +: Dim*8];
              win_in_d[k] = win_in_d[(k + 2) % DwCacheTaps];
            end else begin
              win_d[k*Dim*8 +: Dim*8] = win_d[((k + 1) % DwCacheTaps)*Dim*8 +: Dim*8];
              win_in_d[k] = win_in_d[(k + 1) % DwCacheTaps];
            end
          end
    end
  end

  // accumulator write: the array's row (MATMUL) or the finished pixel (DW)
  always_comb begin
    acc_we_o       = arr_valid || dww_q;
    acc_waddr_o    = s2_addr_q;
    acc_wdata_o    = '0;                           // only looked at with acc_we_o
    if (dww_q) acc_wdata_o = dwsum_q;
    else if (arr_valid) acc_wdata_o = arr_out;
    acc_wr_bytes_o = acc_we_o ? 16'(4 * Dim) : 16'd0;
    busy_o         = (state_q != StIdle) || v_busy;
  end

  // row b of port B (DW weights or second taps, the vector unit)
  logic [Dim*8-1:0] spad_b_row;
  assign spad_b_row = spad_b_rdata_i[Dim*8-1:0];

  // DW weights of c1's taps: port B's row, or cache rows widx and widx2
  logic [Dim*8-1:0] dw_w1, dw_w2;
  always_comb begin
    dw_w1 = spad_b_row;
    dw_w2 = '0;
    for (int k = 0; k < DwCacheTaps; k++) begin
      if (s1_wc_q && Cw'(k) == s1_widx_q) dw_w1 = dwc_q[k*Dim*8 +: Dim*8];
      if (Cw'(k) == s1_widx2_q) dw_w2 = dwc_q[k*Dim*8 +: Dim*8];
    end
  end

  // the vector unit: CFG_VEC, VADD, VPOOL
  logic              v_done, v_busy, v_a_re, v_b_re;
  logic [SAw-1:0]    v_a_addr, v_b_addr;
  logic [15:0]       v_rd_bytes;
  npu_vec #(.Dim(Dim), .SpadRows(SpadRows)) u_vec (
    .clk_i, .rst_ni, .clr_i,
    .cmd_valid_i     (state_q == StIdle && cmd_valid_i &&
                      (cmd_i[7:0] == tessel_isa_pkg::OpCfgVec || cmd_i[7:0] == tessel_isa_pkg::OpVadd ||
                       cmd_i[7:0] == tessel_isa_pkg::OpVpool)),
    .cmd_i, .cmd_side_i,
    .geom_i          (cfg_q),
    .done_o          (v_done),
    .busy_o          (v_busy),
    .spad_a_re_o     (v_a_re),
    .spad_a_addr_o   (v_a_addr),
    .spad_a_rdata_i  (spad_a_rdata_i),
    .spad_b_re_o     (v_b_re),
    .spad_b_addr_o   (v_b_addr),
    .spad_b_rdata_i  (spad_b_row),
    .spad_we_o       (spad_we_o),
    .spad_waddr_o    (spad_waddr_o),
    .spad_wdata_o    (spad_wdata_o),
    .spad_rd_bytes_o (v_rd_bytes),
    .spad_wr_bytes_o (spad_wr_bytes_o)
  );

  npu_array #(.Dim(Dim), .Pl(Pl)) u_array (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .wld_valid_i (plw_q),
    .wld_bank_i  (plw_bank_q),
    .wld_row_i   (plw_row_q),
    .wld_data_i  (spad_b_rdata_i),
    .in_valid_i  (s1_q && !dw_mode_q),
    .in_bank_i   (s1_bank_q),
    .in_row_i    (s1_in_q ? spad_a_rdata_i : pad_row),
    .in_base_i   (s1_rd_q ? acc_rdata_i : '0),
    .out_valid_o (arr_valid),
    .out_o       (arr_out)
  );


  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      cfg_q     <= '0;
      full_q    <= '0;
      plw_q     <= 1'b0;
      s1_q      <= 1'b0;
      dww_q     <= 1'b0;
      dw_mode_q <= 1'b0;
    end else begin
      state_q   <= state_d;
      if (cfg_we) cfg_q <= cfg_d;
      full_q    <= full_d;
      plw_q     <= plw_d;
      s1_q      <= s1_d;
      dww_q     <= dww_d;
      dw_mode_q <= dw_mode_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (act) begin
      pass_q     <= pass_d;
      npass_q    <= npass_d;
      ky_q       <= ky_d;
      kx_q       <= kx_d;
      cb_q       <= cb_d;
      y_q        <= y_d;
      x_q        <= x_d;
      piy_q      <= piy_d;
      pix_q      <= pix_d;
      iy_q       <= iy_d;
      ix_q       <= ix_d;
      pbase_q    <= pbase_d;
      aline_q    <= aline_d;
      waddr_q    <= waddr_d;
      gap_q      <= gap_d;
      rows_q     <= rows_d;
      dwc_on_q   <= dwc_on_d;
      dws_on_q   <= dws_on_d;
      pl_pass_q  <= pl_pass_d;
      pl_row_q   <= pl_row_d;
      pl_addr_q  <= pl_addr_d;
      plw_bank_q <= plw_bank_d;
      plw_row_q  <= plw_row_d;
      s1_in_q    <= s1_in_d;
      s1_rd_q    <= s1_rd_d;
      s1_bank_q  <= s1_bank_d;
      s1_first_q <= s1_first_d;
      s1_last_q  <= s1_last_d;
      s1_addr_q  <= s1_addr_d;
      s2_addr_q  <= s2_addr_d;
      s1_two_q   <= s1_two_d;
      s1_in2_q   <= s1_in2_d;
      s1_fill_q  <= s1_fill_d;
      s1_wc_q    <= s1_wc_d;
      s1_widx_q  <= s1_widx_d;
      s1_widx2_q <= s1_widx2_d;
      s1_old_q   <= s1_old_d;
      pj_q       <= pj_d;
      s1_pj_q    <= s1_pj_d;
    end
    if (cmd_we) begin
      cmd_q  <= cmd_d;
      side_q <= side_d;
    end
    if (dwsum_we) dwsum_q <= dwsum_d;
    if (dwc_we) dwc_q <= dwc_d;
    if (win_we) begin
      win_q    <= win_d;
      win_in_q <= win_in_d;
    end
  end
endmodule

`default_nettype wire
