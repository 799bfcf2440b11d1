// tessel_dcache: the data bus's way to DRAM with a small read cache
// (docs/memory-map.md, region DCACHE). Lines lines of 32 bytes (4 beats of
// the 64-bit memory port), direct-mapped; a load that misses refills its
// line with one 4-beat burst and is answered as its own beat arrives; a load
// that hits is answered the next cycle, back to back, as from a TCM.
//
// Write-through, no write-allocate: every store goes to DRAM as a
// single-beat write, as through tessel_memport_bridge, and is answered
// with its write response (so a store fault is still precise); a store
// into a cached line also updates the line. A store whose response carries
// an error drops its line.
//
// Coherence: other memory-port masters (the NPU's DMA, the converter) write
// DRAM unseen. A write to the INVAL register (the DCACHE window) makes every
// line invalid at once; the firmware's drivers do it after every NPU run and
// converter job (firmware/base/dcache.h).
//
// One access at a time, as the core issues them; while a refill's beats are
// still coming only loads that hit (a valid line, or a beat of the line
// being filled that has arrived) are taken: stores, misses and register
// accesses wait for the burst to end. So a store never races a refill of
// its own line, and INVAL never lands in the middle of one.
//
// A refill beat with r_err answers the waiting load with the error (a load
// access fault, as through the bridge) and leaves the line invalid.
`default_nettype none

module tessel_dcache #(
  parameter int unsigned Lines = 16   // lines of 32 bytes, a power of two, 2..1024
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // Core bus, the DRAM window.
  input  wire logic        req_valid_i,
  output      logic        req_ready_o,
  input  wire logic        req_we_i,
  input  wire logic [3:0]  req_be_i,
  input  wire logic [31:0] req_addr_i,
  input  wire logic [31:0] req_wdata_i,
  output      logic        rsp_valid_o,
  output      logic [31:0] rsp_rdata_o,
  output      logic        rsp_err_o,
  // Core bus, the DCACHE register window (the value written is not used).
  input  wire logic        reg_req_valid_i,
  output      logic        reg_req_ready_o,
  input  wire logic        reg_req_we_i,
  input  wire logic [3:0]  reg_req_be_i,
  input  wire logic [11:0] reg_req_addr_i,
  output      logic        reg_rsp_valid_o,
  output      logic [31:0] reg_rsp_rdata_o,
  output      logic        reg_rsp_err_o,
  // Memory-port master.
  output      tessel_memport_pkg::req_t m_req_o,
  input  wire tessel_memport_pkg::rsp_t m_rsp_i
);

  localparam int unsigned IdxW = $clog2(Lines);
  localparam int unsigned TagW = 27 - IdxW;             // address bits [31:5+IdxW]
  localparam logic [31:0] IdValue = 32'h4843_4454;       // the bytes "TDCH"

  if (Lines < 2 || Lines > 1024 || (Lines & (Lines - 1)) != 0) begin : g_bad_lines
    $error("tessel_dcache: Lines must be a power of two, 2..1024");
  end

  // ---- state ------------------------------------------------------------------
  // The lines: valid bits and tags in flops, data in a memory (one word
  // read and one beat written per cycle: block RAM on an FPGA).
  logic [Lines-1:0] valid_q, valid_d;
  logic [TagW-1:0]  tag_q [Lines];
  logic [63:0]      data_q [Lines*4];
  logic [63:0]      rd_q;                    // the word a hit read
  // The memory-port request of the refill or the store: its address (a
  // refill's is its line's, and names the line being filled), request and
  // write beat not yet taken.
  logic [31:0] pa_q, pa_d;
  logic        preq_q, preq_d, pw_q, pw_d;
  // Refill: beats still to come, the next one's index, beats arrived without
  // error, any beat with one.
  logic        fill_q, fill_d;
  logic [1:0]  fill_beat_q, fill_beat_d;
  logic [3:0]  beat_ok_q, beat_ok_d;
  logic        fill_err_q, fill_err_d;
  // The load that missed waits for its beat; the store waits for its B.
  logic        wait_q, wait_d, st_q, st_d;
  logic [1:0]  wait_beat_q, wait_beat_d;
  logic [3:0]  st_be_q, st_be_d;
  logic [31:0] st_wdata_q, st_wdata_d;
  // The last load's word half (addr[2]), and a hit answered this cycle.
  logic        lane_q, lane_d, hit_rsp_q, hit_rsp_d;
  // Register window response.
  logic        reg_rsp_valid_q, reg_rsp_err_q;
  logic [31:0] reg_rsp_rdata_q;

  // ---- lookup of the request ---------------------------------------------------
  logic [IdxW-1:0] idx, fill_idx, st_idx;
  logic [TagW-1:0] tag;
  logic [1:0]      beat;
  logic            tag_eq, lk_hit, fill_hit, crit, b_now, free, acc, acc_ld, acc_st;
  logic [Lines-1:0] valid_cur;               // valid_q less a line a failed store drops now
  assign idx      = req_addr_i[5 +: IdxW];
  assign tag      = req_addr_i[31 -: TagW];
  assign beat     = req_addr_i[4:3];
  assign fill_idx = pa_q[5 +: IdxW];
  assign st_idx   = pa_q[5 +: IdxW];

  // Responses due this cycle: the waiting load's beat, the store's B.
  assign crit  = wait_q && m_rsp_i.r_valid && fill_beat_q == wait_beat_q;
  assign b_now = st_q && m_rsp_i.b_valid;

  always_comb begin
    valid_cur = valid_q;
    if (b_now && m_rsp_i.b_err) valid_cur[st_idx] = 1'b0;
  end

  assign tag_eq   = tag_q[idx] == tag;
  assign lk_hit   = valid_cur[idx] && tag_eq;
  assign fill_hit = fill_q && idx == fill_idx && tag_eq && beat_ok_q[beat];

  // A new access once the last one is answered (this cycle at the latest);
  // during a refill only loads that hit.
  assign free   = !(wait_q && !crit) && !(st_q && !b_now);
  assign req_ready_o = free && (!fill_q || (!req_we_i && (lk_hit || fill_hit)));
  assign acc    = req_valid_i && req_ready_o;
  assign acc_ld = acc && !req_we_i;
  assign acc_st = acc && req_we_i;

  // ---- register window ---------------------------------------------------------
  logic        reg_acc, inval, reg_known;
  logic [31:0] reg_val;
  assign reg_req_ready_o = free && !fill_q;
  assign reg_acc = reg_req_valid_i && reg_req_ready_o;
  assign inval   = reg_acc && reg_req_we_i && reg_req_addr_i == tessel_memmap_pkg::DcacheInvalOff
                   && reg_req_be_i != 4'b0000;

  always_comb begin
    reg_known = 1'b1;
    unique case (reg_req_addr_i)
      tessel_memmap_pkg::DcacheIdOff:    reg_val = IdValue;
      tessel_memmap_pkg::DcacheLinesOff: reg_val = 32'(Lines);
      tessel_memmap_pkg::DcacheInvalOff: reg_val = 32'h0;
      default: begin
        reg_val   = 32'h0;
        reg_known = 1'b0;
      end
    endcase
  end

  // ---- next state ----------------------------------------------------------------
  always_comb begin
    valid_d     = valid_cur;
    pa_d        = pa_q;
    preq_d      = preq_q && !m_rsp_i.req_ready;
    pw_d        = pw_q && !m_rsp_i.w_ready;
    fill_d      = fill_q;
    fill_beat_d = fill_beat_q;
    beat_ok_d   = beat_ok_q;
    fill_err_d  = fill_err_q;
    wait_d      = wait_q && !crit;
    wait_beat_d = wait_beat_q;
    st_d        = st_q && !b_now;
    st_be_d     = st_be_q;
    st_wdata_d  = st_wdata_q;
    lane_d      = lane_q;
    hit_rsp_d   = 1'b0;

    // 1. Refill beats, in address order; the last one makes the line valid
    // unless a beat failed.
    if (fill_q && m_rsp_i.r_valid) begin
      beat_ok_d[fill_beat_q] = !m_rsp_i.r_err;
      fill_err_d  = fill_err_q || m_rsp_i.r_err;
      fill_beat_d = fill_beat_q + 2'd1;
      if (fill_beat_q == 2'd3) begin
        fill_d = 1'b0;
        valid_d[fill_idx] = !fill_err_d;
      end
    end

    // 2. The new access: a load hits (answered next cycle) or refills its
    // line; a store goes to the port.
    if (acc_ld) begin
      lane_d = req_addr_i[2];
      if (lk_hit || fill_hit) begin
        hit_rsp_d = 1'b1;
      end else begin
        valid_d[idx] = 1'b0;
        pa_d         = {req_addr_i[31:5], 5'b00000};
        preq_d       = 1'b1;
        fill_d       = 1'b1;
        fill_beat_d  = 2'd0;
        beat_ok_d    = 4'b0000;
        fill_err_d   = 1'b0;
        wait_d       = 1'b1;
        wait_beat_d  = beat;
      end
    end
    if (acc_st) begin
      pa_d       = req_addr_i;
      preq_d     = 1'b1;
      pw_d       = 1'b1;
      st_d       = 1'b1;
      st_be_d    = req_be_i;
      st_wdata_d = req_wdata_i;
    end

    // 3. INVAL: every line.
    if (inval) valid_d = '0;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q         <= '0;
      pa_q            <= 32'h0;
      preq_q          <= 1'b0;
      pw_q            <= 1'b0;
      fill_q          <= 1'b0;
      fill_beat_q     <= 2'd0;
      beat_ok_q       <= 4'h0;
      fill_err_q      <= 1'b0;
      wait_q          <= 1'b0;
      wait_beat_q     <= 2'd0;
      st_q            <= 1'b0;
      st_be_q         <= 4'h0;
      st_wdata_q      <= 32'h0;
      lane_q          <= 1'b0;
      hit_rsp_q       <= 1'b0;
      reg_rsp_valid_q <= 1'b0;
      reg_rsp_err_q   <= 1'b0;
      reg_rsp_rdata_q <= 32'h0;
    end else begin
      valid_q         <= valid_d;
      pa_q            <= pa_d;
      preq_q          <= preq_d;
      pw_q            <= pw_d;
      fill_q          <= fill_d;
      fill_beat_q     <= fill_beat_d;
      beat_ok_q       <= beat_ok_d;
      fill_err_q      <= fill_err_d;
      wait_q          <= wait_d;
      wait_beat_q     <= wait_beat_d;
      st_q            <= st_d;
      st_be_q         <= st_be_d;
      st_wdata_q      <= st_wdata_d;
      lane_q          <= lane_d;
      hit_rsp_q       <= hit_rsp_d;
      reg_rsp_valid_q <= reg_acc;
      reg_rsp_err_q   <= reg_acc && !reg_known;
      reg_rsp_rdata_q <= reg_val;
    end
  end

  // ---- the lines' tags and data (no reset: valid_q guards them) ------------------
  // One write a cycle: a refill beat, or a store's bytes into a line it hits
  // (stores are not taken during a refill). One read: the word of a hit.
  logic                mem_we, mem_re;
  logic [IdxW+1:0]     mem_waddr;
  logic [63:0]         mem_wdata;
  logic [7:0]          mem_strb;
  always_comb begin
    mem_we    = 1'b0;
    mem_waddr = {fill_idx, fill_beat_q};
    mem_wdata = m_rsp_i.r_data;
    mem_strb  = 8'hff;
    if (fill_q && m_rsp_i.r_valid) begin
      mem_we = 1'b1;
    end else if (acc_st && lk_hit) begin
      mem_we    = 1'b1;
      mem_waddr = {idx, beat};
      mem_wdata = {req_wdata_i, req_wdata_i};
      mem_strb  = req_addr_i[2] ? {req_be_i, 4'b0000} : {4'b0000, req_be_i};
    end
  end
  assign mem_re = acc_ld && (lk_hit || fill_hit);

  always_ff @(posedge clk_i) begin
    if (mem_we) begin
      for (int k = 0; k < 8; k++) begin
        if (mem_strb[k]) data_q[mem_waddr][8*k +: 8] <= mem_wdata[8*k +: 8];
      end
    end
    if (mem_re) rd_q <= data_q[{idx, beat}];
  end

  always_ff @(posedge clk_i) begin
    if (acc_ld && !(lk_hit || fill_hit)) tag_q[idx] <= tag;
  end

  // ---- outputs --------------------------------------------------------------------
  // One of the three answers at a time: a hit (from the memory), the waiting
  // load's beat, a store's B.
  assign rsp_valid_o = hit_rsp_q || crit || b_now;
  always_comb begin
    rsp_rdata_o = 32'h0;
    if (hit_rsp_q) rsp_rdata_o = lane_q ? rd_q[63:32] : rd_q[31:0];
    else if (crit) rsp_rdata_o = lane_q ? m_rsp_i.r_data[63:32] : m_rsp_i.r_data[31:0];
  end
  assign rsp_err_o = (crit && m_rsp_i.r_err) || (b_now && m_rsp_i.b_err);

  assign reg_rsp_valid_o = reg_rsp_valid_q;
  assign reg_rsp_rdata_o = reg_rsp_rdata_q;
  assign reg_rsp_err_o   = reg_rsp_err_q;

  // The port: a refill is a 4-beat read of its line, a store a single-beat
  // write of its word's bytes; id 0, responses taken at once.
  assign m_req_o.req_valid = preq_q;
  assign m_req_o.req_write = st_q;
  assign m_req_o.req_addr  = {pa_q[31:2], 2'b00};
  assign m_req_o.req_len   = st_q ? 8'd0 : 8'd3;
  assign m_req_o.req_id    = '0;
  assign m_req_o.w_valid   = pw_q;
  assign m_req_o.w_data    = {st_wdata_q, st_wdata_q};
  assign m_req_o.w_strb    = pa_q[2] ? {st_be_q, 4'b0000} : {4'b0000, st_be_q};
  assign m_req_o.w_last    = 1'b1;
  assign m_req_o.r_ready   = 1'b1;
  assign m_req_o.b_ready   = 1'b1;

  // One burst or one write at a time, id 0: ids and last need no check.
  logic unused;
  assign unused = ^{m_rsp_i.r_id, m_rsp_i.r_last, m_rsp_i.b_id, pa_q[1:0], req_addr_i[1:0]};

endmodule

`default_nettype wire
