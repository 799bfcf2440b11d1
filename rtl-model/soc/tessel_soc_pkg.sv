// tessel_soc_pkg: the SoC address map (docs/memory-map.md) and the target
// numbering shared by the bus decoder and the SoC top.
// One place for every base address, so decoder, docs and harness agree.
`default_nettype none

package tessel_soc_pkg;

  // Window bases (byte addresses). Each window is decoded on its high bits;
  // see tessel_soc_decoder for the sizes.
  localparam logic [31:0] ImemBase   = 32'h0000_0000;
  localparam logic [31:0] DmemBase   = 32'h1000_0000;
  localparam logic [31:0] UartBase   = 32'h2000_0000;
  localparam logic [31:0] TimerBase  = 32'h2000_1000;
  localparam logic [31:0] SimctlBase = 32'h2000_2000;
  localparam logic [31:0] NpuRegBase = 32'h3000_0000;  // reserved for the NPU
  localparam logic [31:0] NpuCmdBase = 32'h4000_0000;  // reserved for the NPU
  localparam logic [31:0] DramBase   = 32'h8000_0000;

  // Bus targets. The decoder returns one of these; the SoC top wires each to
  // a slave. To plug in a new unit: give it a window in the decoder and
  // connect its target index in tessel_soc (today NpuReg/NpuCmd go to an
  // error responder).
  localparam int unsigned NumTargets = 9;
  localparam int unsigned TgtW       = 4;
  localparam logic [TgtW-1:0] TgtImem   = 4'd0;
  localparam logic [TgtW-1:0] TgtDmem   = 4'd1;
  localparam logic [TgtW-1:0] TgtUart   = 4'd2;
  localparam logic [TgtW-1:0] TgtTimer  = 4'd3;
  localparam logic [TgtW-1:0] TgtSimctl = 4'd4;
  localparam logic [TgtW-1:0] TgtNpuReg = 4'd5;  // reserved: bus error for now
  localparam logic [TgtW-1:0] TgtNpuCmd = 4'd6;  // reserved: bus error for now
  localparam logic [TgtW-1:0] TgtDram   = 4'd7;
  localparam logic [TgtW-1:0] TgtErr    = 4'd8;  // unmapped: bus error

endpackage

`default_nettype wire
