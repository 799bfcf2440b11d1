`default_nettype none
// tessel_core_fetch: the fetch stage. Issues instruction-bus requests, at most
// two in flight or buffered, so a response can always be taken (the bus has no
// response ready). Responses go straight on to the execute register, or into a
// two-entry buffer while execute is stalled. Each instruction leaves with its
// pc and whether fetch predicted it taken.
//
// Static prediction: a jal, or a conditional branch with a negative offset
// (a loop), is predicted taken as its response arrives; fetch continues at its
// target and drops the sequential requests behind it. Execute redirects fetch
// when a prediction was wrong, and for jalr, mret, fence.i and traps.
//
// On a redirect from execute the buffer is emptied and every response still in
// flight is dropped. A change of direction (redirect or prediction) puts the
// target on the bus in the same cycle when no request is waiting for ready; a
// waiting request is never retracted: it is marked stale, its response
// dropped, and fetching resumes at the target after it is accepted.
module tessel_core_fetch (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic [31:0] boot_addr_i,
  // instruction bus
  output      logic        ibus_req_valid_o,
  input  wire logic        ibus_req_ready_i,
  output      logic [31:0] ibus_req_addr_o,
  input  wire logic        ibus_rsp_valid_i,
  input  wire logic [31:0] ibus_rsp_rdata_i,
  input  wire logic        ibus_rsp_err_i,
  // control
  input  wire logic        redirect_i,     // restart fetching at redirect_pc_i
  input  wire logic [31:0] redirect_pc_i,
  // to execute
  output      logic        valid_o,        // an instruction is available
  output      logic [31:0] insn_o,
  output      logic [31:0] pc_o,
  output      logic        pred_o,         // fetch continued at its jump target
  output      logic        err_o,          // its fetch got an access fault
  input  wire logic        consume_i       // execute takes it this cycle
);
  localparam int unsigned EntryW = 30 + 1 + 1 + 32;  // {pc[31:2], pred, err, insn}

  // The next request's address is pc_q, or pc_q + 4 when adv_q: the increment
  // is done from registers at the start of a cycle, not after the redirect
  // decision at its end (that adder was on the FPGA critical path).
  logic [31:0] pc_q, pc_d;
  logic        adv_q, adv_d;
  logic [31:0] next_pc;
  logic [31:0] resume_q, resume_d;    // where to go once the stale request is accepted
  logic        stale_q, stale_d;      // the waiting request is wrong-path
  logic        wait_q, wait_d;        // a request was presented and not accepted
  logic [1:0]  inflight_q, inflight_d;// accepted, response not yet seen
  logic [1:0]  drop_q, drop_d;        // oldest in-flight responses to discard
  logic [31:2] rsp_pc_q, rsp_pc_d;    // pc of the next live response
  logic [1:0]  count_q, count_d;      // buffered instructions
  logic [EntryW-1:0] buf0_q, buf0_d;  // head
  logic [EntryW-1:0] buf1_q, buf1_d;
  logic        started_q;             // out of reset for a cycle

  logic       accept;
  logic       rsp_live;               // a response that belongs to execute
  logic [1:0] older_inflight;         // in flight after this cycle, excluding this cycle's request
  logic [2:0] occupancy;

  // prediction on the arriving instruction
  logic [31:0] rsp_insn, pred_imm, pred_target;
  logic        pred_jal, pred_branch, predict;
  assign rsp_insn    = ibus_rsp_rdata_i;
  assign pred_jal    = (rsp_insn[6:0] == 7'b1101111);
  assign pred_branch = (rsp_insn[6:0] == 7'b1100011) && rsp_insn[31];
  assign pred_imm    = pred_jal
      ? {{11{rsp_insn[31]}}, rsp_insn[31], rsp_insn[19:12], rsp_insn[20], rsp_insn[30:21], 1'b0}
      : {{19{rsp_insn[31]}}, rsp_insn[31], rsp_insn[7], rsp_insn[30:25], rsp_insn[11:8], 1'b0};
  assign pred_target = {rsp_pc_q, 2'b00} + pred_imm;
  // a target that is not word-aligned is left to execute, which traps on it
  assign predict     = rsp_live && !ibus_rsp_err_i && (pred_jal || pred_branch)
                    && (pred_imm[1] == 1'b0);

  // a change of direction this cycle, and its target
  logic        steer, steer_now;
  logic [31:0] steer_pc;
  assign steer     = redirect_i || predict;
  assign steer_pc  = redirect_i ? redirect_pc_i : pred_target;
  assign steer_now = steer && !wait_q;

  assign occupancy        = {1'b0, inflight_q} + {1'b0, count_q};
  // Depends on registered state only: never on ready, and it cannot fall
  // while a request waits (occupancy only grows on acceptance).
  assign ibus_req_valid_o = started_q && (occupancy < 3'd2);
  assign next_pc          = adv_q ? (pc_q + 32'd4) : pc_q;
  assign ibus_req_addr_o  = steer_now ? steer_pc : next_pc;
  assign accept           = ibus_req_valid_o && ibus_req_ready_i;
  assign rsp_live         = ibus_rsp_valid_i && (drop_q == 2'd0);
  assign older_inflight   = inflight_q - {1'b0, ibus_rsp_valid_i};

  logic [EntryW-1:0] rsp_entry, head;
  assign rsp_entry = {rsp_pc_q, predict, ibus_rsp_err_i, rsp_insn};
  assign head      = (count_q != 2'd0) ? buf0_q : rsp_entry;
  assign valid_o   = (count_q != 2'd0) || rsp_live;
  assign insn_o    = head[31:0];
  assign err_o     = head[32];
  assign pred_o    = head[33];
  assign pc_o      = {head[EntryW-1:34], 2'b00};

  always_comb begin
    logic [1:0] n;
    pc_d       = pc_q;
    adv_d      = adv_q;
    resume_d   = resume_q;
    stale_d    = stale_q;
    wait_d     = ibus_req_valid_o && !ibus_req_ready_i;
    inflight_d = older_inflight + {1'b0, accept};
    drop_d     = drop_q - {1'b0, ibus_rsp_valid_i && (drop_q != 2'd0)};
    rsp_pc_d   = rsp_pc_q;
    buf0_d     = buf0_q;
    buf1_d     = buf1_q;

    if (rsp_live) rsp_pc_d = predict ? pred_target[31:2] : rsp_pc_q + 30'd1;

    if (accept) begin
      if (stale_q) begin
        pc_d    = resume_q;
        adv_d   = 1'b0;
        stale_d = 1'b0;
        drop_d  = drop_d + 2'd1;
      end else begin
        pc_d  = next_pc;
        adv_d = 1'b1;
      end
    end

    // buffer: pop the head if execute took it, push a live response it did not take
    n = count_q;
    if (consume_i && count_q != 2'd0) begin
      buf0_d = buf1_q;
      n      = n - 2'd1;
    end
    if (rsp_live && !(consume_i && count_q == 2'd0)) begin
      if (n == 2'd0) buf0_d = rsp_entry;
      else           buf1_d = rsp_entry;
      n = n + 2'd1;
    end
    count_d = n;

    // A redirect from execute also discards the buffer; a prediction keeps
    // it (it holds only older instructions and the predicted one itself).
    // Either way every request in flight is younger, so it is dropped.
    if (redirect_i) begin
      count_d  = 2'd0;
      rsp_pc_d = redirect_pc_i[31:2];
    end
    if (steer) begin
      if (steer_now) begin
        drop_d  = older_inflight;
        stale_d = 1'b0;
        pc_d    = steer_pc;
        adv_d   = accept;
      end else if (accept) begin
        // the waiting wrong-path request goes now: drop it with the rest
        drop_d  = inflight_d;
        stale_d = 1'b0;
        pc_d    = steer_pc;
        adv_d   = 1'b0;
      end else begin
        drop_d   = older_inflight;
        stale_d  = 1'b1;
        resume_d = steer_pc;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pc_q       <= boot_addr_i;
      adv_q      <= 1'b0;
      resume_q   <= 32'd0;
      stale_q    <= 1'b0;
      wait_q     <= 1'b0;
      inflight_q <= 2'd0;
      drop_q     <= 2'd0;
      rsp_pc_q   <= boot_addr_i[31:2];
      count_q    <= 2'd0;
      buf0_q     <= '0;
      buf1_q     <= '0;
      started_q  <= 1'b0;
    end else begin
      pc_q       <= pc_d;
      adv_q      <= adv_d;
      resume_q   <= resume_d;
      stale_q    <= stale_d;
      wait_q     <= wait_d;
      inflight_q <= inflight_d;
      drop_q     <= drop_d;
      rsp_pc_q   <= rsp_pc_d;
      count_q    <= count_d;
      buf0_q     <= buf0_d;
      buf1_q     <= buf1_d;
      started_q  <= 1'b1;
    end
  end
`ifndef SYNTHESIS
  // Invariants (checked by the core bench, which builds with assertions on).
  always_ff @(posedge clk_i) begin
    if (rst_ni && started_q) begin
      assert (occupancy <= 3'd2) else $error("fetch: more than two instructions held");
      assert (drop_q <= inflight_q) else $error("fetch: dropping more than in flight");
      assert (!ibus_rsp_valid_i || inflight_q != 2'd0)
        else $error("fetch: instruction response without a request");
      assert (!stale_q || wait_q) else $error("fetch: stale request not waiting");
      assert (ibus_req_addr_o[1:0] == 2'b00) else $error("fetch: misaligned fetch address");
    end
  end
`endif
endmodule
