// npu_check: the dispatcher's checks of one queue command (docs/isa.md
// sections 3 and 7), combinational. Takes the command words, the loop offsets
// of its slots and the configuration registers as set by earlier commands of
// the stream; returns the first error in the ISA's order (BAD_FIELD: reserved
// bits, token flags, field values; then ranges in operand order; then
// OVERLAP) and the effective command: slot fields replaced by their loop-
// adjusted values, plus a side band with the values that may not fit their
// field (MATMUL/DWCONV/VPOOL `in`, `iy0`, `ix0`: a virtual input row and tap
// coordinates far outside the image are legal).
// Arithmetic is on signed values as wide as each can need (see "widths"), so
// no sum or product below wraps and the results equal the C model's int64 ones.
`default_nettype none

module npu_check #(
  parameter int unsigned Dim       = tessel_target_pkg::Dim,
  parameter int unsigned SpadRows  = tessel_target_pkg::SpadRows,
  parameter int unsigned AccRows   = tessel_target_pkg::AccRows,
  parameter int unsigned ParamRows = tessel_target_pkg::ParamRows,
  parameter int unsigned LoopDepth = tessel_target_pkg::LoopDepth
) (
  input  wire tessel_isa_pkg::cmd_t cmd_i,
  // slot offsets A..H, 64-bit signed each; only their low off_w(k) bits
  // matter (the dispatcher's loop offsets never need more, npu_dispatch)
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [8*64-1:0]    off_i,
  /* verilator lint_on UNUSEDSIGNAL */
  // the configuration registers are whole commands; the checks read a few fields
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire tessel_isa_pkg::cmd_t cfg_load_i,
  input  wire tessel_isa_pkg::cmd_t cfg_exec_i,
  input  wire tessel_isa_pkg::cmd_t cfg_vec_i,
  input  wire tessel_isa_pkg::cmd_t cfg_store_i,
  input  wire tessel_isa_pkg::cmd_t cfg_epi_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic [31:0]        dram_size_i,
  input  wire logic               en_i,           // outputs are looked at this cycle
  output      logic [7:0]         err_o,
  output      tessel_isa_pkg::cmd_t eff_o,          // the command with effective slot fields
  output      logic [81:0]        side_o          // {in[33:0], iy0[23:0], ix0[23:0]}
);

  // Used bits per command: generated from targets/isa.def with the C header's
  // TSL_<CMD>_USED_W*, so the checker cannot drift from the encoding.
  function automatic tessel_isa_pkg::cmd_t used_mask(logic [7:0] op);
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

  // ---- widths ---------------------------------------------------------------------
  // Every value below is held in as many bits as it can need, so nothing
  // wraps and every comparison gives what 64-bit (the C model's int64) gives,
  // at far less logic (docs/npu-rtl.md, "Area"):
  //   offsets (npu_dispatch): A, G OwA bits; B, C, D, H OwR; E, F OwE;
  //   DRAM bytes: a 32-bit field + an A/G offset + three products of a 12-bit
  //     count and a 32-bit stride (< 2^44 each, OwA >= 48): < 2^(OwA+1);
  //   rows: a 16-bit field + a B/C/D/H offset + products below 2^36
  //     (nz*ny*nx; weight rows < 2^29, pitches x counts < 2^26): < 2^(max(OwR,36)+1);
  //   tap coordinates: a 12-bit field + an E/F offset + (oh-1)*stride + (kh-1)*dil
  //     (< 2^14): < 2^(OwE+1).
  // A product is formed at the width of its operands; counts that may be 0
  // (n - 1 wrapping) only feed values that are looked at when they are >= 1.
  localparam int unsigned Ld  = (LoopDepth > 1) ? $clog2(LoopDepth) : 0;
  localparam int unsigned OwA = 32 + 16 + Ld, OwR = 16 + 16 + Ld, OwE = 8 + 16 + Ld;
  localparam int unsigned DW  = OwA + 3;                          // DRAM bytes
  localparam int unsigned RW  = ((OwR > 36) ? OwR : 36) + 3;      // rows
  localparam int unsigned CW  = OwE + 3;                          // tap coordinates
  typedef logic signed [DW-1:0] sd_t;
  typedef logic signed [RW-1:0] sr_t;
  typedef logic signed [CW-1:0] sc_t;

  // A count times a 3-bit stride or dilation as shifts and adds: yosys would
  // give each such product an SB_MAC16 of its own (four of them).
  function automatic logic [12:0] mul3(logic [9:0] a, logic [2:0] b);
    mul3 = (b[0] ? 13'(a) : 13'd0) + (b[1] ? {2'd0, a, 1'b0} : 13'd0) + (b[2] ? {1'b0, a, 2'd0} : 13'd0);
  endfunction

  function automatic logic rows_ok(sr_t lo, sr_t hi, sr_t rows);
    rows_ok = (lo >= 0) && (hi < rows) && (lo <= hi);
  endfunction

  function automatic logic overlaps(sr_t a0, sr_t a1, sr_t b0, sr_t b1);
    overlaps = (a0 <= a1) && (b0 <= b1) && (a0 <= b1) && (b0 <= a1);
  endfunction

  localparam sr_t SRows = RW'(SpadRows);
  localparam sr_t ARows = RW'(AccRows);
  localparam sr_t PRows = RW'(ParamRows);

  logic [7:0] op;
  sd_t offd [2];                                     // A, G
  sr_t offr [4];                                     // B, C, D, H
  sc_t offc [2];                                     // E, F
  // Every block below computes only when en_i (the dispatcher's check
  // state): the simulator evaluates each block every cycle otherwise.
  always_comb begin
    offd[0] = DW'($signed(off_i[0*64 +: OwA]));
    offr[0] = RW'($signed(off_i[1*64 +: OwR]));
    offr[1] = RW'($signed(off_i[2*64 +: OwR]));
    offr[2] = RW'($signed(off_i[3*64 +: OwR]));
    offc[0] = CW'($signed(off_i[4*64 +: OwE]));
    offc[1] = CW'($signed(off_i[5*64 +: OwE]));
    offd[1] = DW'($signed(off_i[6*64 +: OwA]));
    offr[3] = RW'($signed(off_i[7*64 +: OwR]));
    if (!en_i) begin
      offd[0] = '0;
      offd[1] = '0;
      for (int k = 0; k < 4; k++) offr[k] = '0;
      offc[0] = '0;
      offc[1] = '0;
    end
  end
  assign op = cmd_i[7:0];

  // configuration fields (unsigned unless said)
  logic [31:0] ld_sx, ld_sy, ld_sz;
  logic [15:0] g_out_pitch, g_in_pitch, g_cb_stride;
  logic [7:0]  g_kh, g_kw, g_ncb;
  logic [2:0]  g_sy, g_sx, g_dy, g_dx;
  logic [9:0]  g_in_h, g_in_w;
  logic [5:0]  v_shift;
  logic signed [7:0] v_lo, v_hi;
  logic [15:0] st_src_pitch, st_spad_pitch;
  logic [31:0] st_sx, st_sy;
  logic [2:0]  e_pool_k, e_pool_s;
  logic [7:0]  e_src_h, e_src_w;
  always_comb begin
    {ld_sx, ld_sy, ld_sz} = '0;
    {g_out_pitch, g_kh, g_kw, g_ncb, g_sy, g_sx, g_dy, g_dx, g_in_h, g_in_w, g_in_pitch, g_cb_stride} = '0;
    {v_shift, v_lo, v_hi, st_src_pitch, st_sx, st_sy, st_spad_pitch, e_pool_k, e_pool_s, e_src_h, e_src_w} = '0;
    if (en_i) begin
    ld_sx = cfg_load_i[tessel_isa_pkg::CfgLoadStrideXLsb +: 32];
    ld_sy = cfg_load_i[tessel_isa_pkg::CfgLoadStrideYLsb +: 32];
    ld_sz = cfg_load_i[tessel_isa_pkg::CfgLoadStrideZLsb +: 32];
    g_out_pitch = cfg_exec_i[tessel_isa_pkg::CfgExecOutPitchLsb +: 16];
    g_kh        = cfg_exec_i[tessel_isa_pkg::CfgExecKhLsb +: 8];
    g_kw        = cfg_exec_i[tessel_isa_pkg::CfgExecKwLsb +: 8];
    g_ncb       = cfg_exec_i[tessel_isa_pkg::CfgExecNcbLsb +: 8];
    g_sy        = cfg_exec_i[tessel_isa_pkg::CfgExecStrideYLsb +: 3];
    g_sx        = cfg_exec_i[tessel_isa_pkg::CfgExecStrideXLsb +: 3];
    g_dy        = cfg_exec_i[tessel_isa_pkg::CfgExecDilYLsb +: 3];
    g_dx        = cfg_exec_i[tessel_isa_pkg::CfgExecDilXLsb +: 3];
    g_in_h      = cfg_exec_i[tessel_isa_pkg::CfgExecInHLsb +: 10];
    g_in_w      = cfg_exec_i[tessel_isa_pkg::CfgExecInWLsb +: 10];
    g_in_pitch  = cfg_exec_i[tessel_isa_pkg::CfgExecInPitchLsb +: 16];
    g_cb_stride = cfg_exec_i[tessel_isa_pkg::CfgExecCbStrideLsb +: 16];
    v_shift = cfg_vec_i[tessel_isa_pkg::CfgVecShiftLsb +: 6];
    v_lo    = $signed(cfg_vec_i[tessel_isa_pkg::CfgVecLoLsb +: 8]);
    v_hi    = $signed(cfg_vec_i[tessel_isa_pkg::CfgVecHiLsb +: 8]);
    st_src_pitch  = cfg_store_i[tessel_isa_pkg::CfgStoreSrcPitchLsb +: 16];
    st_sx         = cfg_store_i[tessel_isa_pkg::CfgStoreStrideXLsb +: 32];
    st_sy         = cfg_store_i[tessel_isa_pkg::CfgStoreStrideYLsb +: 32];
    st_spad_pitch = cfg_store_i[tessel_isa_pkg::CfgStoreSpadPitchLsb +: 16];
    e_pool_k = cfg_epi_i[tessel_isa_pkg::CfgEpiPoolKLsb +: 3];
    e_pool_s = cfg_epi_i[tessel_isa_pkg::CfgEpiPoolSLsb +: 3];
    e_src_h  = cfg_epi_i[tessel_isa_pkg::CfgEpiSrcHLsb +: 8];
    e_src_w  = cfg_epi_i[tessel_isa_pkg::CfgEpiSrcWLsb +: 8];
    end
  end

  // ---- effective slot fields ----------------------------------------------------
  sd_t a_dram, g_dram;
  sr_t b_row, b_in_s, c_row, d_row, h_row;
  sc_t e_iy0, f_ix0;
  always_comb begin
    {a_dram, g_dram, b_row, b_in_s, c_row, d_row, h_row, e_iy0, f_ix0} = '0;
    if (en_i) begin
    a_dram = $signed(DW'(cmd_i[63:32])) + offd[0];          // LOAD, MARK dram
    b_row  = $signed(RW'(cmd_i[79:64])) + offr[0];          // LOAD row
    b_in_s = RW'($signed(cmd_i[47:32])) + offr[0];          // MATMUL/DWCONV/VPOOL in (signed)
    c_row  = $signed(RW'(cmd_i[79:64])) + offr[1];          // MATMUL/DWCONV acc, VADD/VPOOL out
    d_row  = $signed(RW'(cmd_i[63:48])) + offr[2];          // MATMUL/DWCONV wgt, VADD b
    e_iy0  = CW'($signed(cmd_i[107:96])) + offc[0];
    f_ix0  = CW'($signed(cmd_i[119:108])) + offc[1];
    g_dram = $signed(DW'(cmd_i[63:32])) + offd[1];          // STORE dram
    h_row  = $signed(RW'(cmd_i[79:64])) + offr[3];          // STORE dst_row
    end
  end
  sr_t vadd_a;                                              // VADD a is unsigned (slot B)
  sr_t st_src, st_param;
  always_comb begin
    {vadd_a, st_src, st_param} = '0;
    if (en_i) begin
      vadd_a   = $signed(RW'(cmd_i[47:32])) + offr[0];
      st_src   = $signed(RW'(cmd_i[95:80])) + offr[1];
      st_param = $signed(RW'(cmd_i[111:96])) + offr[2];
    end
  end

  // ---- per-command checks ---------------------------------------------------------
  logic [7:0] err;
  logic [3:0] tok;
  // LOAD
  logic [1:0]  l_mem;
  logic [4:0]  l_n0;
  logic [11:0] l_nx, l_ny, l_nz, l_ry, l_rx;
  logic [2:0]  l_pt, l_pb, l_pl, l_pr;
  logic [7:0]  l_pad;
  logic [11:0] l_nzm, l_rym, l_rxm;                  // nz-1, ry-1, rx-1
  sd_t dsize;
  sr_t l_rows;
  logic [8:0]  l_bytes;                              // n0 * e
  // conv (MATMUL, DWCONV, VPOOL)
  logic [9:0]  c_oh, c_ow, c_ohm, c_owm;
  logic [7:0]  c_ncb, c_ncbm, g_khm, g_kwm;
  logic [23:0] c_taps;                               // kh*kw*ncb
  logic [28:0] c_wr;                                 // weight rows
  sr_t c_wrows, in_lo, in_hi;
  sc_t iy_lo, iy_hi, ix_lo, ix_hi;
  logic [9:0]  iy_lo_u, iy_hi_u, ix_lo_u, ix_hi_u;   // the same, when in_any (0..1022)
  logic in_any;
  // VADD
  sr_t va_rows, va_b;
  // STORE
  logic [4:0]  s_n0;
  logic [7:0]  s_oh, s_ow, s_lines, s_ohm, s_owm, s_linesm;
  logic s_src_spad, s_dst_spad, s_raw;
  // Shared units. LOAD, the conv commands and STORE are checked by separate
  // arms, so their products, row ranges and DRAM end can come from one set of
  // multipliers, adders and comparators with operands chosen by the opcode
  // (same values, same cycle; npu_check was 15 wide products and two DRAM
  // end chains).
  logic        is_ld, is_st, is_va;                  // else a conv command (or unused)
  logic [11:0] pa_a, pb_a, pc_a, pd_a, pe_a;
  logic [31:0] pa_b, pb_b, pc_b;
  logic [23:0] pd_b;
  logic [15:0] pe_b, pf;
  logic [43:0] pa, pb, pc;                           // DRAM terms; conv: in_lo, in_hi, cb terms
  logic [35:0] pd;                                   // LOAD box; conv, STORE: first range's pitch term
  logic [27:0] pe;                                   // LOAD nz*ny; conv taps; STORE dst pitch term
  sd_t d_base, d_end;
  logic [8:0]  d_bytes;
  logic        dram_bad;
  sr_t r1_lo, r1_hi, r1_lim, r1_add, r2_lo, r2_hi, r2_len;
  logic        r1_ok, r2_ok, ov;

  // Only computed when en_i: the range arithmetic is most of what a
  // Verilated NPU evaluates each cycle, and the dispatcher reads err_o only
  // in its check state. Otherwise err_o is ErrNone (a mux in hardware).
  always_comb begin
    err   = tessel_isa_pkg::ErrNone;
    tok   = cmd_i[11:8];
    dsize = $signed(DW'(dram_size_i));
    {l_mem, l_n0, l_nx, l_ny, l_nz, l_ry, l_rx, l_pt, l_pb, l_pl, l_pr, l_pad, l_rows, l_bytes} = '0;
    {l_nzm, l_rym, l_rxm} = '0;
    {c_oh, c_ow, c_ncb, c_wrows, in_lo, in_hi, iy_lo, iy_hi, ix_lo, ix_hi} = '0;
    {c_ohm, c_owm, c_ncbm, g_khm, g_kwm, c_taps, c_wr} = '0;
    {iy_lo_u, iy_hi_u, ix_lo_u, ix_hi_u, in_any} = '0;
    {va_rows, va_b, s_n0, s_oh, s_ow, s_lines, s_src_spad, s_dst_spad, s_raw} = '0;
    {s_ohm, s_owm, s_linesm} = '0;
    {is_ld, is_st, is_va, pa_a, pb_a, pc_a, pd_a, pe_a, pa_b, pb_b, pc_b, pd_b, pe_b, pf, pa, pb, pc, pd, pe} = '0;
    {d_base, d_end, d_bytes, dram_bad, r1_lo, r1_hi, r1_lim, r1_add, r2_lo, r2_hi, r2_len, r1_ok, r2_ok, ov} = '0;
    if (en_i) begin
    // LOAD
    l_mem = cmd_i[13:12];
    l_n0  = cmd_i[20:16];
    l_pr  = cmd_i[23:21];
    l_pad = cmd_i[31:24];
    l_nx  = cmd_i[91:80];
    l_pt  = cmd_i[94:92];
    l_ny  = cmd_i[107:96];
    l_nz  = cmd_i[119:108];
    l_pb  = cmd_i[122:120];
    l_pl  = cmd_i[125:123];
    l_rows = (l_mem == 0) ? SRows : (l_mem == 1) ? ARows : PRows;
    l_ry   = l_ny - 12'(l_pt) - 12'(l_pb);                  // >= 0 once padding <= box is checked
    l_rx   = l_nx - 12'(l_pl) - 12'(l_pr);
    l_bytes = (l_mem == 0) ? 9'(l_n0) : (l_mem == 1) ? {2'd0, l_n0, 2'd0} : {1'b0, l_n0, 3'd0} + 9'(l_n0);
    l_nzm  = l_nz - 12'd1;
    l_rym  = l_ry - 12'd1;
    l_rxm  = l_rx - 12'd1;
    // conv
    c_oh   = cmd_i[25:16];
    c_ow   = cmd_i[89:80];
    c_ncb  = (op == tessel_isa_pkg::OpMatmul) ? g_ncb : 8'd1;
    c_ohm  = c_oh - 10'd1;
    c_owm  = c_ow - 10'd1;
    c_ncbm = c_ncb - 8'd1;
    g_khm  = g_kh - 8'd1;
    g_kwm  = g_kw - 8'd1;
    pf     = 16'(g_kh) * 16'(g_kw);
    iy_lo  = (e_iy0 > 0) ? e_iy0 : CW'(0);
    ix_lo  = (f_ix0 > 0) ? f_ix0 : CW'(0);
    iy_hi  = e_iy0 + $signed(CW'(mul3(c_ohm, g_sy))) + $signed(CW'(mul3(10'(g_khm), g_dy)));
    ix_hi  = f_ix0 + $signed(CW'(mul3(c_owm, g_sx))) + $signed(CW'(mul3(10'(g_kwm), g_dx)));
    if (iy_hi > $signed(CW'(g_in_h)) - CW'(1)) iy_hi = $signed(CW'(g_in_h)) - CW'(1);
    if (ix_hi > $signed(CW'(g_in_w)) - CW'(1)) ix_hi = $signed(CW'(g_in_w)) - CW'(1);
    in_any = (iy_lo <= iy_hi) && (ix_lo <= ix_hi);
    // with in_any, 0 <= lo <= hi <= in_h/in_w - 1 < 1023
    iy_lo_u = iy_lo[9:0];
    iy_hi_u = iy_hi[9:0];
    ix_lo_u = ix_lo[9:0];
    ix_hi_u = ix_hi[9:0];
    // VADD
    va_rows = $signed(RW'(cmd_i[95:80]));
    va_b    = d_row;
    // STORE
    s_src_spad = cmd_i[12];
    s_dst_spad = cmd_i[13];
    s_raw      = cmd_i[14];
    s_n0  = cmd_i[20:16];
    s_oh  = cmd_i[31:24];
    s_ow  = cmd_i[119:112];
    s_lines = (e_pool_k != 0) ? e_src_h : s_oh;
    s_linesm = s_lines - 8'd1;
    s_ohm   = s_oh - 8'd1;
    s_owm   = s_ow - 8'd1;

    // the shared products: operands by command class
    is_ld = (op == tessel_isa_pkg::OpLoad);
    is_st = (op == tessel_isa_pkg::OpStore);
    is_va = (op == tessel_isa_pkg::OpVadd);
    if (is_ld) begin
      {pa_a, pa_b} = {l_nzm, ld_sz};                 // DRAM: (nz-1)*stride_z
      {pb_a, pb_b} = {l_rym, ld_sy};                 //       (ry-1)*stride_y
      {pc_a, pc_b} = {l_rxm, ld_sx};                 //       (rx-1)*stride_x
      {pe_a, pe_b} = {l_nz, 4'd0, l_ny};             // nz*ny, then the box nz*ny*nx
    end else if (is_st) begin
      {pa_a, pa_b} = {4'd0, s_ohm, st_sy};           // DRAM: (oh-1)*stride_y
      {pb_a, pb_b} = {4'd0, s_owm, st_sx};           //       (ow-1)*stride_x
      {pd_a, pd_b} = {4'd0, s_linesm, 8'd0, st_src_pitch};   // source rows
      {pe_a, pe_b} = {4'd0, s_ohm, st_spad_pitch};   // SPAD destination rows
    end else if (!is_va) begin                       // (VADD: no products)
      {pe_a, pe_b} = {4'd0, c_ncb, pf};              // taps kh*kw*ncb (ncb = 1 but for MATMUL)
      {pd_a, pd_b} = {2'd0, c_ohm, 8'd0, g_out_pitch};       // output rows
      {pc_a, pc_b} = {4'd0, c_ncbm, 16'd0, g_cb_stride};     // input rows
      {pa_a, pa_b} = {2'd0, iy_lo_u, 16'd0, g_in_pitch};
      {pb_a, pb_b} = {2'd0, iy_hi_u, 16'd0, g_in_pitch};
    end
    pe = 28'(pe_a) * 28'(pe_b);
    if (is_ld) {pd_a, pd_b} = {l_nx, pe[23:0]};
    pa = 44'(pa_a) * 44'(pa_b);
    pb = 44'(pb_a) * 44'(pb_b);
    pc = 44'(pc_a) * 44'(pc_b);
    pd = 36'(pd_a) * 36'(pd_b);
    c_taps  = pe[23:0];
    c_wr    = (op == tessel_isa_pkg::OpMatmul) ? 29'(c_taps) * 29'(Dim) : 29'(c_taps);
    c_wrows = $signed(RW'(c_wr));
    in_lo  = in_any ? b_in_s + $signed(RW'(pa)) + $signed(RW'(ix_lo_u)) : RW'(1);
    in_hi  = in_any ? b_in_s + $signed(RW'(pc)) + $signed(RW'(pb)) + $signed(RW'(ix_hi_u)) : RW'(0);

    // one DRAM end: LOAD's or STORE's
    d_base  = is_st ? g_dram : a_dram;
    d_bytes = !is_st ? l_bytes : s_raw ? 9'({s_n0, 2'd0}) : 9'(s_n0);
    d_end   = d_base + $signed(DW'(pa)) + $signed(DW'(pb)) + $signed(DW'(pc)) + $signed(DW'(d_bytes));
    dram_bad = d_base < 0 || d_end > dsize || d_base >= d_end;
    // the first row range: LOAD's rows, the conv output rows, STORE's source,
    // VADD's a
    r1_lo  = is_ld ? b_row : is_st ? st_src : is_va ? vadd_a : c_row;
    r1_add = is_ld ? RW'(0) : is_st ? ((e_pool_k != 0) ? RW'(e_src_w) : RW'(s_ow)) : is_va ? va_rows : RW'(c_ow);
    r1_hi  = r1_lo + $signed(RW'(pd)) + r1_add - RW'(1);
    r1_lim = is_ld ? l_rows :
             is_st ? (s_src_spad ? SRows : ARows) : (op == tessel_isa_pkg::OpVpool || is_va ? SRows : ARows);
    r1_ok  = rows_ok(r1_lo, r1_hi, r1_lim);
    // the second: the conv weight rows, STORE's SPAD destination, VADD's b
    r2_lo  = is_st ? h_row : d_row;
    r2_len = is_st ? $signed(RW'(pe)) + $signed(RW'(s_ow)) : is_va ? va_rows : c_wrows;
    r2_hi  = r2_lo + r2_len - RW'(1);
    r2_ok  = rows_ok(r2_lo, r2_hi, SRows);
    // VPOOL's input against its output, STORE's source against its destination
    ov = is_st ? overlaps(r1_lo, r1_hi, r2_lo, r2_hi) : overlaps(in_lo, in_hi, r1_lo, r1_hi);

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
          if (l_mem > 2 || l_n0 < 1 || l_n0 > 5'(Dim) || l_nx < 1 || l_ny < 1 || l_nz < 1 ||
              12'(l_pt) + 12'(l_pb) > l_ny || 12'(l_pl) + 12'(l_pr) > l_nx ||
              (l_mem == 2 && (l_n0 != 5'(Dim) || l_pad != 0 || l_pt + l_pb + l_pl + l_pr != 0)))
            err = tessel_isa_pkg::ErrBadField;
          else if (!r1_ok)
            err = (l_mem == 0) ? tessel_isa_pkg::ErrSpadRange :
                  (l_mem == 1) ? tessel_isa_pkg::ErrAccRange : tessel_isa_pkg::ErrParamRange;
          else if (l_ry != 0 && l_rx != 0 && dram_bad)
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
          else if (op != tessel_isa_pkg::OpVpool && !r1_ok)
            err = tessel_isa_pkg::ErrAccRange;
          else if (op != tessel_isa_pkg::OpVpool && !r2_ok)
            err = tessel_isa_pkg::ErrSpadRange;
          else if (in_any && !rows_ok(in_lo, in_hi, SRows))
            err = tessel_isa_pkg::ErrSpadRange;
          else if (op == tessel_isa_pkg::OpVpool && !r1_ok)
            err = tessel_isa_pkg::ErrSpadRange;
          else if (c_oh > 1 && g_out_pitch < 16'(c_ow))
            err = tessel_isa_pkg::ErrOverlap;
          else if (op == tessel_isa_pkg::OpVpool && ov)
            err = tessel_isa_pkg::ErrOverlap;
        end
        tessel_isa_pkg::OpVadd: begin
          if (va_rows < 1 || v_lo > v_hi)
            err = tessel_isa_pkg::ErrBadField;
          else if (!r1_ok || !r2_ok || !rows_ok(c_row, c_row + va_rows - 1, SRows))
            err = tessel_isa_pkg::ErrSpadRange;
          else if ((c_row != vadd_a && overlaps(c_row, c_row + va_rows - 1, vadd_a, r1_hi)) ||
                   (c_row != va_b && overlaps(c_row, c_row + va_rows - 1, va_b, r2_hi)))
            err = tessel_isa_pkg::ErrOverlap;
        end
        tessel_isa_pkg::OpStore: begin
          if (s_n0 < 1 || s_n0 > 5'(Dim) || s_oh < 1 || s_ow < 1)
            err = tessel_isa_pkg::ErrBadField;
          else if (s_raw && (s_src_spad || s_dst_spad || e_pool_k != 0))
            err = tessel_isa_pkg::ErrBadField;
          else if (e_pool_k != 0 && (e_pool_s < 1 || e_src_h < 1 || e_src_w < 1))
            err = tessel_isa_pkg::ErrBadField;
          else if (!s_src_spad && !r1_ok)
            err = tessel_isa_pkg::ErrAccRange;
          else if (!s_src_spad && !s_raw && (st_param < 0 || st_param >= PRows))
            err = tessel_isa_pkg::ErrParamRange;
          else if (s_src_spad && !r1_ok)
            err = tessel_isa_pkg::ErrSpadRange;
          else if (s_dst_spad && !r2_ok)
            err = tessel_isa_pkg::ErrSpadRange;
          else if (s_dst_spad && s_oh > 1 && st_spad_pitch < 16'(s_ow))
            err = tessel_isa_pkg::ErrOverlap;
          else if (s_dst_spad && s_src_spad && ov)
            err = tessel_isa_pkg::ErrOverlap;
          else if (!s_dst_spad && dram_bad)
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
  function automatic logic [23:0] clamp24(sc_t v);
    if (v > CW'(4194304)) clamp24 = 24'sd4194304;
    else if (v < -CW'(4194304)) clamp24 = -24'sd4194304;
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
