// tessel_simctl: simulation control (docs/memory-map.md). EXIT ends the
// run with a status; EXT_IRQ drives the external interrupt so interrupt
// tests need no NPU. It also watches the data bus for writes to the
// riscv-tests `tohost` word (address given by the harness), so the
// convention works wherever the test put tohost: TCM or DRAM.
`default_nettype none

module tessel_simctl (
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
  // Snoop of accepted data-bus writes, for tohost.
  input  wire logic        snoop_valid_i,
  input  wire logic [31:0] snoop_addr_i,
  input  wire logic [31:0] snoop_wdata_i,
  input  wire logic        tohost_en_i,
  input  wire logic [31:0] tohost_addr_i,
  // To the harness / board.
  output      logic        exit_valid_o,
  output      logic [31:0] exit_code_o,
  output      logic        tohost_valid_o,
  output      logic [31:0] tohost_data_o,
  output      logic        ext_irq_o
);

  logic        exit_valid_q, exit_valid_d, irq_q, irq_d;
  logic [31:0] exit_code_q, exit_code_d;
  logic        tohost_valid_q, tohost_valid_d;
  logic [31:0] tohost_data_q, tohost_data_d;
  logic        rsp_valid_q, rsp_err_q, rsp_err_d;
  logic [31:0] rsp_rdata_q, rsp_rdata_d;

  assign req_ready_o = 1'b1;

  always_comb begin
    exit_valid_d   = exit_valid_q;
    exit_code_d    = exit_code_q;
    irq_d          = irq_q;
    rsp_rdata_d    = 32'h0;
    rsp_err_d      = 1'b0;
    tohost_valid_d = 1'b0;
    tohost_data_d  = tohost_data_q;
    if (req_valid_i) begin
      unique case (req_addr_i)
        tessel_memmap_pkg::SimctlExitOff: begin
          if (req_we_i) begin
            exit_valid_d = 1'b1;
            exit_code_d  = req_wdata_i;
          end
        end
        tessel_memmap_pkg::SimctlExtIrqOff: begin
          rsp_rdata_d = {31'h0, irq_q};
          if (req_we_i && req_be_i[0]) irq_d = req_wdata_i[0];
        end
        default: rsp_err_d = 1'b1;
      endcase
    end
    // A zero write only clears tohost; riscv-tests never report with it.
    if (tohost_en_i && snoop_valid_i && snoop_addr_i[31:2] == tohost_addr_i[31:2]
        && snoop_wdata_i != 32'h0) begin
      tohost_valid_d = 1'b1;
      tohost_data_d  = snoop_wdata_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      exit_valid_q   <= 1'b0;
      exit_code_q    <= 32'h0;
      irq_q          <= 1'b0;
      tohost_valid_q <= 1'b0;
      tohost_data_q  <= 32'h0;
      rsp_valid_q    <= 1'b0;
      rsp_rdata_q    <= 32'h0;
      rsp_err_q      <= 1'b0;
    end else begin
      exit_valid_q   <= exit_valid_d;
      exit_code_q    <= exit_code_d;
      irq_q          <= irq_d;
      tohost_valid_q <= tohost_valid_d;
      tohost_data_q  <= tohost_data_d;
      rsp_valid_q    <= req_valid_i;
      rsp_rdata_q    <= rsp_rdata_d;
      rsp_err_q      <= rsp_err_d;
    end
  end

  // Only whole-word fields are used; the low address bits and upper byte
  // enables carry nothing here.
  logic unused;
  assign unused = ^{req_be_i[3:1], snoop_addr_i[1:0], tohost_addr_i[1:0]};

  assign exit_valid_o   = exit_valid_q;
  assign exit_code_o    = exit_code_q;
  assign tohost_valid_o = tohost_valid_q;
  assign tohost_data_o  = tohost_data_q;
  assign ext_irq_o      = irq_q;
  assign rsp_valid_o    = rsp_valid_q;
  assign rsp_rdata_o    = rsp_rdata_q;
  assign rsp_err_o      = rsp_err_q;

endmodule

`default_nettype wire
