// tessel_timer: the RISC-V machine timer (mtime/mtimecmp, docs/memory-map.md).
// mtime counts every clock; the interrupt is pending while mtime >= mtimecmp.
// Bits = 32 (a small FPGA's option, docs/boards.md) keeps only the low words:
// MTIMEH and MTIMECMPH read 0 and ignore writes, mtime wraps at 2^32 clocks,
// and the compare is on 32 bits; firmware that writes MTIMECMPH first and
// reads MTIMEH around MTIME (firmware/base/timer.c) works unchanged.
`default_nettype none

module tessel_timer #(
  parameter int unsigned Bits = 64   // 64, or 32
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
  output      logic        rsp_err_o,
  output      logic        irq_o
);

  logic [Bits-1:0] mtime_q, mtime_d, cmp_q, cmp_d;
  // the registers' words as the bus sees them (high words 0 when Bits = 32)
  logic [63:0] mtime_w, cmp_w;
  assign mtime_w = 64'(mtime_q);
  assign cmp_w   = 64'(cmp_q);
  logic        rsp_valid_q, rsp_err_q, rsp_err_d;
  logic [31:0] rsp_rdata_q, rsp_rdata_d, wmask;

  assign req_ready_o = 1'b1;
  assign wmask = {{8{req_be_i[3]}}, {8{req_be_i[2]}}, {8{req_be_i[1]}}, {8{req_be_i[0]}}};

  always_comb begin
    mtime_d     = mtime_q + 1'b1;
    cmp_d       = cmp_q;
    rsp_rdata_d = 32'h0;
    rsp_err_d   = 1'b0;
    if (req_valid_i) begin
      unique case (req_addr_i)
        tessel_memmap_pkg::TimerMtimeOff: begin
          rsp_rdata_d = mtime_w[31:0];
          if (req_we_i) mtime_d[31:0] = (mtime_w[31:0] & ~wmask) | (req_wdata_i & wmask);
        end
        tessel_memmap_pkg::TimerMtimehOff: begin
          rsp_rdata_d = mtime_w[63:32];
          if (req_we_i && Bits > 32) mtime_d = Bits'({(mtime_w[63:32] & ~wmask) | (req_wdata_i & wmask), mtime_d[31:0]});
        end
        tessel_memmap_pkg::TimerMtimecmpOff: begin
          rsp_rdata_d = cmp_w[31:0];
          if (req_we_i) cmp_d[31:0] = (cmp_w[31:0] & ~wmask) | (req_wdata_i & wmask);
        end
        tessel_memmap_pkg::TimerMtimecmphOff: begin
          rsp_rdata_d = cmp_w[63:32];
          if (req_we_i && Bits > 32) cmp_d = Bits'({(cmp_w[63:32] & ~wmask) | (req_wdata_i & wmask), cmp_w[31:0]});
        end
        default: rsp_err_d = 1'b1;
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      mtime_q     <= '0;
      cmp_q       <= '1;
      rsp_valid_q <= 1'b0;
      rsp_rdata_q <= 32'h0;
      rsp_err_q   <= 1'b0;
    end else begin
      mtime_q     <= mtime_d;
      cmp_q       <= cmp_d;
      rsp_valid_q <= req_valid_i;
      rsp_rdata_q <= rsp_rdata_d;
      rsp_err_q   <= rsp_err_d;
    end
  end

  assign irq_o       = mtime_q >= cmp_q;
  assign rsp_valid_o = rsp_valid_q;
  assign rsp_rdata_o = rsp_rdata_q;
  assign rsp_err_o   = rsp_err_q;

endmodule

`default_nettype wire
