// npu_vec: the vector unit of the EXEC queue (docs/isa.md "CFG_VEC, VADD",
// "VPOOL"), bit-exact with npu_vadd()/npu_avgpool() of npu_arith.c.
//   CFG_VEC  latches mult_a, mult_b, shift, zero points and the clamp
//   VADD     one row per cycle: a on SPAD port A, b on port B, the requantised
//            sum written one row later (in place is fine: a row is read
//            before it is written)
//   VPOOL    per output pixel, the kh*kw taps one per cycle (inside taps read,
//            summed as tap - zp_a per lane), then rne_div(s*mult_a, cnt*2^S)
//            by a bit-serial divider on all lanes at once (65 - S cycles,
//            64 for S = 0). It divides |n| by cnt only, walking |n|'s bits
//            from the top: bits at or above S go through the restoring step
//            (so the quotient is floor(floor(|n| / 2^S) / cnt) and the
//            remainder stays below cnt, 17 bits), the S bits below only give
//            the guard bit and the sticky OR (in one step), which with the
//            remainder decide the rounding exactly as the remainder of
//            |n| / (cnt*2^S) would.
// With VecLanes below Dim (a target's vec_lanes) the lane arithmetic is
// built for VecLanes lanes and a row goes through it in Dim / VecLanes
// groups: a VADD row takes a cycle per group (both rows read again for
// each, the output row written after the last), a VPOOL pixel one division
// per group (the sums are kept for all lanes).
// The conv geometry comes from the EXEC unit's CFG_EXEC.
`default_nettype none

module npu_vec #(
  parameter int unsigned Dim      = tessel_target_pkg::Dim,
  parameter int unsigned SpadRows = tessel_target_pkg::SpadRows,
  parameter int unsigned VecLanes = tessel_target_pkg::VecLanes,   // 0: Dim
  localparam int unsigned SAw = $clog2(SpadRows),
  localparam int unsigned Vl  = (VecLanes == 0) ? Dim : VecLanes,
  localparam int unsigned VG  = Dim / Vl,            // lane groups a row goes through
  localparam int unsigned VGw = (VG > 1) ? $clog2(VG) : 1
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic              clr_i,
  input  wire logic              cmd_valid_i,     // only CFG_VEC, VADD, VPOOL arrive here
  input  wire tessel_isa_pkg::cmd_t cmd_i,
  input  wire logic [81:0]       cmd_side_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire tessel_isa_pkg::cmd_t geom_i,          // CFG_EXEC (kernel, strides, image, pitches)
  /* verilator lint_on UNUSEDSIGNAL */
  output      logic              done_o,
  output      logic              busy_o,
  output      logic              spad_a_re_o,
  output      logic [SAw-1:0]    spad_a_addr_o,
  input  wire logic [Dim*8-1:0]  spad_a_rdata_i,
  output      logic              spad_b_re_o,
  output      logic [SAw-1:0]    spad_b_addr_o,
  input  wire logic [Dim*8-1:0]  spad_b_rdata_i,
  output      logic              spad_we_o,
  output      logic [SAw-1:0]    spad_waddr_o,
  output      logic [Dim*8-1:0]  spad_wdata_o,
  output      logic [15:0]       spad_rd_bytes_o,
  output      logic [15:0]       spad_wr_bytes_o
);
  typedef enum logic [2:0] {StIdle, StAdd, StTaps, StLast, StDiv, StOut, StDrain} state_e;
  state_e state_d, state_q;

  // whole commands are latched; the unit reads some fields
  /* verilator lint_off UNUSEDSIGNAL */
  tessel_isa_pkg::cmd_t vec_d, vec_q, cmd_d, cmd_q;
  logic [81:0]  side_d, side_q;
  /* verilator lint_on UNUSEDSIGNAL */
  logic         vec_we, cmd_we;                     // CFG_VEC / command latched
  logic signed [31:0] mult_a, mult_b;
  logic [5:0]  shift;
  logic [7:0]  zp_a, zp_b, zp_out, lo, hi;
  assign shift  = vec_q[17:12];
  assign zp_out = vec_q[31:24];
  assign mult_a = $signed(vec_q[63:32]);
  assign mult_b = $signed(vec_q[95:64]);
  assign zp_a   = vec_q[103:96];
  assign zp_b   = vec_q[111:104];
  assign lo     = vec_q[119:112];
  assign hi     = vec_q[127:120];

  logic [15:0] out_pitch;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0] in_pitch;                             // taps use its low SAw bits
  /* verilator lint_on UNUSEDSIGNAL */
  logic [7:0]  kh, kw;
  logic [2:0]  sy, sx, dy, dx;
  logic [9:0]  in_h, in_w;
  assign out_pitch = geom_i[27:12];
  assign kh        = geom_i[39:32];
  assign kw        = geom_i[47:40];
  assign sy        = geom_i[66:64];
  assign sx        = geom_i[69:67];
  assign dy        = geom_i[72:70];
  assign dx        = geom_i[75:73];
  assign in_h      = geom_i[85:76];
  assign in_w      = geom_i[95:86];
  assign in_pitch  = geom_i[111:96];

  // VADD fields; VPOOL fields (in, iy0, ix0 from the side band)
  logic [15:0] va_a, va_b, va_out, va_rows;
  logic        excl;
  logic [9:0]  oh, ow;
  assign va_a    = cmd_q[47:32];
  assign va_b    = cmd_q[63:48];
  assign va_out  = cmd_q[79:64];
  assign va_rows = cmd_q[95:80];
  assign excl    = cmd_q[12];
  assign oh      = cmd_q[25:16];
  assign ow      = cmd_q[89:80];

  logic [15:0] i_d, i_q;                              // VADD row
  logic [9:0]  y_d, y_q, x_d, x_q;
  logic [7:0]  ky_d, ky_q, kx_d, kx_q;
  logic signed [23:0] piy_d, piy_q, pix_d, pix_q, iy_d, iy_q, ix_d, ix_q;
  logic [23:0] oline_d, oline_q;                      // out + y*out_pitch
  logic        r1_d, r1_q, r1_in_d, r1_in_q;          // a read is answered this cycle
  logic [VGw-1:0] vg_d, vg_q, r1g_d, r1g_q;           // lane group: of the reads / the division, of c1
  logic [SAw-1:0] w1_d, w1_q;                         // VADD: the row it goes to
  // Widths of the VPOOL path: at most 255*255 taps of |tap - zp_a| <= 255
  // make |sum| < 2^24 (SumW bits signed), and |n| = |sum * mult_a| < 2^55
  // (NumW bits), so the quotient fits NumW bits too.
  localparam int unsigned SumW = 25;
  localparam int unsigned NumW = 56;
  // The walk reaches |n|'s bits only at step 65 - NumW: up to that many
  // lanes load |n| one per step, through one shared multiplier (same cycles).
  localparam bit MulShared = (Vl <= 64 - NumW);
  logic [Dim*SumW-1:0] sum_d, sum_q;                  // VPOOL: per lane sum of tap - zp_a
  logic [Vl*SumW-1:0]  gsum;                          // ... of the lane group being divided
  logic [16:0] cnt_d, cnt_q;                          // inside taps
  logic [15:0] nt_d, nt_q;                            // all taps (kh*kw, counted: no multiply)
  logic [6:0]  it_d, it_q;                            // divider step
  logic [Vl*NumW-1:0] num_d, num_q;                   // |n| shifting out from the top
  logic [Vl*NumW-1:0] quo_d, quo_q;                   // quotient bits shifting in
  logic [Vl*17-1:0] rem_d, rem_q;                     // < den
  logic [Vl-1:0]    neg_d, neg_q;
  logic [Vl-1:0]    grd_d, grd_q, stk_d, stk_q;       // bit S-1 of |n|, OR of the bits below
  logic [16:0]       den_d, den_q;                    // cnt (or kh*kw)
  logic        dw_d, dw_q;                            // a finished VPOOL row to write
  // the wide registers are written with enables (sum: start, taps, next
  // pixel; divider: its steps), not copied in every cycle
  logic        sum_we, div_we;
  logic [Dim*8-1:0] wrow_d, wrow_q;
  logic [SAw-1:0] wa_d, wa_q;

  logic        tap_in;
  /* verilator lint_off UNUSEDSIGNAL */
  logic signed [33:0] in_base;
  /* verilator lint_on UNUSEDSIGNAL */
  // the SPAD row of a tap: the low SAw bits of in + iy*in_pitch + ix, computed
  // modulo 2^SAw from the low bits of each term (a SAw x SAw multiply)
  logic [SAw-1:0] tap_row;
  logic        last_k, last_p;
  // only while a VPOOL runs (an idle unit skips the multiply)
  always_comb begin
    in_base = '0;
    tap_in  = 1'b0;
    tap_row = '0;
    last_k  = 1'b0;
    last_p  = 1'b0;
    if (state_q == StTaps || state_q == StOut) begin
      in_base = $signed(side_q[81:48]);
      tap_in  = (iy_q >= 0) && (iy_q < $signed({14'd0, in_h})) && (ix_q >= 0) && (ix_q < $signed({14'd0, in_w}));
      tap_row = SAw'(in_base) + SAw'(iy_q) * SAw'(in_pitch) + SAw'(ix_q);
      last_k  = (kx_q == kw - 8'd1) && (ky_q == kh - 8'd1);
      last_p  = (x_q == ow - 10'd1) && (y_q == oh - 10'd1);
    end
  end

  // VADD lane arithmetic (c1)
  // every value clamped here is below 2^56 in magnitude: 64 bits suffice
  function automatic logic [7:0] clamp8(logic signed [63:0] v, logic [7:0] l, logic [7:0] h);
    if (v < 64'($signed(l))) clamp8 = l;
    else if (v > 64'($signed(h))) clamp8 = h;
    else clamp8 = v[7:0];
  endfunction
  // clamp(rne_shift(v, s) + zp_out) of a VADD lane, |v| <= 2*255*2^31 < 2^41.
  // Only what the int8 result depends on is formed (as npu_requant does):
  // fl = v >> s in 12 bits and whether it fits there (if not, the clamp
  // takes lo or hi by v's sign), the guard bit and the sticky OR. A shift
  // above 43 sees only copies of the sign, as 43 does, so it is cut there.
  function automatic logic [7:0] vadd_out(logic signed [41:0] v, logic [5:0] s_in,
                                          logic [7:0] zo, logic [7:0] l, logic [7:0] h);
    logic signed [43:0] p;
    logic [5:0]  s;
    logic signed [11:0] fl;
    logic [43:0] diff, above, below;
    logic        fits, guard, sticky;
    logic signed [13:0] qz;
    p      = 44'(v);
    s      = (s_in > 6'd43) ? 6'd43 : s_in;
    fl     = 12'(p >>> s);
    // fl fits 12 bits iff p's bits from s+11 up are all equal
    diff   = 44'(p ^ (p >>> 1));
    above  = (s + 6'd11 >= 6'd44) ? 44'd0 : ~((44'd1 << (s + 6'd11)) - 44'd1);
    fits   = (diff & above) == 44'd0;
    guard  = (s != 6'd0) && p[s - 6'd1];
    below  = (s <= 6'd1) ? 44'd0 : (44'd1 << (s - 6'd1)) - 44'd1;
    sticky = (p & below) != 44'd0;
    qz     = 14'(fl) + 14'(guard && (sticky || fl[0])) + 14'($signed(zo));
    if (!fits) vadd_out = p[43] ? l : h;
    else if (qz < 14'($signed(l))) vadd_out = l;
    else if (qz > 14'($signed(h))) vadd_out = h;
    else vadd_out = qz[7:0];
  endfunction

  // Only computed in the cycle a VADD row is written (the simulator then
  // skips the lane arithmetic while the unit does something else).
  // With groups the row is gathered in arow and written after its last group.
  logic add_wr, add_last;
  assign add_wr   = r1_q && cmd_q[7:0] == tessel_isa_pkg::OpVadd;
  assign add_last = add_wr && r1g_q == VGw'(VG - 1);
  logic [Dim*8-1:0] add_row, arow_q;
  logic [Vl*8-1:0]  ga, gb;                           // the group's lanes of a and b
  logic signed [41:0] add_v;
  always_comb begin
    add_row = arow_q;
    add_v   = '0;
    ga      = spad_a_rdata_i[Vl*8-1:0];
    gb      = spad_b_rdata_i[Vl*8-1:0];
    for (int g = 1; g < VG; g++)
      if (32'(r1g_q) == g) begin
        ga = spad_a_rdata_i[g*Vl*8 +: Vl*8];
        gb = spad_b_rdata_i[g*Vl*8 +: Vl*8];
      end
    if (add_wr) for (int l = 0; l < Vl; l++) begin
      add_v = 42'($signed(9'($signed(ga[l*8 +: 8])) - 9'($signed(zp_a)))) * 42'(mult_a) +
              42'($signed(9'($signed(gb[l*8 +: 8])) - 9'($signed(zp_b)))) * 42'(mult_b);
      for (int g = 0; g < VG; g++)
        if (32'(r1g_q) == g) add_row[(g*Vl + l)*8 +: 8] = vadd_out(add_v, shift, zp_out, lo, hi);
    end
  end

  // VPOOL: the rounded quotient of every lane once the divider is done
  // only in StOut, the one cycle it is latched
  // With R = rem*2^S + low the remainder of |n| / (den*2^S), 2R against
  // den*2^S is 2*rem + guard against den, the sticky bit breaking a tie
  // upwards. A negative n with R != 0 is floored (q = -qm - 1) and its
  // remainder is den*2^S - R, which compares the other way round.
  // clamp(q + zp_out): q outside 12 bits is far outside int8 (lo or hi by
  // its sign), so only 12 bits are added and compared
  function automatic logic [7:0] pool_out(logic signed [NumW:0] q, logic [7:0] zo,
                                          logic [7:0] l, logic [7:0] h);
    logic signed [13:0] qz;
    qz = 14'($signed(q[11:0])) + 14'($signed(zo));
    if (q[NumW:11] != '0 && q[NumW:11] != '1) pool_out = q[NumW] ? l : h;
    else if (qz < 14'($signed(l))) pool_out = l;
    else if (qz > 14'($signed(h))) pool_out = h;
    else pool_out = qz[7:0];
  endfunction

  logic [Dim*8-1:0] pool_row;                        // wrow with the group's lanes replaced
  logic [NumW-1:0] qm;
  logic [17:0] t2;
  logic gt, eq, nz, up;
  logic signed [NumW:0] q;
  localparam logic signed [NumW:0] One = 1;
  always_comb begin
    pool_row = wrow_q;
    qm = '0;
    t2 = '0;
    gt = 1'b0;
    eq = 1'b0;
    nz = 1'b0;
    up = 1'b0;
    q  = '0;
    if (state_q == StOut) for (int n = 0; n < Vl; n++) begin
      qm = quo_q[n*NumW +: NumW];
      t2 = {rem_q[n*17 +: 17], grd_q[n]};
      gt = (t2 > 18'(den_q)) || (t2 == 18'(den_q) && stk_q[n]);
      eq = (t2 == 18'(den_q)) && !stk_q[n];
      nz = (rem_q[n*17 +: 17] != '0) || grd_q[n] || stk_q[n];
      if (!neg_q[n] || !nz) begin
        q  = neg_q[n] ? -$signed({1'b0, qm}) : $signed({1'b0, qm});
        up = gt || (eq && q[0]);
      end else begin
        q  = -$signed({1'b0, qm}) - One;
        up = (!gt && !eq) || (eq && q[0]);
      end
      if (up) q = q + One;
      // a zero divisor (no inside tap, or kh*kw == 0) gives the zero point
      for (int g = 0; g < VG; g++)
        if (32'(vg_q) == g)
          pool_row[(g*Vl + n)*8 +: 8] = (den_q == '0) ? clamp8(64'($signed(zp_out)), lo, hi)
                                                      : pool_out(q, zp_out, lo, hi);
    end
  end

  // the sums of the lane group the divider loads
  always_comb begin
    gsum = sum_q[Vl*SumW-1:0];
    for (int g = 1; g < VG; g++)
      if (32'(vg_q) == g) gsum = sum_q[g*Vl*SumW +: Vl*SumW];
  end

  // Data registers change only while the unit works (or takes a command):
  // written with that enable, an idle unit costs the simulator no copies.
  logic act;
  assign act = (state_q != StIdle) || cmd_valid_i;

  always_comb begin
    state_d = state_q;
    vec_d   = clr_i ? '0 : cmd_i;
    vec_we  = clr_i;
    cmd_d   = cmd_i;
    side_d  = cmd_side_i;
    cmd_we  = 1'b0;
    r1_d    = 1'b0;
    r1g_d   = '0;
    sum_d   = '0;
    sum_we  = 1'b0;
    num_d   = '0;
    quo_d   = '0;
    rem_d   = '0;
    neg_d   = '0;
    grd_d   = '0;
    stk_d   = '0;
    div_we  = 1'b0;
    dw_d    = 1'b0;
    done_o  = 1'b0;
    spad_a_re_o   = 1'b0;
    spad_a_addr_o = SAw'(32'(va_a) + 32'(i_q));
    spad_b_re_o   = 1'b0;
    spad_b_addr_o = SAw'(32'(va_b) + 32'(i_q));
    spad_rd_bytes_o = '0;

    // Idle with nothing offered: the registers below are not written (act),
    // so the simulator skips the state decode of every split block.
    if (act) begin
      i_d     = i_q;
      y_d     = y_q;
      x_d     = x_q;
      ky_d    = ky_q;
      kx_d    = kx_q;
      piy_d   = piy_q;
      pix_d   = pix_q;
      iy_d    = iy_q;
      ix_d    = ix_q;
      oline_d = oline_q;
      r1_in_d = tap_in;
      vg_d    = vg_q;
      w1_d    = SAw'(32'(va_out) + 32'(i_q));
      cnt_d   = cnt_q;
      nt_d    = nt_q;
      it_d    = it_q;
      den_d   = den_q;
      wrow_d  = wrow_q;
      wa_d    = wa_q;

      unique case (state_q)
        StIdle: begin
          if (cmd_valid_i) begin
            cmd_we = 1'b1;
            i_d    = '0;
            y_d    = '0;
            x_d    = '0;
            ky_d   = '0;
            kx_d   = '0;
            piy_d  = $signed(cmd_side_i[47:24]);
            pix_d  = $signed(cmd_side_i[23:0]);
            iy_d   = $signed(cmd_side_i[47:24]);
            ix_d   = $signed(cmd_side_i[23:0]);
            oline_d = 24'(cmd_i[79:64]);
            vg_d   = '0;
            sum_we = 1'b1;
            cnt_d  = '0;
            nt_d   = '0;
            unique case (cmd_i[7:0])
              tessel_isa_pkg::OpVadd:  state_d = StAdd;
              tessel_isa_pkg::OpVpool: state_d = StTaps;
              default: begin
                vec_we = 1'b1;                // CFG_VEC
                done_o = 1'b1;
              end
            endcase
          end
        end

        // a row per lane group and cycle (read again for each group)
        StAdd: begin
          spad_a_re_o = 1'b1;
          spad_b_re_o = 1'b1;
          spad_rd_bytes_o = (vg_q == '0) ? 16'(2 * Dim) : 16'd0;
          r1_d  = 1'b1;
          r1g_d = vg_q;
          if (VG > 1 && vg_q != VGw'(VG - 1)) begin
            vg_d = vg_q + 1'b1;
          end else begin
            vg_d = '0;
            i_d  = i_q + 16'd1;
            if (i_q == va_rows - 16'd1) state_d = StDrain;
          end
        end

        StTaps: begin
          spad_a_re_o   = tap_in;
          spad_a_addr_o = tap_row;
          spad_rd_bytes_o = tap_in ? 16'(Dim) : 16'd0;
          r1_d  = 1'b1;
          nt_d  = nt_q + 16'd1;
          kx_d  = kx_q + 8'd1;
          ix_d  = ix_q + 24'(dx);
          if (kx_q == kw - 8'd1) begin
            kx_d = '0;
            ix_d = pix_q;
            ky_d = ky_q + 8'd1;
            iy_d = iy_q + 24'(dy);
          end
          if (last_k) begin
            ky_d = '0;
            state_d = StLast;
          end
        end

        // the last tap is summed this cycle; then the divider starts
        StLast: begin
          state_d = StDiv;
          it_d    = '0;
        end

        StDiv: begin
          div_we = 1'b1;
          neg_d  = neg_q;                              // kept through the steps
          quo_d  = quo_q;
          rem_d  = rem_q;
          grd_d  = grd_q;
          stk_d  = stk_q;
          num_d  = num_q;
          if (it_q == 7'd0) begin
            // load: |n| with n = s * mult_a, d = cnt (the 2^S is in the walk)
            den_d = excl ? cnt_q : 17'(nt_q);
            if (!MulShared) for (int n = 0; n < Vl; n++) begin
              logic signed [NumW:0] nn;
              nn = (NumW+1)'($signed(gsum[n*SumW +: SumW])) * (NumW+1)'(mult_a);
              neg_d[n] = nn[NumW];
              num_d[n*NumW +: NumW] = NumW'(nn[NumW] ? -nn : nn);
            end
            quo_d = '0;
            rem_d = '0;
            grd_d = '0;
            stk_d = '0;
            it_d = 7'd1;
          end else begin
            // shared multiplier: lane it - 1 loads |n| in step it <= Vl
            if (MulShared && it_q <= 7'(Vl)) begin
              logic signed [SumW-1:0] ms;
              logic signed [NumW:0]   mp;
              ms = '0;
              for (int n = 0; n < Vl; n++)
                if (7'(n) == it_q - 7'd1) ms = $signed(gsum[n*SumW +: SumW]);
              mp = (NumW+1)'(ms) * (NumW+1)'(mult_a);
              for (int n = 0; n < Vl; n++)
                if (7'(n) == it_q - 7'd1) begin
                  neg_d[n] = mp[NumW];
                  num_d[n*NumW +: NumW] = NumW'(mp[NumW] ? -mp : mp);
                end
            end
            // step it takes bit 64 - it of |n| (bits NumW and up are 0):
            // a restoring step at or above S, guard and sticky below it
            for (int n = 0; n < Vl; n++) begin
              logic [17:0] r;
              logic        b;
              r = '0;
              b = (it_q > 7'(64 - NumW)) ? num_q[n*NumW + NumW - 1] : 1'b0;
              if (it_q > 7'(64 - NumW)) num_d[n*NumW +: NumW] = {num_q[n*NumW +: NumW-1], 1'b0};
              if (it_q <= 7'd64 - 7'(shift)) begin
                r = {rem_q[n*17 +: 17], b};          // rem < den < 2^17
                quo_d[n*NumW +: NumW] = {quo_q[n*NumW +: NumW-1], 1'b0};
                if (r >= 18'(den_q)) begin
                  r = r - 18'(den_q);
                  quo_d[n*NumW] = 1'b1;
                end
                rem_d[n*17 +: 17] = r[16:0];
              end else begin
                // the guard step: the bits below are only the sticky OR,
                // taken at once (the walk ends here)
                grd_d[n] = b;
                stk_d[n] = |num_q[n*NumW +: NumW-1];
              end
            end
            it_d = it_q + 7'd1;
            if (it_q == 7'd64 || it_q == 7'd65 - 7'(shift)) state_d = StOut;
          end
        end

        StOut: begin
          wrow_d = pool_row;
          if (VG > 1 && vg_q != VGw'(VG - 1)) begin
            // the next lane group's division; the pixel is written after the last
            vg_d    = vg_q + 1'b1;
            it_d    = '0;
            state_d = StDiv;
          end else begin
            vg_d   = '0;
            dw_d   = 1'b1;
            wa_d   = SAw'(oline_q + 24'(x_q));
            sum_we = 1'b1;
            cnt_d  = '0;
            nt_d   = '0;
            x_d    = x_q + 10'd1;
            pix_d  = pix_q + 24'(sx);
            if (x_q == ow - 10'd1) begin
              x_d     = '0;
              pix_d   = $signed(side_q[23:0]);
              y_d     = y_q + 10'd1;
              piy_d   = piy_q + 24'(sy);
              oline_d = oline_q + 24'(out_pitch);
            end
            ix_d = pix_d;
            iy_d = piy_d;
            state_d = last_p ? StDrain : StTaps;
          end
        end

        StDrain: begin
          if (!r1_q && !dw_q) begin
            done_o  = 1'b1;
            state_d = StIdle;
          end
        end

        default: state_d = StIdle;
      endcase
    end else begin
      i_d = '0;
      y_d = '0;
      x_d = '0;
      ky_d = '0;
      kx_d = '0;
      piy_d = '0;
      pix_d = '0;
      iy_d = '0;
      ix_d = '0;
      oline_d = '0;
      r1_in_d = '0;
      vg_d = '0;
      w1_d = '0;
      cnt_d = '0;
      nt_d = '0;
      it_d = '0;
      den_d = '0;
      wrow_d = '0;
      wa_d = '0;
    end

    // c1 of a VPOOL tap: sum the inside ones
    if (r1_q && cmd_q[7:0] == tessel_isa_pkg::OpVpool && r1_in_q) begin
      if (!sum_we) sum_d = sum_q;
      sum_we = 1'b1;
      for (int n = 0; n < Dim; n++)
        sum_d[n*SumW +: SumW] = sum_d[n*SumW +: SumW] + SumW'($signed(spad_a_rdata_i[n*8 +: 8])) - SumW'($signed(zp_a));
      cnt_d = cnt_d + 17'd1;
    end
  end

  // SPAD writes: VADD rows one cycle after their reads, VPOOL pixels
  always_comb begin
    spad_we_o    = 1'b0;
    spad_wr_bytes_o = '0;
    spad_waddr_o = w1_q;
    spad_wdata_o = add_row;
    if (add_last) begin
      spad_we_o = 1'b1;
    end else if (dw_q) begin
      spad_we_o    = 1'b1;
      spad_waddr_o = wa_q;
      spad_wdata_o = wrow_q;
    end
    if (spad_we_o) spad_wr_bytes_o = 16'(Dim);
  end

  assign busy_o = (state_q != StIdle);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      vec_q   <= '0;
      r1_q    <= 1'b0;
      dw_q    <= 1'b0;
    end else begin
      state_q <= state_d;
      if (vec_we) vec_q <= vec_d;
      r1_q    <= r1_d;
      dw_q    <= dw_d;
    end
    r1g_q <= r1g_d;
    if (add_wr) arow_q <= add_row;
  end

  always_ff @(posedge clk_i) begin
    if (act) begin
      i_q     <= i_d;
      y_q     <= y_d;
      x_q     <= x_d;
      ky_q    <= ky_d;
      kx_q    <= kx_d;
      piy_q   <= piy_d;
      pix_q   <= pix_d;
      iy_q    <= iy_d;
      ix_q    <= ix_d;
      oline_q <= oline_d;
      r1_in_q <= r1_in_d;
      vg_q    <= vg_d;
      w1_q    <= w1_d;
      cnt_q   <= cnt_d;
      nt_q    <= nt_d;
      it_q    <= it_d;
      den_q   <= den_d;
      wrow_q  <= wrow_d;
      wa_q    <= wa_d;
    end
    if (cmd_we) begin
      cmd_q  <= cmd_d;
      side_q <= side_d;
    end
    if (sum_we) sum_q <= sum_d;
    if (div_we) begin
      num_q <= num_d;
      quo_q <= quo_d;
      rem_q <= rem_d;
      neg_q <= neg_d;
      grd_q <= grd_d;
      stk_q <= stk_d;
    end
  end
endmodule

`default_nettype wire
