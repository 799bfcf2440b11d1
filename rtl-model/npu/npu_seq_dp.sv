// npu_seq_dp: the datapath of the core-sequenced NPU (docs/npu-seq.md). The
// control core runs the command semantics in firmware and drives this block
// through the NPU_SEQ window's registers (targets/memmap.def):
//   - a Dim x Dim int8 weight array W[k][n], Dim int8 inputs X[k] and Dim
//     int32 sums S[n]; the store that writes X[Dim-1] starts
//       S[n] += sum_k X[k] * W[k][n]        (every n; wraps mod 2^32)
//     one k per two cycles, Dim multipliers (one per n), so 2 * Dim cycles;
//   - one requantiser lane, bit-exact with npu_requant() in
//     sim/npu-model/npu_arith.c: the write of REQ_ACC[k] starts
//       clamp(rne_shift(sat32(acc + bias[k]) * mult[k], shift[k] & 63) + zp, lo, hi)
//     sum (one cycle), multiply (two, with a first shift of 32 when the
//     shift is 32 or more), one shift of the 64-bit product per cycle for the
//     rest (guard and sticky bits kept), round and clamp: ready
//     (shift & 31) + 4 cycles after the REQ_ACC write is taken.
// While the array runs, accesses to X, S and W wait (req_ready_o low); while
// the requantiser runs, accesses to the REQ_* registers wait, so a read of
// REQ_OUT returns the finished result. ID and DIM never wait.
//
// The register offsets are parameters: tessel_soc passes the generated
// tessel_memmap_pkg's (this file is read before that package in some builds,
// so it cannot refer to it); the defaults are the same numbers, and the bench
// drives the block at the generated header's offsets, so they cannot drift.
// Array bases must be aligned to their array's size rounded up to a power of
// two (checked below). Offsets that name no register answer a bus error;
// reads of the write-only registers return 0; writes to ID and DIM are
// ignored; a store narrower than a word to a word register is a bus error
// (X and W are byte arrays and take sb/sh/sw).
`default_nettype none

module npu_seq_dp #(
  parameter int unsigned Dim         = tessel_target_pkg::Dim,
  parameter logic [31:0] IdValue     = 32'h5145_5354,   // the bytes "TSEQ"
  parameter logic [11:0] IdOff       = 12'h000,         // tessel_memmap_pkg::NpuSeq<Reg>Off
  parameter logic [11:0] DimOff      = 12'h004,
  parameter logic [11:0] ReqOutpOff  = 12'h008,
  parameter logic [11:0] ReqOutOff   = 12'h00C,
  parameter logic [11:0] XOff        = 12'h040,
  parameter logic [11:0] SOff        = 12'h100,
  parameter logic [11:0] ReqBiasOff  = 12'h200,
  parameter logic [11:0] ReqMultOff  = 12'h300,
  parameter logic [11:0] ReqShiftOff = 12'h400,
  parameter logic [11:0] ReqAccOff   = 12'h500,
  parameter logic [11:0] WOff        = 12'h800
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        req_valid_i,
  output      logic        req_ready_o,
  input  wire logic        req_we_i,
  input  wire logic [3:0]  req_be_i,
  input  wire logic [11:0] req_addr_i,
  input  wire logic [31:0] req_wdata_i,
  output      logic        rsp_valid_o,
  output      logic [31:0] rsp_rdata_o,
  output      logic        rsp_err_o
);

  localparam int unsigned LaneW  = (Dim > 1) ? $clog2(Dim) : 1;
  localparam int unsigned XWords = (Dim + 3) / 4;
  localparam int unsigned WBytes = Dim * Dim;
  localparam int unsigned WWords = (WBytes + 3) / 4;
  localparam int unsigned WIdxW  = (WWords > 1) ? $clog2(WWords) : 1;
  localparam int unsigned XIdxW  = (XWords > 1) ? $clog2(XWords) : 1;
  // address bits of an array's index: the word index inside its aligned span
  localparam int unsigned LaneSpanW = LaneW + 2;
  localparam int unsigned XSpanW    = XIdxW + 2;
  localparam int unsigned WSpanW    = WIdxW + 2;

  // ---- registers ------------------------------------------------------------
  logic [WBytes*8-1:0] w_q, w_d;          // W[k][n]: byte k*Dim + n
  logic [XWords*32-1:0] x_q, x_d;         // X[k]: byte k (bytes past Dim unused)
  logic [Dim*32-1:0]   s_q, s_d;          // S[n]
  logic [Dim*6-1:0]    shift_q, shift_d;  // per lane
  // REQ_BIAS and REQ_MULT: a block RAM, entry 2k bias, 2k+1 mult of lane k.
  // The requantiser reads them one after the other; a read never meets a
  // write to the same entry (the REQ_* registers wait while it runs), so
  // yosys need not emulate a collision (no_rw_check).
  (* ram_style = "block", no_rw_check *)
  logic [31:0]         prm_q [2 * Dim];
  logic                prm_we;
  logic [LaneW:0]      prm_waddr, prm_raddr;
  logic [31:0]         prm_rd_q;          // the entry read last cycle
  logic [23:0]         outp_q, outp_d;    // zp 7:0, lo 15:8, hi 23:16

  // ---- bus decode -------------------------------------------------------------
  logic [9:0]  word;                      // the word's index in the window
  logic        sel_id, sel_dim, sel_outp, sel_out, sel_x, sel_s, sel_bias, sel_mult, sel_shift, sel_acc, sel_w;
  logic [LaneW-1:0] lane;                 // index inside S, BIAS, MULT, SHIFT, ACC
  logic [XIdxW-1:0] xw;                   // word of X
  logic [WIdxW-1:0] ww;                   // word of W
  logic        full_word, grp_array, grp_req, any_sel;
  assign word      = req_addr_i[11:2];
  assign lane      = LaneW'(req_addr_i[LaneSpanW-1:2]);
  assign xw        = XIdxW'(req_addr_i[XSpanW-1:2]);
  assign ww        = WIdxW'(req_addr_i[WSpanW-1:2]);
  assign full_word = req_be_i == 4'hF;

  // an array of N words at BASE (aligned to its span): the address is in it
  function automatic logic in_array(logic [11:0] addr, logic [11:0] base, int unsigned span_w, int unsigned n);
    logic [11:0] hi_mask, in_span;
    hi_mask = 12'hFFF << span_w;
    in_span = addr & ~hi_mask;
    in_array = ((addr & hi_mask) == (base & hi_mask)) && ((32'(in_span) >> 2) < n);
  endfunction

  assign sel_id    = word == IdOff[11:2];
  assign sel_dim   = word == DimOff[11:2];
  assign sel_outp  = word == ReqOutpOff[11:2];
  assign sel_out   = word == ReqOutOff[11:2];
  assign sel_x     = in_array(req_addr_i, XOff, XSpanW, XWords);
  assign sel_s     = in_array(req_addr_i, SOff, LaneSpanW, Dim);
  assign sel_bias  = in_array(req_addr_i, ReqBiasOff, LaneSpanW, Dim);
  assign sel_mult  = in_array(req_addr_i, ReqMultOff, LaneSpanW, Dim);
  assign sel_shift = in_array(req_addr_i, ReqShiftOff, LaneSpanW, Dim);
  assign sel_acc   = in_array(req_addr_i, ReqAccOff, LaneSpanW, Dim);
  assign sel_w     = in_array(req_addr_i, WOff, WSpanW, WWords);
  assign grp_array = sel_x || sel_s || sel_w;
  assign grp_req   = sel_outp || sel_out || sel_bias || sel_mult || sel_shift || sel_acc;
  assign any_sel   = sel_id || sel_dim || grp_array || grp_req;

  // ---- the array: one k per cycle while mac_busy_q --------------------------------
  logic             mac_busy_q, mac_busy_d;
  logic [LaneW-1:0] mac_k_q, mac_k_d;
  logic             mac_ph_q, mac_ph_d;   // 0: the products settle, 1: S takes them
  logic             mac_start;            // the bus writes the X word of lane Dim-1

  // ---- the requantiser -----------------------------------------------------------
  typedef enum logic [2:0] {RqIdle, RqSum, RqMulWait, RqMul, RqShift} rq_state_e;
  rq_state_e        rq_q, rq_d;
  logic [LaneW-1:0] rq_lane_q, rq_lane_d;
  logic [63:0]      p_q, p_d;             // acc, then the product, shifted right
  logic [31:0]      t_q, t_d;             // sat32(acc + bias)
  logic [5:0]       cnt_q, cnt_d;         // shifts still to do
  logic             g_q, g_d;             // the last bit shifted out (guard)
  logic             st_q, st_d;           // OR of the bits shifted out before it (sticky)
  logic [7:0]       out_q, out_d;         // the result
  logic             rq_start;

  // ---- bus handshake ----------------------------------------------------------
  logic        fire, rsp_valid_q, rsp_err_q, rsp_err_d;
  logic [31:0] rsp_rdata_q, rsp_rdata_d;
  assign req_ready_o = !((grp_array && mac_busy_q) || (grp_req && rq_q != RqIdle));
  assign fire        = req_valid_i && req_ready_o;
  assign mac_start   = fire && req_we_i && sel_x && xw == XIdxW'((Dim - 1) / 4) && req_be_i[(Dim - 1) % 4];
  assign rq_start    = fire && req_we_i && sel_acc && full_word;

  // Register writes, and the response.
  always_comb begin
    w_d         = w_q;
    x_d         = x_q;
    shift_d     = shift_q;
    outp_d      = outp_q;
    rsp_rdata_d = 32'h0;
    rsp_err_d   = 1'b0;
    if (fire) begin
      if (!any_sel) rsp_err_d = 1'b1;
      // word registers take whole words only
      if (req_we_i && !full_word && (sel_s || grp_req)) rsp_err_d = 1'b1;
      // (constant indices throughout: a variable part-select would build shifters)
      if (req_we_i && !rsp_err_d) begin
        for (int b = 0; b < XWords * 4; b++)
          if (sel_x && 32'(xw) == 32'(b) / 4 && req_be_i[b % 4]) x_d[b*8 +: 8] = req_wdata_i[(b % 4)*8 +: 8];
        for (int b = 0; b < WBytes; b++)
          if (sel_w && 32'(ww) == 32'(b) / 4 && req_be_i[b % 4]) w_d[b*8 +: 8] = req_wdata_i[(b % 4)*8 +: 8];
        for (int k = 0; k < Dim; k++) begin
          if (32'(lane) == k) begin
            if (sel_shift) shift_d[k*6 +: 6] = req_wdata_i[5:0];
          end
        end
        if (sel_outp) outp_d = req_wdata_i[23:0];
      end
      if (!req_we_i) begin
        if (sel_id)  rsp_rdata_d = IdValue;
        if (sel_dim) rsp_rdata_d = Dim;
        for (int n = 0; n < Dim; n++)
          if (sel_s && 32'(lane) == n) rsp_rdata_d = s_q[n*32 +: 32];
        if (sel_out) rsp_rdata_d = {{24{out_q[7]}}, out_q};
      end
    end
  end

  // The array: S[n] += X[k] * W[k][n] for k = mac_k_q; the bus writes S when idle.
  logic [7:0]     x_k;                    // X[mac_k_q]
  logic [Dim*8-1:0] w_k;                  // W[mac_k_q][*]
  always_comb begin
    s_d        = s_q;
    x_k        = '0;
    w_k        = '0;
    mac_busy_d = mac_busy_q;
    mac_k_d    = mac_k_q;
    mac_ph_d   = mac_ph_q;
    for (int k = 0; k < Dim; k++) begin
      if (32'(mac_k_q) == k) begin
        x_k = x_q[k*8 +: 8];
        w_k = w_q[k*Dim*8 +: Dim*8];
      end
    end
    // Two cycles per k: the path through the DSPs (combinational SB_MAC16s,
    // which nextpnr times as registers) has two clock periods.
    if (mac_busy_q) begin
      mac_ph_d = !mac_ph_q;
      if (mac_ph_q) begin
        for (int n = 0; n < Dim; n++)
          s_d[n*32 +: 32] = s_q[n*32 +: 32] + 32'($signed(x_k) * $signed(w_k[n*8 +: 8]));
        mac_k_d = mac_k_q + 1'b1;
        if (32'(mac_k_q) == Dim - 1) begin
          mac_busy_d = 1'b0;
          mac_k_d    = '0;
        end
      end
    end else if (fire && req_we_i && sel_s && full_word) begin
      for (int n = 0; n < Dim; n++)
        if (32'(lane) == n) s_d[n*32 +: 32] = req_wdata_i;
    end
    if (mac_start) mac_busy_d = 1'b1;
  end

  // The requantiser.
  logic signed [32:0] sum;
  logic        [63:0] prod;               // sat32(acc + bias) * mult
  assign prod = 64'($signed(t_q) * $signed(prm_rd_q));
  logic signed [13:0] qz;                 // q + zp when the shifted product fits 12 bits
  logic               fits, up;
  logic [7:0]         zp, lo, hi;
  assign zp = outp_q[7:0];
  assign lo = outp_q[15:8];
  assign hi = outp_q[23:16];
  // the parameter memory: the bus writes bias and mult; the requantiser reads
  // bias[lane] as REQ_ACC is taken (for RqSum), then mult (for RqMul)
  assign prm_we    = fire && req_we_i && full_word && (sel_bias || sel_mult);
  assign prm_waddr = {lane, sel_mult};
  assign prm_raddr = (rq_q == RqIdle) ? {lane, 1'b0} : {rq_lane_q, 1'b1};
  always_ff @(posedge clk_i) begin
    if (prm_we) prm_q[prm_waddr] <= req_wdata_i;
    prm_rd_q <= prm_q[prm_raddr];
  end
  logic [5:0] shift_l;                    // the shift of lane rq_lane_q
  always_comb begin
    shift_l = '0;
    for (int k = 0; k < Dim; k++)
      if (32'(rq_lane_q) == k) shift_l = shift_q[k*6 +: 6];
  end
  always_comb begin
    rq_d      = rq_q;
    rq_lane_d = rq_lane_q;
    p_d       = p_q;
    t_d       = t_q;
    cnt_d     = cnt_q;
    g_d       = g_q;
    st_d      = st_q;
    out_d     = out_q;
    sum  = $signed({p_q[31], p_q[31:0]}) + $signed({prm_rd_q[31], prm_rd_q});
    // p_q is floor(product / 2^shift) once the shifts are done: it fits 12
    // bits iff its bits 63..11 are all equal
    fits = (p_q[63:11] == '0) || (p_q[63:11] == '1);
    up   = g_q && (st_q || p_q[0]);
    qz   = 14'($signed(p_q[11:0])) + 14'(up) + 14'($signed(zp));
    unique case (rq_q)
      RqIdle: begin
        if (rq_start) begin
          p_d       = {32'h0, req_wdata_i};
          rq_lane_d = lane;
          rq_d      = RqSum;
        end
      end
      RqSum: begin
        // sat32: the 33-bit sum overflows 32 bits when its top two bits differ
        if (sum[32] != sum[31]) t_d = sum[32] ? 32'h8000_0000 : 32'h7fff_ffff;
        else                    t_d = sum[31:0];
        rq_d = RqMulWait;
      end
      // the product takes two cycles (t_q and the mult read hold still): the
      // path through the DSPs has two clock periods
      RqMulWait: rq_d = RqMul;
      RqMul: begin
        // a shift of 32 or more starts with 32 at once: p >> 32, its bit 31
        // the guard, the OR of bits 30..0 the sticky
        if (shift_l[5]) begin
          p_d   = {{32{prod[63]}}, prod[63:32]};
          g_d   = prod[31];
          st_d  = prod[30:0] != 31'd0;
          cnt_d = {1'b0, shift_l[4:0]};
        end else begin
          p_d   = prod;
          g_d   = 1'b0;
          st_d  = 1'b0;
          cnt_d = shift_l;
        end
        rq_d  = RqShift;
      end
      RqShift: begin
        if (cnt_q != 6'd0) begin
          p_d   = {p_q[63], p_q[63:1]};
          g_d   = p_q[0];
          st_d  = st_q || g_q;
          cnt_d = cnt_q - 6'd1;
        end else begin
          // round half to even, add zp, clamp (as npu_requant's order: lo first)
          if (!fits)                        out_d = p_q[63] ? lo : hi;
          else if (qz < 14'($signed(lo)))   out_d = lo;
          else if (qz > 14'($signed(hi)))   out_d = hi;
          else                              out_d = qz[7:0];
          rq_d = RqIdle;
        end
      end
      default: rq_d = RqIdle;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      w_q         <= '0;
      x_q         <= '0;
      s_q         <= '0;
      shift_q     <= '0;
      outp_q      <= '0;
      mac_busy_q  <= 1'b0;
      mac_k_q     <= '0;
      mac_ph_q    <= 1'b0;
      rq_q        <= RqIdle;
      rq_lane_q   <= '0;
      p_q         <= '0;
      t_q         <= '0;
      cnt_q       <= '0;
      g_q         <= 1'b0;
      st_q        <= 1'b0;
      out_q       <= '0;
      rsp_valid_q <= 1'b0;
      rsp_rdata_q <= 32'h0;
      rsp_err_q   <= 1'b0;
    end else begin
      w_q         <= w_d;
      x_q         <= x_d;
      s_q         <= s_d;
      shift_q     <= shift_d;
      outp_q      <= outp_d;
      mac_busy_q  <= mac_busy_d;
      mac_k_q     <= mac_k_d;
      mac_ph_q    <= mac_ph_d;
      rq_q        <= rq_d;
      rq_lane_q   <= rq_lane_d;
      p_q         <= p_d;
      t_q         <= t_d;
      cnt_q       <= cnt_d;
      g_q         <= g_d;
      st_q        <= st_d;
      out_q       <= out_d;
      rsp_valid_q <= fire;
      rsp_rdata_q <= rsp_rdata_d;
      rsp_err_q   <= rsp_err_d;
    end
  end

  assign rsp_valid_o = rsp_valid_q;
  assign rsp_rdata_o = rsp_rdata_q;
  assign rsp_err_o   = rsp_err_q;

  // The array bases must be aligned to their spans (the decode compares the
  // bits above the span).
  if ((XOff & ~(12'hFFF << XSpanW)) != 12'h0 || (SOff & ~(12'hFFF << LaneSpanW)) != 12'h0
      || (ReqBiasOff & ~(12'hFFF << LaneSpanW)) != 12'h0 || (ReqMultOff & ~(12'hFFF << LaneSpanW)) != 12'h0
      || (ReqShiftOff & ~(12'hFFF << LaneSpanW)) != 12'h0 || (ReqAccOff & ~(12'hFFF << LaneSpanW)) != 12'h0
      || (WOff & ~(12'hFFF << WSpanW)) != 12'h0) begin : g_bad_offsets
    $error("npu_seq_dp: an array base is not aligned to its span");
  end

endmodule

`default_nettype wire
