// tessel_bus_demux: splits one core bus (valid/ready request, in-order
// responses) over NumTargets slaves. The request fields go to every slave
// unchanged; only valid is steered, by the decoded target.
//
// Why it can stay this simple: slaves answer in order, but different slaves
// have different latencies (TCM 1 cycle, DRAM many), so responses from two
// slaves could overtake each other. We therefore only let requests to one
// slave be in flight at a time: a request to another slave waits until the
// outstanding ones have been answered (or the last one is answered in the
// same cycle, so TCM-to-TCM switches cost nothing).
`default_nettype none

module tessel_bus_demux #(
  parameter int unsigned NumTargets = 9,
  parameter int unsigned TgtW       = 4,
  parameter int unsigned CntW       = 4   // outstanding counter width
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_ni,
  // Core side.
  input  wire logic                    req_valid_i,
  output      logic                    req_ready_o,
  input  wire logic [TgtW-1:0]         req_tgt_i,
  output      logic                    rsp_valid_o,
  output      logic [31:0]             rsp_rdata_o,
  output      logic                    rsp_err_o,
  // Slave side, one bit (or word) per target.
  output      logic [NumTargets-1:0]   tgt_req_valid_o,
  input  wire logic [NumTargets-1:0]   tgt_req_ready_i,
  input  wire logic [NumTargets-1:0]   tgt_rsp_valid_i,
  input  wire logic [NumTargets*32-1:0] tgt_rsp_rdata_i,
  input  wire logic [NumTargets-1:0]   tgt_rsp_err_i
);

  logic [CntW-1:0] cnt_q, cnt_d;   // requests accepted, not yet answered
  logic [TgtW-1:0] cur_q, cur_d;   // the slave they went to
  logic            can_issue, req_fire;

  assign rsp_valid_o = tgt_rsp_valid_i[cur_q];
  assign rsp_rdata_o = tgt_rsp_rdata_i[cur_q*32 +: 32];
  assign rsp_err_o   = tgt_rsp_err_i[cur_q];

  always_comb begin
    can_issue = 1'b0;
    if (cnt_q == '0 || (cnt_q == 1 && rsp_valid_o)) begin
      can_issue = 1'b1;                      // nothing left in flight
    end else if (req_tgt_i == cur_q && cnt_q != '1) begin
      can_issue = 1'b1;                      // same slave: keeps order
    end
  end

  always_comb begin
    tgt_req_valid_o = '0;
    req_ready_o     = 1'b0;
    if (req_tgt_i < TgtW'(NumTargets)) begin
      tgt_req_valid_o[req_tgt_i] = req_valid_i && can_issue;
      req_ready_o                = can_issue && tgt_req_ready_i[req_tgt_i];
    end
  end

  assign req_fire = req_valid_i && req_ready_o;

  always_comb begin
    cnt_d = cnt_q;
    cur_d = cur_q;
    if (req_fire) cur_d = req_tgt_i;
    if (req_fire && !rsp_valid_o) cnt_d = cnt_q + 1'b1;
    if (!req_fire && rsp_valid_o) cnt_d = cnt_q - 1'b1;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cnt_q <= '0;
      cur_q <= '0;
    end else begin
      cnt_q <= cnt_d;
      cur_q <= cur_d;
    end
  end

endmodule

`default_nettype wire
