// tessel_fetch_linebuf: the instruction bus's way to DRAM. Keeps one 32-byte
// line (4 beats of the 64-bit memory port) and refills it with one 4-beat
// burst, so code running from DRAM costs one memory round trip per eight
// instructions instead of one per instruction. Hits answer the next cycle,
// back to back.
//
// Coherence: core stores to DRAM are snooped (snoop_*); a store into the line
// drops it, and a store during a refill of that line makes the refill's data
// unusable (it is fetched again). Self-modifying code therefore behaves as
// with no buffer: after the store completes and fence.i, fetches see it.
// Writes by other port masters are not snooped (code is not DMA'd).
`default_nettype none

module tessel_fetch_linebuf (
  input  wire logic           clk_i,
  input  wire logic           rst_ni,
  // Core instruction bus (reads only).
  input  wire logic           req_valid_i,
  output      logic           req_ready_o,
  input  wire logic [31:0]    req_addr_i,
  output      logic           rsp_valid_o,
  output      logic [31:0]    rsp_rdata_o,
  output      logic           rsp_err_o,
  // Stores the core's data bus sends to DRAM.
  input  wire logic           snoop_valid_i,
  input  wire logic [31:0]    snoop_addr_i,
  // Memory-port master (reads only).
  output      tessel_memport_pkg::req_t m_req_o,
  input  wire tessel_memport_pkg::rsp_t m_rsp_i
);

  // The line: tag = address bits [31:5], beats filled so far, their data.
  logic          line_valid_q, line_valid_d;
  logic [26:0]   tag_q, tag_d;
  logic [3:0]    beat_ok_q, beat_ok_d;    // beat arrived
  logic [3:0]    beat_err_q, beat_err_d;  // beat arrived with err
  logic [63:0]   data_q [4];
  // Refill in progress.
  logic          issue_q, issue_d;        // burst request not yet taken
  logic          filling_q, filling_d;    // beats still to come
  logic [1:0]    fill_beat_q, fill_beat_d;
  logic          poison_q, poison_d;      // a store hit the line meanwhile
  logic          stale_q, stale_d;        // only the waiting fetch may use it
  // A fetch that missed and waits.
  logic          wait_q, wait_d;
  logic [31:0]   wait_addr_q, wait_addr_d;
  // Response register.
  logic          rsp_valid_q, rsp_valid_d, rsp_err_q, rsp_err_d;
  logic [31:0]   rsp_rdata_q, rsp_rdata_d;

  logic          accept;
  logic [31:0]   look_addr;               // the fetch being looked up
  logic          look_valid, look_hit, look_ready;
  logic [1:0]    look_beat;
  logic [63:0]   look_data;

  assign m_req_o.req_valid = issue_q;
  assign m_req_o.req_write = 1'b0;
  assign m_req_o.req_addr  = {tag_q, 5'b00000};
  assign m_req_o.req_len   = 8'd3;
  assign m_req_o.req_id    = '0;
  assign m_req_o.w_valid   = 1'b0;
  assign m_req_o.w_data    = 64'h0;
  assign m_req_o.w_strb    = 8'h00;
  assign m_req_o.w_last    = 1'b0;
  assign m_req_o.r_ready   = 1'b1;
  assign m_req_o.b_ready   = 1'b1;

  // One fetch is looked up per cycle: the waiting one, else a new one.
  assign req_ready_o = !wait_q;
  assign accept      = req_valid_i && req_ready_o;
  assign look_valid  = wait_q || accept;
  assign look_addr   = wait_q ? wait_addr_q : req_addr_i;
  assign look_beat   = look_addr[4:3];
  assign look_data   = data_q[look_beat];
  // A line being refilled after a store into it serves nobody; a line whose
  // refill saw an error serves only the fetch that waited for it.
  assign look_hit    = line_valid_q && tag_q == look_addr[31:5] && !poison_q
                       && (!stale_q || wait_q);
  assign look_ready  = look_hit && beat_ok_q[look_beat];

  always_comb begin
    line_valid_d = line_valid_q;
    tag_d        = tag_q;
    beat_ok_d    = beat_ok_q;
    beat_err_d   = beat_err_q;
    issue_d      = issue_q && !m_rsp_i.req_ready;
    filling_d    = filling_q;
    fill_beat_d  = fill_beat_q;
    poison_d     = poison_q;
    stale_d      = stale_q;
    wait_d       = wait_q;
    wait_addr_d  = wait_addr_q;
    rsp_valid_d  = 1'b0;
    rsp_rdata_d  = rsp_rdata_q;
    rsp_err_d    = 1'b0;

    // 1. Beats arriving.
    if (filling_q && m_rsp_i.r_valid) begin
      beat_ok_d[fill_beat_q]  = 1'b1;
      beat_err_d[fill_beat_q] = m_rsp_i.r_err;
      fill_beat_d = fill_beat_q + 2'd1;
      if (fill_beat_q == 2'd3) begin
        filling_d = 1'b0;
        // A store into the line during the refill: drop it, and whoever
        // waits refills it again. An error: keep it for the waiting fetch
        // (which takes the error) but let later fetches retry.
        if (poison_q)           line_valid_d = 1'b0;
        else if (|beat_err_d)   stale_d = 1'b1;
      end
    end

    // 2. The fetch being looked up: answer it, or wait (and refill).
    if (look_valid) begin
      if (look_ready) begin
        rsp_valid_d = 1'b1;
        rsp_rdata_d = look_addr[2] ? look_data[63:32] : look_data[31:0];
        rsp_err_d   = beat_err_q[look_beat];
        wait_d      = 1'b0;
      end else begin
        wait_d      = 1'b1;
        wait_addr_d = look_addr;
        // Not in the line (or the line is gone): refill once the current
        // burst, if any, is over. A beat still to come just waits.
        if (!look_hit && !filling_q && !issue_q) begin
          line_valid_d = 1'b1;
          tag_d        = look_addr[31:5];
          beat_ok_d    = 4'b0000;
          beat_err_d   = 4'b0000;
          issue_d      = 1'b1;
          filling_d    = 1'b1;
          fill_beat_d  = 2'd0;
          poison_d     = 1'b0;
          stale_d      = 1'b0;
        end
      end
    end

    // 3. A store into the line: drop it, or if it is being filled, mark
    // the refill as unusable.
    // Against the line as it will be, so a refill starting or ending in
    // this very cycle is covered too.
    if (snoop_valid_i && snoop_addr_i[31:5] == tag_d && line_valid_d) begin
      if (filling_d) poison_d = 1'b1;
      else           line_valid_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      line_valid_q <= 1'b0;
      tag_q        <= 27'h0;
      beat_ok_q    <= 4'h0;
      beat_err_q   <= 4'h0;
      issue_q      <= 1'b0;
      filling_q    <= 1'b0;
      fill_beat_q  <= 2'd0;
      poison_q     <= 1'b0;
      stale_q      <= 1'b0;
      wait_q       <= 1'b0;
      wait_addr_q  <= 32'h0;
      rsp_valid_q  <= 1'b0;
      rsp_rdata_q  <= 32'h0;
      rsp_err_q    <= 1'b0;
    end else begin
      line_valid_q <= line_valid_d;
      tag_q        <= tag_d;
      beat_ok_q    <= beat_ok_d;
      beat_err_q   <= beat_err_d;
      issue_q      <= issue_d;
      filling_q    <= filling_d;
      fill_beat_q  <= fill_beat_d;
      poison_q     <= poison_d;
      stale_q      <= stale_d;
      wait_q       <= wait_d;
      wait_addr_q  <= wait_addr_d;
      rsp_valid_q  <= rsp_valid_d;
      rsp_rdata_q  <= rsp_rdata_d;
      rsp_err_q    <= rsp_err_d;
    end
  end

  // Line data: written as beats arrive (no reset needed: beat_ok guards it).
  always_ff @(posedge clk_i) begin
    if (filling_q && m_rsp_i.r_valid) data_q[fill_beat_q] <= m_rsp_i.r_data;
  end

  assign rsp_valid_o = rsp_valid_q;
  assign rsp_rdata_o = rsp_rdata_q;
  assign rsp_err_o   = rsp_err_q;

  // Reads only, one burst at a time, id 0: ids, last, B are not needed.
  logic unused;
  assign unused = ^{m_rsp_i.w_ready, m_rsp_i.r_id, m_rsp_i.r_last, m_rsp_i.b_valid, m_rsp_i.b_id, m_rsp_i.b_err,
                    req_addr_i[1:0], snoop_addr_i[4:0]};

endmodule

`default_nettype wire
