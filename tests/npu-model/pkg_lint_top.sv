// pkg_lint_top.sv: a module that reads the generated packages, so that
// `verilator --lint-only -Wall` and yosys check them the way RTL uses them
// (pkg::Name, no import). Used by the isa-gen suite only.
`default_nettype none

module pkg_lint_top (
  input  wire logic [127:0] cmd_i,
  output logic              is_load_o,
  output logic [1:0]        load_mem_o,
  output logic [15:0]       ctrl_off_o,
  output logic [7:0]        err_o,
  output logic [31:0]       dim_o
);
  always_comb begin
    is_load_o  = cmd_i[7:0] == tessel_isa_pkg::OpLoad;
    load_mem_o = cmd_i[tessel_isa_pkg::LoadMemLsb +: tessel_isa_pkg::LoadMemWidth];
    ctrl_off_o = tessel_isa_pkg::RegCtrl;
    err_o      = (|cmd_i[127:14] || |cmd_i[11:8]) ? tessel_isa_pkg::ErrBadField : tessel_isa_pkg::ErrNone;
    dim_o      = tessel_target_pkg::Dim;
  end
endmodule

`default_nettype wire
