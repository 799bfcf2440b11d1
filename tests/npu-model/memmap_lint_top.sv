// memmap_lint_top.sv: a module that reads the generated tessel_memmap_pkg, so
// that `verilator --lint-only -Wall` and yosys check it the way the RTL uses
// it (pkg::Name, no import). Used by the memmap suite only.
`default_nettype none

module memmap_lint_top (
  input  wire logic [31:0] addr_i,
  input  wire logic [11:0] csr_i,
  input  wire logic        ext_i,
  output logic             uart_o,
  output logic             mstatus_o,
  output logic             status_o,
  output logic [31:0]      cause_o
);
  always_comb begin
    uart_o    = addr_i[31:12] == tessel_memmap_pkg::UartBase[31:12] &&
                addr_i[11:0] == tessel_memmap_pkg::UartStatusOff;
    mstatus_o = csr_i == tessel_memmap_pkg::CsrMstatus;
    status_o  = addr_i[tessel_memmap_pkg::MstatusMieBit];
    cause_o   = ext_i ? tessel_memmap_pkg::CauseIrqExternal : tessel_memmap_pkg::CauseIllegal;
  end
endmodule

`default_nettype wire
