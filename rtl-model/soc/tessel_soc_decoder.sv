// tessel_soc_decoder: maps a byte address to a bus target (tessel_soc_pkg).
// Purely combinational. The instruction bus uses FetchOnly=1: it may fetch
// from IMEM, DMEM and DRAM only; everything else decodes as an error.
`default_nettype none

module tessel_soc_decoder #(
  parameter int unsigned ImemBytes = 65536,
  parameter int unsigned DmemBytes = 65536,
  parameter bit          FetchOnly = 1'b0
) (
  input  wire logic [31:0]                     addr_i,
  output      logic [tessel_soc_pkg::TgtW-1:0] tgt_o
);

  // A TCM of 0 bytes is not built: its whole region is a bus error. (The
  // limits are never 0, so no comparison is constant.)
  localparam int unsigned ImemLimit = (ImemBytes == 0) ? 1 : ImemBytes;
  localparam int unsigned DmemLimit = (DmemBytes == 0) ? 1 : DmemBytes;

  // Offsets inside the 256 MiB regions, for the size checks.
  logic [31:0] imem_off, dmem_off;
  assign imem_off = addr_i - tessel_memmap_pkg::ImemBase;
  assign dmem_off = addr_i - tessel_memmap_pkg::DmemBase;

  always_comb begin
    tgt_o = tessel_soc_pkg::TgtErr;
    if (addr_i[31:28] == tessel_memmap_pkg::ImemBase[31:28]) begin
      if (ImemBytes != 0 && imem_off < ImemLimit) tgt_o = tessel_soc_pkg::TgtImem;
    end else if (addr_i[31:28] == tessel_memmap_pkg::DmemBase[31:28]) begin
      if (DmemBytes != 0 && dmem_off < DmemLimit) tgt_o = tessel_soc_pkg::TgtDmem;
    end else if (addr_i[31] == tessel_memmap_pkg::DramBase[31]) begin
      // The whole upper half is DRAM; the memory behind the port answers
      // err beyond its real size.
      tgt_o = tessel_soc_pkg::TgtDram;
    end else if (!FetchOnly) begin
      // Peripherals and the reserved NPU windows: data bus only.
      if (addr_i[31:12] == tessel_memmap_pkg::UartBase[31:12]) begin
        tgt_o = tessel_soc_pkg::TgtUart;
      end else if (addr_i[31:12] == tessel_memmap_pkg::TimerBase[31:12]) begin
        tgt_o = tessel_soc_pkg::TgtTimer;
      end else if (addr_i[31:12] == tessel_memmap_pkg::SimctlBase[31:12]) begin
        tgt_o = tessel_soc_pkg::TgtSimctl;
      end else if (addr_i[31:12] == tessel_memmap_pkg::CvtBase[31:12]) begin
        tgt_o = tessel_soc_pkg::TgtCvt;
      end else if (addr_i[31:12] == tessel_memmap_pkg::DcacheBase[31:12]) begin
        tgt_o = tessel_soc_pkg::TgtDcache;
      end else if (addr_i[31:16] == tessel_memmap_pkg::NpuRegBase[31:16]) begin
        tgt_o = tessel_soc_pkg::TgtNpuReg;
      end else if (addr_i[31:16] == tessel_memmap_pkg::NpuCmdBase[31:16]) begin
        tgt_o = tessel_soc_pkg::TgtNpuCmd;
      end else if (addr_i[31:12] == tessel_memmap_pkg::NpuSeqBase[31:12]) begin
        tgt_o = tessel_soc_pkg::TgtNpuSeq;
      end
    end
  end

endmodule

`default_nettype wire
