// tessel_soc_pkg: the target numbering shared by the bus decoder and the SoC
// top. The window bases are tessel_memmap_pkg::<Region>Base, generated from
// targets/memmap.def (docs/memory-map.md), so decoder, firmware, ISS, docs and
// harness agree. (yosys 0.23 cannot define one package's localparam from
// another package's: the decoder and the SoC top refer to tessel_memmap_pkg.)
`default_nettype none

package tessel_soc_pkg;

  // Bus targets. The decoder returns one of these; the SoC top wires each to
  // a slave. To plug in a new unit: give it a window in the decoder and
  // connect its target index in tessel_soc (a unit not built answers with
  // an error responder).
  localparam int unsigned NumTargets = 12;
  localparam int unsigned TgtW       = 4;
  localparam logic [TgtW-1:0] TgtImem   = 4'd0;
  localparam logic [TgtW-1:0] TgtDmem   = 4'd1;
  localparam logic [TgtW-1:0] TgtUart   = 4'd2;
  localparam logic [TgtW-1:0] TgtTimer  = 4'd3;
  localparam logic [TgtW-1:0] TgtSimctl = 4'd4;
  localparam logic [TgtW-1:0] TgtNpuReg = 4'd5;  // the NPU (Npu = 1), else a bus error
  localparam logic [TgtW-1:0] TgtNpuCmd = 4'd6;  // the NPU (Npu = 1), else a bus error
  localparam logic [TgtW-1:0] TgtDram   = 4'd7;
  localparam logic [TgtW-1:0] TgtErr    = 4'd8;  // unmapped: bus error
  localparam logic [TgtW-1:0] TgtNpuSeq = 4'd9;  // the core-sequenced NPU's datapath (NpuSeq = 1), else a bus error
  localparam logic [TgtW-1:0] TgtCvt    = 4'd10; // the float/int8 converter (Cvt = 1), else a bus error
  localparam logic [TgtW-1:0] TgtDcache = 4'd11; // the data cache's registers (DcacheLines > 0), else a bus error

endpackage

`default_nettype wire
