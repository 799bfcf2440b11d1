`default_nettype none
// tessel_core_fetch: the fetch stage. Issues sequential instruction-bus
// requests, at most two in flight or buffered, so a response can always be
// taken (the bus has no response ready). Responses go straight on to the
// execute register, or into a two-entry buffer while execute is stalled.
//
// On a redirect (taken branch, jump, trap, mret, fence.i) the buffer is
// emptied and every response still in flight is dropped when it arrives. If no
// request is waiting for ready, the redirect target goes out on the bus in the
// same cycle (a taken branch then costs one cycle with 1-cycle memory). A
// request that is waiting is never retracted: it is marked stale, its response
// dropped, and fetching resumes at the target after it is accepted.
module tessel_core_fetch (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] boot_addr_i,
  // instruction bus
  output logic        ibus_req_valid_o,
  input  logic        ibus_req_ready_i,
  output logic [31:0] ibus_req_addr_o,
  input  logic        ibus_rsp_valid_i,
  input  logic [31:0] ibus_rsp_rdata_i,
  input  logic        ibus_rsp_err_i,
  // control
  input  logic        redirect_i,     // restart fetching at redirect_pc_i
  input  logic [31:0] redirect_pc_i,
  // to execute
  output logic        valid_o,        // an instruction is available
  output logic [31:0] insn_o,
  output logic        err_o,          // its fetch got an access fault
  input  logic        consume_i       // execute takes it this cycle
);
  logic [31:0] pc_q, pc_d;            // address of the next request
  logic [31:0] resume_q, resume_d;    // where to go once the stale request is accepted
  logic        stale_q, stale_d;      // the waiting request is wrong-path
  logic        wait_q, wait_d;        // a request was presented and not accepted
  logic [1:0]  inflight_q, inflight_d;// accepted, response not yet seen
  logic [1:0]  drop_q, drop_d;        // oldest in-flight responses to discard
  logic [1:0]  count_q, count_d;      // buffered instructions
  logic [32:0] buf0_q, buf0_d;        // {err, insn}, head
  logic [32:0] buf1_q, buf1_d;
  logic        started_q;             // out of reset for a cycle

  logic       accept;
  logic       rsp_live;               // a response that belongs to execute
  logic       redirect_now;           // the target goes out on the bus this cycle
  logic [1:0] older_inflight;         // in flight after this cycle, excluding this cycle's request
  logic [2:0] occupancy;

  assign occupancy        = {1'b0, inflight_q} + {1'b0, count_q};
  // Depends on registered state only: never on ready, and it cannot fall
  // while a request waits (occupancy only grows on acceptance).
  assign ibus_req_valid_o = started_q && (occupancy < 3'd2);
  assign redirect_now     = redirect_i && !wait_q;
  assign ibus_req_addr_o  = redirect_now ? redirect_pc_i : pc_q;
  assign accept           = ibus_req_valid_o && ibus_req_ready_i;
  assign rsp_live         = ibus_rsp_valid_i && (drop_q == 2'd0);
  assign older_inflight   = inflight_q - {1'b0, ibus_rsp_valid_i};

  assign valid_o = (count_q != 2'd0) || rsp_live;
  assign insn_o  = (count_q != 2'd0) ? buf0_q[31:0] : ibus_rsp_rdata_i;
  assign err_o   = (count_q != 2'd0) ? buf0_q[32] : ibus_rsp_err_i;

  always_comb begin
    logic [1:0] n;
    pc_d       = pc_q;
    resume_d   = resume_q;
    stale_d    = stale_q;
    wait_d     = ibus_req_valid_o && !ibus_req_ready_i;
    inflight_d = older_inflight + {1'b0, accept};
    drop_d     = drop_q - {1'b0, ibus_rsp_valid_i && (drop_q != 2'd0)};
    buf0_d     = buf0_q;
    buf1_d     = buf1_q;

    if (accept) begin
      if (stale_q) begin
        pc_d    = resume_q;
        stale_d = 1'b0;
        drop_d  = drop_d + 2'd1;
      end else begin
        pc_d = pc_q + 32'd4;
      end
    end

    // buffer: pop the head if execute took it, push a live response it did not take
    n = count_q;
    if (consume_i && count_q != 2'd0) begin
      buf0_d = buf1_q;
      n      = n - 2'd1;
    end
    if (rsp_live && !(consume_i && count_q == 2'd0)) begin
      if (n == 2'd0) buf0_d = {ibus_rsp_err_i, ibus_rsp_rdata_i};
      else           buf1_d = {ibus_rsp_err_i, ibus_rsp_rdata_i};
      n = n + 2'd1;
    end
    count_d = n;

    if (redirect_i) begin
      count_d = 2'd0;
      if (redirect_now) begin
        // the bus carries the target now: everything older is dropped
        drop_d  = older_inflight;
        stale_d = 1'b0;
        pc_d    = accept ? (redirect_pc_i + 32'd4) : redirect_pc_i;
      end else if (accept) begin
        // the waiting wrong-path request goes now: drop it with the rest
        drop_d  = inflight_d;
        stale_d = 1'b0;
        pc_d    = redirect_pc_i;
      end else begin
        drop_d   = older_inflight;
        stale_d  = 1'b1;
        resume_d = redirect_pc_i;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pc_q       <= boot_addr_i;
      resume_q   <= 32'd0;
      stale_q    <= 1'b0;
      wait_q     <= 1'b0;
      inflight_q <= 2'd0;
      drop_q     <= 2'd0;
      count_q    <= 2'd0;
      buf0_q     <= 33'd0;
      buf1_q     <= 33'd0;
      started_q  <= 1'b0;
    end else begin
      pc_q       <= pc_d;
      resume_q   <= resume_d;
      stale_q    <= stale_d;
      wait_q     <= wait_d;
      inflight_q <= inflight_d;
      drop_q     <= drop_d;
      count_q    <= count_d;
      buf0_q     <= buf0_d;
      buf1_q     <= buf1_d;
      started_q  <= 1'b1;
    end
  end
endmodule
