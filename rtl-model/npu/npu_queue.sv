// npu_queue: one command queue (LOAD, EXEC or STORE) and the token steps of
// its unit (docs/isa.md section 4). The dispatcher appends checked commands;
// the head command waits until every token counter it pops is non-zero, pops
// them and goes to the unit; when the unit reports it done, the queue waits
// until every counter it pushes is below token_max, pushes them, and only then
// offers the next command. Queue entries: the effective command, its side
// band (npu_check) and its stream index (for ERR_INDEX at a deadlock).
`default_nettype none

module npu_queue #(
  parameter int unsigned Depth = tessel_target_pkg::QueueDepth,
  localparam int unsigned Ew = tessel_isa_pkg::CmdBits + 82 + 16,
  localparam int unsigned Pw = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,
  input  wire logic          flush_i,        // START / ABORT / error: drop what is queued
  // from the dispatcher
  input  wire logic          enq_i,
  input  wire logic [Ew-1:0] enq_data_i,
  output      logic          full_o,
  // to the unit
  output      logic          cmd_valid_o,
  input  wire logic          cmd_ready_i,
  output      tessel_isa_pkg::cmd_t cmd_o,
  output      logic [81:0]   side_o,
  input  wire logic          unit_done_i,
  // token counters of this unit's neighbours: may pop (non-zero) / push (below max)
  input  wire logic          pop_prev_ok_i,
  input  wire logic          pop_next_ok_i,
  input  wire logic          push_prev_ok_i,
  input  wire logic          push_next_ok_i,
  output      logic          pop_prev_o,
  output      logic          pop_next_o,
  output      logic          push_prev_o,
  output      logic          push_next_o,
  // state for the dispatcher, the deadlock detector and the counters
  output      logic          idle_o,          // empty, nothing running, nothing to push
  output      logic          blocked_o,       // waiting on a token (pop or push)
  output      logic [15:0]   blocked_index_o,
  output      logic          cmd_done_o       // a command completed its push step
);
  logic [Ew-1:0] mem_q [Depth];
  logic [Pw-1:0] wp_d, wp_q, rp_d, rp_q;
  logic [Pw:0]   cnt_d, cnt_q;
  logic          run_d, run_q;                  // the unit executes a command
  logic          pend_d, pend_q;                // executed, push step pending
  logic [1:0]    ptok_d, ptok_q;                // {push_next, push_prev} of that command
  logic [15:0]   idx_d, idx_q;

  // fields of the head entry are read where needed (no copy of the whole
  // entry per cycle)
  logic [3:0]    htok;
  logic          head_ok, deq;
  assign htok = mem_q[rp_q][11:8];

  // pop step: every named counter non-zero; the unit must be free (its own
  // block: the unit's done may depend on valid in the same cycle)
  always_comb begin
    head_ok = (cnt_q != '0) && !run_q && !pend_q &&
              (!htok[0] || pop_prev_ok_i) && (!htok[1] || pop_next_ok_i);
    cmd_valid_o = head_ok && !flush_i;
  end

  // An idle queue (empty, nothing running or pending, nothing arriving)
  // keeps its state: the simulator then skips the block below.
  logic qact;
  assign qact = (cnt_q != '0) || run_q || pend_q || enq_i || flush_i;

  always_comb begin
    cmd_o       = '0;
    side_o      = '0;
    deq         = 1'b0;
    pop_prev_o  = 1'b0;
    pop_next_o  = 1'b0;
    push_prev_o = 1'b0;
    push_next_o = 1'b0;
    cmd_done_o  = 1'b0;
    run_d  = 1'b0;
    pend_d = 1'b0;
    ptok_d = '0;
    idx_d  = '0;
    wp_d   = '0;
    rp_d   = '0;
    cnt_d  = '0;
    if (qact) begin
      // the head command goes to the unit only when offered
      if (cmd_valid_o) begin
        cmd_o  = mem_q[rp_q][tessel_isa_pkg::CmdBits-1:0];
        side_o = mem_q[rp_q][tessel_isa_pkg::CmdBits +: 82];
      end
      deq         = cmd_valid_o && cmd_ready_i;
      pop_prev_o  = deq && htok[0];
      pop_next_o  = deq && htok[1];

      run_d  = run_q;
      pend_d = pend_q;
      ptok_d = ptok_q;
      idx_d  = idx_q;
      if (deq) begin
        run_d  = 1'b1;
        ptok_d = htok[3:2];
        idx_d  = mem_q[rp_q][225:210];
      end
      // the unit may finish in the cycle it takes the command (configuration)
      if (unit_done_i && (run_q || deq)) begin
        run_d  = 1'b0;
        pend_d = 1'b1;
      end
      // push step
      if (pend_q && (!ptok_q[0] || push_prev_ok_i) && (!ptok_q[1] || push_next_ok_i)) begin
        push_prev_o = ptok_q[0];
        push_next_o = ptok_q[1];
        cmd_done_o  = 1'b1;
        pend_d      = 1'b0;
      end

      wp_d  = enq_i ? wp_q + Pw'(1) : wp_q;
      rp_d  = deq ? rp_q + Pw'(1) : rp_q;
      cnt_d = cnt_q + (enq_i ? (Pw+1)'(1) : '0) - (deq ? (Pw+1)'(1) : '0);
      if (flush_i) begin
        wp_d  = '0;
        rp_d  = '0;
        cnt_d = '0;
      end
      if (Pw'(Depth - 1) == wp_q && enq_i && !flush_i) wp_d = '0;
      if (Pw'(Depth - 1) == rp_q && deq && !flush_i) rp_d = '0;
    end
  end

  assign full_o          = (cnt_q == (Pw+1)'(Depth));
  assign idle_o          = (cnt_q == '0) && !run_q && !pend_q;
  assign blocked_o       = (pend_q && !cmd_done_o) || (!run_q && !pend_q && cnt_q != '0 && !head_ok);
  assign blocked_index_o = pend_q ? idx_q : mem_q[rp_q][225:210];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wp_q   <= '0;
      rp_q   <= '0;
      cnt_q  <= '0;
      run_q  <= 1'b0;
      pend_q <= 1'b0;
    end else if (qact) begin
      wp_q   <= wp_d;
      rp_q   <= rp_d;
      cnt_q  <= cnt_d;
      run_q  <= run_d;
      pend_q <= pend_d && !flush_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (qact) begin
      ptok_q <= ptok_d;
      idx_q  <= idx_d;
    end
    if (enq_i) mem_q[wp_q] <= enq_data_i;
  end
endmodule

`default_nettype wire
