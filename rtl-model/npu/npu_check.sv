// npu_check: the dispatcher's checks of one queue command (docs/isa.md
// sections 3 and 7), combinational. Takes the command words, the loop offsets
// of its slots and the configuration registers as set by earlier commands of
// the stream; returns the first error in the ISA's order (BAD_FIELD: reserved
// bits, token flags, field values; then ranges in operand order; then
// OVERLAP) and the effective command: slot fields replaced by their loop-
// adjusted values, plus a side band with the values that may not fit their
// field (MATMUL/DWCONV/VPOOL `in`, `iy0`, `ix0`: a virtual input row and tap
// coordinates far outside the image are legal).
// Arithmetic is on 64-bit signed values, so no sum or product below wraps.
`default_nettype none

module npu_check #(
  parameter int unsigned Dim       = tessel_target_pkg::Dim,
  parameter int unsigned SpadRows  = tessel_target_pkg::SpadRows,
  parameter int unsigned AccRows   = tessel_target_pkg::AccRows,
  parameter int unsigned ParamRows = tessel_target_pkg::ParamRows
) (
  input  wire logic [127:0]       cmd_i,
  input  wire logic [8*64-1:0]    off_i,          // slot offsets A..H, 64-bit signed each
  // the configuration registers are whole commands; the checks read a few fields
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [127:0]       cfg_load_i,
  input  wire logic [127:0]       cfg_exec_i,
  input  wire logic [127:0]       cfg_vec_i,
  input  wire logic [127:0]       cfg_store_i,
  input  wire logic [127:0]       cfg_epi_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic [31:0]        dram_size_i,
  input  wire logic               en_i,           // outputs are looked at this cycle
  output      logic [7:0]         err_o,
  output      logic [127:0]       eff_o,          // the command with effective slot fields
  output      logic [81:0]        side_o          // {in[33:0], iy0[23:0], ix0[23:0]}
);
  typedef logic signed [63:0] s64_t;

  // Used bits per command: generated from targets/isa.def with the C header's
  // TSL_<CMD>_USED_W*, so the checker cannot drift from the encoding.
  function automatic logic [127:0] used_mask(logic [7:0] op);
    unique case (op)
      tessel_isa_pkg::OpCfgLoad:  used_mask = tessel_isa_pkg::OpCfgLoadUsed;
      tessel_isa_pkg::OpLoad:     used_mask = tessel_isa_pkg::OpLoadUsed;
      tessel_isa_pkg::OpCfgExec:  used_mask = tessel_isa_pkg::OpCfgExecUsed;
      tessel_isa_pkg::OpMatmul:   used_mask = tessel_isa_pkg::OpMatmulUsed;
      tessel_isa_pkg::OpDwconv:   used_mask = tessel_isa_pkg::OpDwconvUsed;
      tessel_isa_pkg::OpCfgVec:   used_mask = tessel_isa_pkg::OpCfgVecUsed;
      tessel_isa_pkg::OpVadd:     used_mask = tessel_isa_pkg::OpVaddUsed;
      tessel_isa_pkg::OpVpool:    used_mask = tessel_isa_pkg::OpVpoolUsed;
      tessel_isa_pkg::OpEnop:     used_mask = tessel_isa_pkg::OpEnopUsed;
      tessel_isa_pkg::OpCfgStore: used_mask = tessel_isa_pkg::OpCfgStoreUsed;
      tessel_isa_pkg::OpCfgEpi:   used_mask = tessel_isa_pkg::OpCfgEpiUsed;
      tessel_isa_pkg::OpStore:    used_mask = tessel_isa_pkg::OpStoreUsed;
      default:                    used_mask = '1;
    endcase
  endfunction

  function automatic logic rows_ok(s64_t lo, s64_t hi, s64_t rows);
    rows_ok = (lo >= 0) && (hi < rows) && (lo <= hi);
  endfunction

  function automatic logic overlaps(s64_t a0, s64_t a1, s64_t b0, s64_t b1);
    overlaps = (a0 <= a1) && (b0 <= b1) && (a0 <= b1) && (b0 <= a1);
  endfunction

  localparam logic signed [63:0] SRows = 64'(SpadRows);
  localparam logic signed [63:0] ARows = 64'(AccRows);
  localparam logic signed [63:0] PRows = 64'(ParamRows);
  localparam logic signed [63:0] SDim  = 64'(Dim);

  logic [7:0] op;
  s64_t off [8];
  // Every block below computes only when en_i (the dispatcher's check
  // state): the simulator evaluates each block every cycle otherwise.
  always_comb begin
    for (int k = 0; k < 8; k++) off[k] = en_i ? $signed(off_i[k*64 +: 64]) : 64'sd0;
  end
  assign op = cmd_i[7:0];

  // configuration fields
  s64_t ld_sx, ld_sy, ld_sz;
  s64_t g_out_pitch, g_kh, g_kw, g_ncb, g_sy, g_sx, g_dy, g_dx, g_in_h, g_in_w, g_in_pitch, g_cb_stride;
  s64_t v_shift, v_lo, v_hi;
  s64_t st_src_pitch, st_sx, st_sy, st_spad_pitch;
  s64_t e_pool_k, e_pool_s, e_src_h, e_src_w;
  always_comb begin
    {ld_sx, ld_sy, ld_sz} = '0;
    {g_out_pitch, g_kh, g_kw, g_ncb, g_sy, g_sx, g_dy, g_dx, g_in_h, g_in_w, g_in_pitch, g_cb_stride} = '0;
    {v_shift, v_lo, v_hi, st_src_pitch, st_sx, st_sy, st_spad_pitch, e_pool_k, e_pool_s, e_src_h, e_src_w} = '0;
    if (en_i) begin
    ld_sx = 64'(cfg_load_i[tessel_isa_pkg::CfgLoadStrideXLsb +: tessel_isa_pkg::CfgLoadStrideXWidth]);
    ld_sy = 64'(cfg_load_i[tessel_isa_pkg::CfgLoadStrideYLsb +: tessel_isa_pkg::CfgLoadStrideYWidth]);
    ld_sz = 64'(cfg_load_i[tessel_isa_pkg::CfgLoadStrideZLsb +: tessel_isa_pkg::CfgLoadStrideZWidth]);
    g_out_pitch = 64'(cfg_exec_i[tessel_isa_pkg::CfgExecOutPitchLsb +: tessel_isa_pkg::CfgExecOutPitchWidth]);
    g_kh        = 64'(cfg_exec_i[tessel_isa_pkg::CfgExecKhLsb +: tessel_isa_pkg::CfgExecKhWidth]);
    g_kw        = 64'(cfg_exec_i[tessel_isa_pkg::CfgExecKwLsb +: tessel_isa_pkg::CfgExecKwWidth]);
    g_ncb       = 64'(cfg_exec_i[tessel_isa_pkg::CfgExecNcbLsb +: tessel_isa_pkg::CfgExecNcbWidth]);
    g_sy        = 64'(cfg_exec_i[tessel_isa_pkg::CfgExecStrideYLsb +: tessel_isa_pkg::CfgExecStrideYWidth]);
    g_sx        = 64'(cfg_exec_i[tessel_isa_pkg::CfgExecStrideXLsb +: tessel_isa_pkg::CfgExecStrideXWidth]);
    g_dy        = 64'(cfg_exec_i[tessel_isa_pkg::CfgExecDilYLsb +: tessel_isa_pkg::CfgExecDilYWidth]);
    g_dx        = 64'(cfg_exec_i[tessel_isa_pkg::CfgExecDilXLsb +: tessel_isa_pkg::CfgExecDilXWidth]);
    g_in_h      = 64'(cfg_exec_i[tessel_isa_pkg::CfgExecInHLsb +: tessel_isa_pkg::CfgExecInHWidth]);
    g_in_w      = 64'(cfg_exec_i[tessel_isa_pkg::CfgExecInWLsb +: tessel_isa_pkg::CfgExecInWWidth]);
    g_in_pitch  = 64'(cfg_exec_i[tessel_isa_pkg::CfgExecInPitchLsb +: tessel_isa_pkg::CfgExecInPitchWidth]);
    g_cb_stride = 64'(cfg_exec_i[tessel_isa_pkg::CfgExecCbStrideLsb +: tessel_isa_pkg::CfgExecCbStrideWidth]);
    v_shift = 64'(cfg_vec_i[tessel_isa_pkg::CfgVecShiftLsb +: tessel_isa_pkg::CfgVecShiftWidth]);
    v_lo    = 64'($signed(cfg_vec_i[tessel_isa_pkg::CfgVecLoLsb +: tessel_isa_pkg::CfgVecLoWidth]));
    v_hi    = 64'($signed(cfg_vec_i[tessel_isa_pkg::CfgVecHiLsb +: tessel_isa_pkg::CfgVecHiWidth]));
    st_src_pitch  = 64'(cfg_store_i[tessel_isa_pkg::CfgStoreSrcPitchLsb +: tessel_isa_pkg::CfgStoreSrcPitchWidth]);
    st_sx         = 64'(cfg_store_i[tessel_isa_pkg::CfgStoreStrideXLsb +: tessel_isa_pkg::CfgStoreStrideXWidth]);
    st_sy         = 64'(cfg_store_i[tessel_isa_pkg::CfgStoreStrideYLsb +: tessel_isa_pkg::CfgStoreStrideYWidth]);
    st_spad_pitch = 64'(cfg_store_i[tessel_isa_pkg::CfgStoreSpadPitchLsb +: tessel_isa_pkg::CfgStoreSpadPitchWidth]);
    e_pool_k = 64'(cfg_epi_i[tessel_isa_pkg::CfgEpiPoolKLsb +: tessel_isa_pkg::CfgEpiPoolKWidth]);
    e_pool_s = 64'(cfg_epi_i[tessel_isa_pkg::CfgEpiPoolSLsb +: tessel_isa_pkg::CfgEpiPoolSWidth]);
    e_src_h  = 64'(cfg_epi_i[tessel_isa_pkg::CfgEpiSrcHLsb +: tessel_isa_pkg::CfgEpiSrcHWidth]);
    e_src_w  = 64'(cfg_epi_i[tessel_isa_pkg::CfgEpiSrcWLsb +: tessel_isa_pkg::CfgEpiSrcWWidth]);
    end
  end

  // ---- effective slot fields ----------------------------------------------------
  s64_t a_dram, b_row, b_in_s, c_row, d_row, e_iy0, f_ix0, g_dram, h_row;
  always_comb begin
    {a_dram, b_row, b_in_s, c_row, d_row, e_iy0, f_ix0, g_dram, h_row} = '0;
    if (en_i) begin
    a_dram = 64'(cmd_i[63:32]) + off[0];                 // LOAD, MARK dram
    b_row  = 64'(cmd_i[79:64]) + off[1];                 // LOAD row
    b_in_s = 64'($signed(cmd_i[47:32])) + off[1];        // MATMUL/DWCONV/VPOOL in (signed)
    c_row  = 64'(cmd_i[79:64]) + off[2];                 // MATMUL/DWCONV acc, VADD/VPOOL out
    d_row  = 64'(cmd_i[63:48]) + off[3];                 // MATMUL/DWCONV wgt, VADD b
    e_iy0  = 64'($signed(cmd_i[107:96])) + off[4];
    f_ix0  = 64'($signed(cmd_i[119:108])) + off[5];
    g_dram = 64'(cmd_i[63:32]) + off[6];                 // STORE dram
    h_row  = 64'(cmd_i[79:64]) + off[7];                 // STORE dst_row
    end
  end
  s64_t vadd_a;                                              // VADD a is unsigned (slot B)
  s64_t st_src, st_param;
  always_comb begin
    {vadd_a, st_src, st_param} = '0;
    if (en_i) begin
      vadd_a   = 64'(cmd_i[47:32]) + off[1];
      st_src   = 64'(cmd_i[95:80]) + off[2];
      st_param = 64'(cmd_i[111:96]) + off[3];
    end
  end

  // ---- per-command checks ---------------------------------------------------------
  logic [7:0] err;
  logic [3:0] tok;
  s64_t dsize;
  // LOAD
  s64_t l_mem, l_n0, l_nx, l_ny, l_nz, l_pt, l_pb, l_pl, l_pr, l_rows, l_last, l_ry, l_rx, l_e, l_end, l_pad;
  // conv (MATMUL, DWCONV, VPOOL)
  s64_t c_oh, c_ow, c_ncb, c_last, c_wrows, iy_lo, iy_hi, ix_lo, ix_hi, in_lo, in_hi, v_last;
  logic in_any;
  // VADD
  s64_t va_rows, va_b;
  // STORE
  s64_t s_n0, s_oh, s_ow, s_last, s_dlast, s_esz, s_end;
  logic s_src_spad, s_dst_spad, s_raw;

  // Only computed when en_i: the 64-bit range arithmetic is most of what a
  // Verilated NPU evaluates each cycle, and the dispatcher reads err_o only
  // in its check state. Otherwise err_o is ErrNone (a mux in hardware).
  always_comb begin
    err   = tessel_isa_pkg::ErrNone;
    tok   = cmd_i[11:8];
    dsize = 64'(dram_size_i);
    {l_mem, l_n0, l_nx, l_ny, l_nz, l_pt, l_pb, l_pl, l_pr, l_rows, l_last, l_ry, l_rx, l_e, l_end, l_pad} = '0;
    {c_oh, c_ow, c_ncb, c_last, c_wrows, iy_lo, iy_hi, ix_lo, ix_hi, in_lo, in_hi, v_last, in_any} = '0;
    {va_rows, va_b, s_n0, s_oh, s_ow, s_last, s_dlast, s_esz, s_end, s_src_spad, s_dst_spad, s_raw} = '0;
    if (en_i) begin
    // LOAD
    l_mem = 64'(cmd_i[13:12]);
    l_n0  = 64'(cmd_i[20:16]);
    l_pr  = 64'(cmd_i[23:21]);
    l_pad = 64'(cmd_i[31:24]);
    l_nx  = 64'(cmd_i[91:80]);
    l_pt  = 64'(cmd_i[94:92]);
    l_ny  = 64'(cmd_i[107:96]);
    l_nz  = 64'(cmd_i[119:108]);
    l_pb  = 64'(cmd_i[122:120]);
    l_pl  = 64'(cmd_i[125:123]);
    l_rows = (l_mem == 0) ? SRows : (l_mem == 1) ? ARows : PRows;
    l_last = b_row + l_nz * l_ny * l_nx - 1;
    l_ry   = l_ny - l_pt - l_pb;
    l_rx   = l_nx - l_pl - l_pr;
    l_e    = (l_mem == 0) ? 64'sd1 : (l_mem == 1) ? 64'sd4 : 64'sd9;
    l_end  = a_dram + (l_nz - 1) * ld_sz + (l_ry - 1) * ld_sy + (l_rx - 1) * ld_sx + l_n0 * l_e;
    // conv
    c_oh   = 64'(cmd_i[25:16]);
    c_ow   = 64'(cmd_i[89:80]);
    c_ncb  = (op == tessel_isa_pkg::OpMatmul) ? g_ncb : 64'sd1;
    c_last = c_row + (c_oh - 1) * g_out_pitch + c_ow - 1;
    c_wrows = (op == tessel_isa_pkg::OpMatmul) ? g_kh * g_kw * g_ncb * SDim : g_kh * g_kw;
    iy_lo  = (e_iy0 > 0) ? e_iy0 : 64'sd0;
    ix_lo  = (f_ix0 > 0) ? f_ix0 : 64'sd0;
    iy_hi  = e_iy0 + (c_oh - 1) * g_sy + (g_kh - 1) * g_dy;
    ix_hi  = f_ix0 + (c_ow - 1) * g_sx + (g_kw - 1) * g_dx;
    if (iy_hi > g_in_h - 1) iy_hi = g_in_h - 1;
    if (ix_hi > g_in_w - 1) ix_hi = g_in_w - 1;
    in_any = (iy_lo <= iy_hi) && (ix_lo <= ix_hi);
    in_lo  = in_any ? b_in_s + iy_lo * g_in_pitch + ix_lo : 64'sd1;
    in_hi  = in_any ? b_in_s + (c_ncb - 1) * g_cb_stride + iy_hi * g_in_pitch + ix_hi : 64'sd0;
    v_last = c_row + (c_oh - 1) * g_out_pitch + c_ow - 1;
    // VADD
    va_rows = 64'(cmd_i[95:80]);
    va_b    = d_row;
    // STORE
    s_src_spad = cmd_i[12];
    s_dst_spad = cmd_i[13];
    s_raw      = cmd_i[14];
    s_n0  = 64'(cmd_i[20:16]);
    s_oh  = 64'(cmd_i[31:24]);
    s_ow  = 64'(cmd_i[119:112]);
    s_last = (e_pool_k != 0) ? st_src + (e_src_h - 1) * st_src_pitch + e_src_w - 1
                             : st_src + (s_oh - 1) * st_src_pitch + s_ow - 1;
    s_dlast = h_row + (s_oh - 1) * st_spad_pitch + s_ow - 1;
    s_esz   = s_raw ? 64'sd4 : 64'sd1;
    s_end   = g_dram + (s_oh - 1) * st_sy + (s_ow - 1) * st_sx + s_n0 * s_esz;

    if ((cmd_i & ~used_mask(op)) != '0) begin
      err = tessel_isa_pkg::ErrBadField;
    end else if ((op[7:4] == 4'h1 && (tok[0] || tok[2])) || (op[7:4] == 4'h3 && (tok[1] || tok[3]))) begin
      err = tessel_isa_pkg::ErrBadField;     // LOAD has no prev, STORE no next
    end else begin
      unique case (op)
        tessel_isa_pkg::OpCfgEpi: begin
          if ($signed(cmd_i[39:32]) > $signed(cmd_i[47:40])) err = tessel_isa_pkg::ErrBadField;
        end
        tessel_isa_pkg::OpLoad: begin
          if (l_mem > 2 || l_n0 < 1 || l_n0 > SDim || l_nx < 1 || l_ny < 1 || l_nz < 1 ||
              l_pt + l_pb > l_ny || l_pl + l_pr > l_nx ||
              (l_mem == 2 && (l_n0 != SDim || l_pad != 0 || l_pt + l_pb + l_pl + l_pr != 0)))
            err = tessel_isa_pkg::ErrBadField;
          else if (!rows_ok(b_row, l_last, l_rows))
            err = (l_mem == 0) ? tessel_isa_pkg::ErrSpadRange :
                  (l_mem == 1) ? tessel_isa_pkg::ErrAccRange : tessel_isa_pkg::ErrParamRange;
          else if (l_ry != 0 && l_rx != 0 && (a_dram < 0 || l_end > dsize || a_dram >= l_end))
            err = tessel_isa_pkg::ErrDramRange;
        end
        tessel_isa_pkg::OpMatmul, tessel_isa_pkg::OpDwconv, tessel_isa_pkg::OpVpool: begin
          if (op == tessel_isa_pkg::OpVpool && (v_shift > 47 || v_lo > v_hi))
            err = tessel_isa_pkg::ErrBadField;
          else if (g_kh < 1 || g_kw < 1 || (op == tessel_isa_pkg::OpMatmul && g_ncb < 1) || g_sy < 1 ||
                   g_sx < 1 || g_dy < 1 || g_dx < 1 || g_in_h < 1 || g_in_w < 1)
            err = tessel_isa_pkg::ErrBadField;
          else if (c_oh < 1 || c_ow < 1)
            err = tessel_isa_pkg::ErrBadField;
          else if (op != tessel_isa_pkg::OpVpool && !rows_ok(c_row, c_last, ARows))
            err = tessel_isa_pkg::ErrAccRange;
          else if (op != tessel_isa_pkg::OpVpool && !rows_ok(d_row, d_row + c_wrows - 1, SRows))
            err = tessel_isa_pkg::ErrSpadRange;
          else if (in_any && !rows_ok(in_lo, in_hi, SRows))
            err = tessel_isa_pkg::ErrSpadRange;
          else if (op == tessel_isa_pkg::OpVpool && !rows_ok(c_row, v_last, SRows))
            err = tessel_isa_pkg::ErrSpadRange;
          else if (c_oh > 1 && g_out_pitch < c_ow)
            err = tessel_isa_pkg::ErrOverlap;
          else if (op == tessel_isa_pkg::OpVpool && overlaps(in_lo, in_hi, c_row, v_last))
            err = tessel_isa_pkg::ErrOverlap;
        end
        tessel_isa_pkg::OpVadd: begin
          if (va_rows < 1 || v_lo > v_hi)
            err = tessel_isa_pkg::ErrBadField;
          else if (!rows_ok(vadd_a, vadd_a + va_rows - 1, SRows) || !rows_ok(va_b, va_b + va_rows - 1, SRows) ||
                   !rows_ok(c_row, c_row + va_rows - 1, SRows))
            err = tessel_isa_pkg::ErrSpadRange;
          else if ((c_row != vadd_a && overlaps(c_row, c_row + va_rows - 1, vadd_a, vadd_a + va_rows - 1)) ||
                   (c_row != va_b && overlaps(c_row, c_row + va_rows - 1, va_b, va_b + va_rows - 1)))
            err = tessel_isa_pkg::ErrOverlap;
        end
        tessel_isa_pkg::OpStore: begin
          if (s_n0 < 1 || s_n0 > SDim || s_oh < 1 || s_ow < 1)
            err = tessel_isa_pkg::ErrBadField;
          else if (s_raw && (s_src_spad || s_dst_spad || e_pool_k != 0))
            err = tessel_isa_pkg::ErrBadField;
          else if (e_pool_k != 0 && (e_pool_s < 1 || e_src_h < 1 || e_src_w < 1))
            err = tessel_isa_pkg::ErrBadField;
          else if (!s_src_spad && !rows_ok(st_src, s_last, ARows))
            err = tessel_isa_pkg::ErrAccRange;
          else if (!s_src_spad && !s_raw && (st_param < 0 || st_param >= PRows))
            err = tessel_isa_pkg::ErrParamRange;
          else if (s_src_spad && !rows_ok(st_src, s_last, SRows))
            err = tessel_isa_pkg::ErrSpadRange;
          else if (s_dst_spad && !rows_ok(h_row, s_dlast, SRows))
            err = tessel_isa_pkg::ErrSpadRange;
          else if (s_dst_spad && s_oh > 1 && st_spad_pitch < s_ow)
            err = tessel_isa_pkg::ErrOverlap;
          else if (s_dst_spad && s_src_spad && overlaps(st_src, s_last, h_row, s_dlast))
            err = tessel_isa_pkg::ErrOverlap;
          else if (!s_dst_spad && (g_dram < 0 || s_end > dsize || g_dram >= s_end))
            err = tessel_isa_pkg::ErrDramRange;
        end
        tessel_isa_pkg::OpCfgLoad, tessel_isa_pkg::OpCfgExec, tessel_isa_pkg::OpCfgVec,
        tessel_isa_pkg::OpCfgStore, tessel_isa_pkg::OpEnop: ;
        default: err = tessel_isa_pkg::ErrBadOpcode;
      endcase
    end
    if (!is_queue_op(op)) err = tessel_isa_pkg::ErrBadOpcode;
    end
  end

  function automatic logic is_queue_op(logic [7:0] o);
    unique case (o)
      tessel_isa_pkg::OpCfgLoad, tessel_isa_pkg::OpLoad, tessel_isa_pkg::OpCfgExec, tessel_isa_pkg::OpMatmul,
      tessel_isa_pkg::OpDwconv, tessel_isa_pkg::OpCfgVec, tessel_isa_pkg::OpVadd, tessel_isa_pkg::OpVpool,
      tessel_isa_pkg::OpEnop, tessel_isa_pkg::OpCfgStore, tessel_isa_pkg::OpCfgEpi, tessel_isa_pkg::OpStore:
        is_queue_op = 1'b1;
      default: is_queue_op = 1'b0;
    endcase
  endfunction

  // ---- the effective command ---------------------------------------------------------
  // Clamping iy0/ix0 to +-2^22 keeps every tap's inside/outside test (|tap
  // offsets| < 2^14); `in` only matters when a tap is inside, and is then
  // within 2^27 of the scratchpad.
  function automatic logic [23:0] clamp24(s64_t v);
    if (v > 64'sd4194304) clamp24 = 24'sd4194304;
    else if (v < -64'sd4194304) clamp24 = -24'sd4194304;
    else clamp24 = v[23:0];
  endfunction

  always_comb begin
    eff_o  = cmd_i;
    side_o = '0;
    if (en_i) begin
    side_o = {b_in_s[33:0], clamp24(e_iy0), clamp24(f_ix0)};
    unique case (op)
      tessel_isa_pkg::OpLoad: begin
        eff_o[63:32] = a_dram[31:0];
        eff_o[79:64] = b_row[15:0];
      end
      tessel_isa_pkg::OpMatmul, tessel_isa_pkg::OpDwconv: begin
        eff_o[63:48] = d_row[15:0];
        eff_o[79:64] = c_row[15:0];
      end
      tessel_isa_pkg::OpVadd: begin
        eff_o[47:32] = vadd_a[15:0];
        eff_o[63:48] = d_row[15:0];
        eff_o[79:64] = c_row[15:0];
      end
      tessel_isa_pkg::OpVpool: begin
        eff_o[79:64] = c_row[15:0];
      end
      tessel_isa_pkg::OpStore: begin
        eff_o[63:32]  = g_dram[31:0];
        eff_o[79:64]  = h_row[15:0];
        eff_o[95:80]  = st_src[15:0];
        eff_o[111:96] = st_param[15:0];
      end
      default: ;
    endcase
    end
  end

  assign err_o = err;
endmodule

`default_nettype wire
