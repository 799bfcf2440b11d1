// tessel_cvt: the float/int8 converter (docs/memory-map.md, region CVT), a
// DMA unit on the memory port that quantises f32 tensors into 8-bit codes
// and dequantises codes into f32, bit for bit as the firmware's
// tfw_quantize and tfw_dequantize (the arithmetic is tessel_cvt_pkg's), and
// copies 8-bit tensors between layouts.
//
// A job walks a 2-D loop, j over OUTER outer iterations and i over INNER
// inner ones; element (j, i) is read at SRC + j*SRC_OUTER + i*SRC_INNER and
// written at DST + j*DST_OUTER + i*DST_INNER (byte addresses, strides mod
// 2^32, advanced by adders). Quantising and copying, elements i >=
// INNER_REAL read nothing and write the zero point (clamped to the codes'
// range when quantising, its low byte when copying): a PLAIN NCHW tensor
// goes into the NPU's BLOCKED layout in one job per channel block (i the
// lanes, j the pixels), padding lanes included.
//
// Three parts, one element (or a beat's worth of padding) a cycle at best:
//  1. the walker hands each element to an in-order queue and asks for the
//     source beat unless the last read, or the last read of the same inner
//     index (mod 16: a BLOCKED input reads lane i's plane at every pixel,
//     two pixels to a beat), was of that beat;
//  2. the queue's head takes the next read beat when it asked for one
//     (beats are taken off the port as they come, into a buffer),
//     converts its element and merges the result into the pending write
//     beat (bytes that share a beat become one write);
//  3. a write beat whose successor lands elsewhere (or the job's last one)
//     goes out as a single-beat write; its request goes before the walker's
//     reads on the request channel.
// The job is over when the walker is done, the queue is empty, the last
// beat is written and every write answered. Reads and writes are in flight
// together: the firmware gives jobs whose source and destination do not
// overlap. A bus error on any access sets ERR; the job still runs to the end.
`default_nettype none

module tessel_cvt #(
  parameter int unsigned Depth = 64   // elements queued, hence reads in flight (power of two)
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // Core bus (the CVT window).
  input  wire logic        req_valid_i,
  output      logic        req_ready_o,
  input  wire logic        req_we_i,
  input  wire logic [3:0]  req_be_i,
  input  wire logic [11:0] req_addr_i,
  input  wire logic [31:0] req_wdata_i,
  output      logic        rsp_valid_o,
  output      logic [31:0] rsp_rdata_o,
  output      logic        rsp_err_o,
  // Memory-port master.
  output      tessel_memport_pkg::req_t m_req_o,
  input  wire tessel_memport_pkg::rsp_t m_rsp_i
);
  localparam logic [31:0] IdValue = 32'h5456_4354;   // the bytes "TCVT"
  localparam logic [1:0]  OpQuant = 2'd1, OpCopy = 2'd3;   // (2: dequantise)

  // The byte-write of a register: old with the bytes of v under mask m.
  function automatic logic [31:0] upd(input logic [31:0] old, input logic [31:0] v, input logic [31:0] m);
    upd = (old & ~m) | (v & m);
  endfunction

  // A beat's byte strobes as a bit mask.
  function automatic logic [63:0] strb_bits(input logic [7:0] s);
    for (int k = 0; k < 8; k++) strb_bits[8*k +: 8] = {8{s[k]}};
  endfunction

  // ---- registers ------------------------------------------------------------
  logic [31:0] src_q, dst_q, src_in_q, src_out_q, dst_in_q, dst_out_q, scale_q, recip_q, zp_q;
  logic [15:0] inner_q, inner_real_q;
  logic [23:0] outer_q;
  logic        busy_q, err_q, quant_q, copy_q, u8_q;   // quant_q/copy_q: OP 1/3, else 2
  logic        bytes_out;                             // the destination's elements are bytes (OP 1, 3)

  // the request channel's choice (part 3)
  logic        sel_wr_q, offered_q, req_is_wr, rd_taken;
  // the write going out (part 3)
  logic        wo_q, wo_req_sent_q, wo_w_sent_q, wo_done, wo_free;

  // ---- 1. the walker ----------------------------------------------------------
  logic        walk_q;                        // elements left to hand out
  logic [15:0] wi_q;                          // i
  logic [23:0] wj_q;                          // j
  logic [31:0] s_row_q, s_el_q, d_row_q, d_el_q;  // addresses of (j, 0) and (j, i)
  // The beats last read, one slot per inner index (i mod 16).
  localparam int unsigned Slots = 16;
  logic [Slots-1:0] slot_ok_q;                // slot_tag_q[k] holds a beat read
  logic [28:0]      slot_tag_q [Slots];
  logic [63:0]      slot_data_q [Slots];      // (written when the beat arrives)
  logic [3:0]       slot, e_slot;
  logic             last_ok_q;                // the last read's beat and slot
  logic [28:0]      last_beat_q;
  logic [3:0]       last_slot_q;
  logic             hit_last, hit_slot;
  logic        rd_pend_q;                     // a read request waits for the channel
  logic [28:0] rd_beat_q;

  // queue entry: {pad, needs its own beat, byte offset in the beat,
  // destination, elements it stands for less one, its beat's slot}
  localparam int unsigned EW = 1 + 1 + 3 + 32 + 3 + 4;
  logic [EW-1:0] e_in, e_head;
  logic          e_push, e_pop, e_empty, e_full;
  logic          pad, new_beat, walk_step;
  logic [15:0]   left;                        // inner - i: elements left in the row
  logic [3:0]    run;                         // elements this step hands out, 1..8

  assign bytes_out = quant_q || copy_q;
  assign pad      = bytes_out && wi_q >= inner_real_q;
  assign slot     = wi_q[3:0];
  assign hit_last = last_ok_q && last_beat_q == s_el_q[31:3];
  assign hit_slot = slot_ok_q[slot] && slot_tag_q[slot] == s_el_q[31:3];
  assign new_beat = !pad && !hit_last && !hit_slot;
  assign e_slot   = hit_last ? last_slot_q : slot;
  // A step needs room in the queue, and a free read slot if it reads a new beat.
  assign walk_step = walk_q && !e_full && (!new_beat || !rd_pend_q || rd_taken);
  assign e_push    = walk_step;
  // Padding whose destination bytes are adjacent (DST_INNER 1: the
  // BLOCKED layout's lanes) goes up to the end of the beat in one step.
  assign left = inner_q - wi_q;
  always_comb begin
    run = 4'd1;
    if (pad && dst_in_q == 32'd1) begin
      run = 4'd8 - {1'b0, d_el_q[2:0]};
      if (left < 16'(run)) run = left[3:0];
    end
  end
  assign e_in      = {pad, new_beat, s_el_q[2:0], d_el_q, 3'(run - 4'd1), e_slot};

  tessel_fifo #(.Width(EW), .Depth(Depth)) u_queue (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (e_push),
    .data_i  (e_in),
    .pop_i   (e_pop),
    .head_o  (e_head),
    .empty_o (e_empty),
    .full_o  (e_full)
  );

  // ---- 2. the queue's head: its beat, its conversion --------------------------
  logic        h_pad, h_new;
  logic [2:0]  h_off, h_run;
  logic [31:0] h_dst;
  logic [3:0]  h_slot;
  assign {h_pad, h_new, h_off, h_dst, h_run, h_slot} = e_head;

  logic [63:0] beat;                          // the source beat of the head's element
  // Read beats wait here for the head: taking them at once keeps r_ready off
  // the write path (a memory that caps requests in flight would otherwise
  // hold a beat the unit waits to take until the unit's write is accepted,
  // and the write waits for that beat's element). Every read in flight
  // belongs to a queued element, so it never fills.
  logic          rb_full, rb_empty, rb_push, rb_pop;
  logic [63:0]   rb_data;
  tessel_fifo #(.Width(64), .Depth(Depth)) u_reads (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (rb_push),
    .data_i  (m_rsp_i.r_data),
    .pop_i   (rb_pop),
    .head_o  (rb_data),
    .empty_o (rb_empty),
    .full_o  (rb_full)
  );
  assign rb_push = m_rsp_i.r_valid && !rb_full;
  assign rb_pop  = e_pop && h_new && !h_pad;
  logic [31:0] f_in, f_out;
  logic [7:0]  code_in, code_out, pad_code;
  logic        h_ready;                       // the head's beat is here
  logic        merge_ok;                      // the pending write beat can take it

  // (an element that reuses its slot's beat comes after the element that
  // read it, so the slot holds that beat by then)
  assign beat    = h_new ? rb_data : slot_data_q[h_slot];
  assign h_ready = !e_empty && (!h_new || h_pad || !rb_empty);
  assign f_in    = h_off[2] ? beat[63:32] : beat[31:0];
  assign code_in = beat[8*h_off +: 8];
  // the zero point clamped to the codes' range, as tfw_quantize pins a NaN
  assign pad_code = u8_q ? ($signed(zp_q) < 0 ? 8'd0 : $signed(zp_q) > 255 ? 8'd255 : zp_q[7:0])
                         : ($signed(zp_q) < -128 ? 8'h80 : $signed(zp_q) > 127 ? 8'h7f : zp_q[7:0]);
  assign code_out = h_pad ? (copy_q ? zp_q[7:0] : pad_code)
                  : copy_q ? code_in : tessel_cvt_pkg::cvt_quantize(f_in, scale_q, recip_q, zp_q, u8_q);
  assign f_out    = tessel_cvt_pkg::cvt_dequantize(code_in, u8_q, scale_q, zp_q);

  // the result as a beat's bytes
  logic [63:0] res_data;
  logic [7:0]  res_strb;
  always_comb begin
    if (bytes_out) begin
      res_data = {8{code_out}};
      res_strb = 8'(({1'b0, 8'hff} >> (3'd7 - h_run)) << h_dst[2:0]);  // run + 1 bytes from the offset
    end else begin
      res_data = {2{f_out}};
      res_strb = h_dst[2] ? 8'hf0 : 8'h0f;
    end
  end

  // ---- 3. the pending write beat and the write going out ------------------------
  logic        pw_q;                  // a pending beat
  logic [28:0] pw_beat_q;
  logic [63:0] pw_data_q;
  logic [7:0]  pw_strb_q;
  logic [28:0] wo_beat_q;
  logic [63:0] wo_data_q;
  logic [7:0]  wo_strb_q;
  logic        same_beat, flush_end;
  logic [$clog2(Depth)+8:0] b_cnt_q;  // writes sent, unanswered

  assign same_beat = pw_q && pw_beat_q == h_dst[31:3];
  assign wo_done   = wo_q && (wo_req_sent_q || (req_is_wr && m_rsp_i.req_ready))
                     && (wo_w_sent_q || m_rsp_i.w_ready);
  // (the registered state only: the port's ready signals must not reach
  // r_ready, through the arbiter they would close a loop)
  assign wo_free   = !wo_q;
  // the head merges into the pending beat, or the pending beat moves out first
  assign merge_ok  = !pw_q || same_beat || wo_free;
  assign e_pop     = h_ready && merge_ok;
  // after the job's last element the pending beat leaves as soon as it can
  assign flush_end = pw_q && !walk_q && e_empty && wo_free;

  // ---- the request channel: the write's request first, a read's held once offered
  assign req_is_wr = offered_q ? sel_wr_q : (wo_q && !wo_req_sent_q);
  assign rd_taken  = rd_pend_q && !req_is_wr && m_rsp_i.req_ready;

  assign m_req_o.req_valid = req_is_wr ? (wo_q && !wo_req_sent_q) : rd_pend_q;
  assign m_req_o.req_write = req_is_wr;
  assign m_req_o.req_addr  = {req_is_wr ? wo_beat_q : rd_beat_q, 3'b000};
  assign m_req_o.req_len   = 8'd0;
  assign m_req_o.req_id    = '0;
  assign m_req_o.w_valid   = wo_q && !wo_w_sent_q;
  assign m_req_o.w_data    = wo_data_q;
  assign m_req_o.w_strb    = wo_strb_q;
  assign m_req_o.w_last    = 1'b1;
  assign m_req_o.r_ready   = !rb_full;
  assign m_req_o.b_ready   = 1'b1;

  // ---- register access ----------------------------------------------------------
  logic        rsp_valid_q, rsp_err_q;
  logic [31:0] rsp_rdata_q, rd_val, wmask;
  logic        start, wr;
  assign req_ready_o = 1'b1;
  assign rsp_valid_o = rsp_valid_q;
  assign rsp_rdata_o = rsp_rdata_q;
  assign rsp_err_o   = rsp_err_q;
  assign wr    = req_valid_i && req_we_i;
  assign wmask = {{8{req_be_i[3]}}, {8{req_be_i[2]}}, {8{req_be_i[1]}}, {8{req_be_i[0]}}};
  assign start = wr && req_addr_i == tessel_memmap_pkg::CvtCtrlOff && req_be_i[0] && !busy_q &&
                 req_wdata_i[1:0] != 2'd0;

  logic known;
  always_comb begin
    known = 1'b1;
    unique case (req_addr_i)
      tessel_memmap_pkg::CvtIdOff:        rd_val = IdValue;
      tessel_memmap_pkg::CvtCtrlOff:      rd_val = {22'd0, err_q, busy_q, 8'd0};
      tessel_memmap_pkg::CvtSrcOff:       rd_val = src_q;
      tessel_memmap_pkg::CvtDstOff:       rd_val = dst_q;
      tessel_memmap_pkg::CvtInnerOff:     rd_val = {16'd0, inner_q};
      tessel_memmap_pkg::CvtInnerRealOff: rd_val = {16'd0, inner_real_q};
      tessel_memmap_pkg::CvtOuterOff:     rd_val = {8'd0, outer_q};
      tessel_memmap_pkg::CvtSrcInnerOff:  rd_val = src_in_q;
      tessel_memmap_pkg::CvtSrcOuterOff:  rd_val = src_out_q;
      tessel_memmap_pkg::CvtDstInnerOff:  rd_val = dst_in_q;
      tessel_memmap_pkg::CvtDstOuterOff:  rd_val = dst_out_q;
      tessel_memmap_pkg::CvtScaleOff:     rd_val = scale_q;
      tessel_memmap_pkg::CvtRecipOff:     rd_val = recip_q;
      tessel_memmap_pkg::CvtZpOff:        rd_val = zp_q;
      default: begin
        rd_val = 32'h0;
        known  = 1'b0;
      end
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rsp_valid_q <= 1'b0;
      rsp_err_q   <= 1'b0;
      rsp_rdata_q <= 32'h0;
      {src_q, dst_q, src_in_q, src_out_q, dst_in_q, dst_out_q, scale_q, recip_q, zp_q} <= '0;
      inner_q      <= '0;
      inner_real_q <= '0;
      outer_q      <= '0;
    end else begin
      rsp_valid_q <= req_valid_i;
      rsp_err_q   <= req_valid_i && !known;
      rsp_rdata_q <= rd_val;
      // a register written while a job runs would change the job under it:
      // the write is ignored (the firmware waits for BUSY to clear)
      if (wr && known && !busy_q) begin
        unique case (req_addr_i)
          tessel_memmap_pkg::CvtSrcOff:       src_q     <= upd(src_q, req_wdata_i, wmask);
          tessel_memmap_pkg::CvtDstOff:       dst_q     <= upd(dst_q, req_wdata_i, wmask);
          tessel_memmap_pkg::CvtInnerOff:     inner_q   <= 16'(upd({16'd0, inner_q}, req_wdata_i, wmask));
          tessel_memmap_pkg::CvtInnerRealOff: inner_real_q <= 16'(upd({16'd0, inner_real_q}, req_wdata_i, wmask));
          tessel_memmap_pkg::CvtOuterOff:     outer_q   <= 24'(upd({8'd0, outer_q}, req_wdata_i, wmask));
          tessel_memmap_pkg::CvtSrcInnerOff:  src_in_q  <= upd(src_in_q, req_wdata_i, wmask);
          tessel_memmap_pkg::CvtSrcOuterOff:  src_out_q <= upd(src_out_q, req_wdata_i, wmask);
          tessel_memmap_pkg::CvtDstInnerOff:  dst_in_q  <= upd(dst_in_q, req_wdata_i, wmask);
          tessel_memmap_pkg::CvtDstOuterOff:  dst_out_q <= upd(dst_out_q, req_wdata_i, wmask);
          tessel_memmap_pkg::CvtScaleOff:     scale_q   <= upd(scale_q, req_wdata_i, wmask);
          tessel_memmap_pkg::CvtRecipOff:     recip_q   <= upd(recip_q, req_wdata_i, wmask);
          tessel_memmap_pkg::CvtZpOff:        zp_q      <= upd(zp_q, req_wdata_i, wmask);
          default: ;
        endcase
      end
    end
  end

  // ---- the job's state ------------------------------------------------------------
  logic last_i, last_j;
  assign last_i = left == 16'(run);
  assign last_j = wj_q == outer_q - 24'd1;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      err_q  <= 1'b0;
      quant_q <= 1'b0;
      copy_q  <= 1'b0;
      u8_q   <= 1'b0;
      walk_q <= 1'b0;
      wi_q   <= '0;
      wj_q   <= '0;
      {s_row_q, s_el_q, d_row_q, d_el_q} <= '0;
      slot_ok_q   <= '0;
      last_ok_q   <= 1'b0;
      last_beat_q <= '0;
      last_slot_q <= '0;
      rd_pend_q   <= 1'b0;
      rd_beat_q   <= '0;
      pw_q        <= 1'b0;
      pw_beat_q   <= '0;
      pw_data_q   <= '0;
      pw_strb_q   <= '0;
      wo_q        <= 1'b0;
      wo_req_sent_q <= 1'b0;
      wo_w_sent_q <= 1'b0;
      wo_beat_q   <= '0;
      wo_data_q   <= '0;
      wo_strb_q   <= '0;
      b_cnt_q     <= '0;
      sel_wr_q    <= 1'b0;
      offered_q   <= 1'b0;
    end else begin
      // a job starts
      if (start) begin
        busy_q    <= 1'b1;
        err_q     <= 1'b0;
        quant_q   <= req_wdata_i[1:0] == OpQuant;
        copy_q    <= req_wdata_i[1:0] == OpCopy;
        u8_q      <= req_wdata_i[2];
        walk_q    <= inner_q != '0 && outer_q != '0;
        wi_q      <= '0;
        wj_q      <= '0;
        s_row_q   <= src_q;
        s_el_q    <= src_q;
        d_row_q   <= dst_q;
        d_el_q    <= dst_q;
        slot_ok_q <= '0;
        last_ok_q <= 1'b0;
      end
      // 1. the walker
      if (walk_step) begin
        if (new_beat) begin
          rd_pend_q   <= 1'b1;
          rd_beat_q   <= s_el_q[31:3];
          slot_ok_q[slot]  <= 1'b1;
          slot_tag_q[slot] <= s_el_q[31:3];
          last_ok_q        <= 1'b1;
          last_beat_q      <= s_el_q[31:3];
          last_slot_q      <= slot;
        end
        if (!last_i) begin
          wi_q   <= wi_q + 16'(run);
          s_el_q <= s_el_q + src_in_q;   // (a run is padding: its source is not read)
          d_el_q <= d_el_q + (run == 4'd1 ? dst_in_q : 32'(run));
        end else begin
          wi_q    <= '0;
          wj_q    <= wj_q + 24'd1;
          s_row_q <= s_row_q + src_out_q;
          s_el_q  <= s_row_q + src_out_q;
          d_row_q <= d_row_q + dst_out_q;
          d_el_q  <= d_row_q + dst_out_q;
          if (last_j) walk_q <= 1'b0;
        end
      end
      if (rd_taken && !(walk_step && new_beat)) rd_pend_q <= 1'b0;
      // the request channel: a request once offered is offered until taken
      offered_q <= m_req_o.req_valid && !m_rsp_i.req_ready;
      sel_wr_q  <= req_is_wr;
      // 2. the head's beat, kept for the elements after it
      if (rb_pop) slot_data_q[h_slot] <= rb_data;
      if (rb_push && m_rsp_i.r_err) err_q <= 1'b1;
      // 3. the write going out
      if (wo_q) begin
        if (req_is_wr && m_rsp_i.req_ready) wo_req_sent_q <= 1'b1;
        if (m_rsp_i.w_ready) wo_w_sent_q <= 1'b1;
        if (wo_done) wo_q <= 1'b0;
      end
      // the pending beat: merge the head, or hand the pending beat out first
      if (e_pop && same_beat) begin
        pw_data_q <= (pw_data_q & ~strb_bits(res_strb)) | (res_data & strb_bits(res_strb));
        pw_strb_q <= pw_strb_q | res_strb;
      end else if ((e_pop && pw_q) || flush_end) begin
        wo_q          <= 1'b1;
        wo_req_sent_q <= 1'b0;
        wo_w_sent_q   <= 1'b0;
        wo_beat_q     <= pw_beat_q;
        wo_data_q     <= pw_data_q;
        wo_strb_q     <= pw_strb_q;
        pw_q          <= 1'b0;
      end
      if (e_pop && !same_beat) begin
        pw_q      <= 1'b1;
        pw_beat_q <= h_dst[31:3];
        pw_data_q <= res_data & strb_bits(res_strb);
        pw_strb_q <= res_strb;
      end
      // writes in flight
      if ((req_is_wr && m_req_o.req_valid && m_rsp_i.req_ready) && !m_rsp_i.b_valid) b_cnt_q <= b_cnt_q + 1'b1;
      if (!(req_is_wr && m_req_o.req_valid && m_rsp_i.req_ready) && m_rsp_i.b_valid) b_cnt_q <= b_cnt_q - 1'b1;
      if (m_rsp_i.b_valid && m_rsp_i.b_err) err_q <= 1'b1;
      // the end of the job
      if (busy_q && !start && !walk_q && e_empty && rb_empty && !pw_q && !wo_q && !rd_pend_q && b_cnt_q == '0)
        busy_q <= 1'b0;
    end
  end

  logic unused;
  assign unused = ^{m_rsp_i.r_id, m_rsp_i.r_last, m_rsp_i.b_id};

endmodule

`default_nettype wire
