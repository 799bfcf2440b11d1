`default_nettype none
// tessel_core_lsu_align: byte-lane formatting for the data bus. Stores: byte
// enables and lane-aligned write data from the address and width. Loads:
// picks the addressed byte/half/word out of the returned word and extends it.
// Also says whether an access is misaligned (the core traps those).
module tessel_core_lsu_align (
  // request side (execute stage)
  input  wire logic [1:0]  addr_lo_i,     // low address bits of the access
  input  wire logic [1:0]  size_i,        // funct3[1:0] of the store: byte, half, word
  input  wire logic [31:0] store_data_i,  // rs2
  output      logic        misaligned_o,
  output      logic [3:0]  be_o,
  output      logic [31:0] wdata_o,
  // response side (write-back stage)
  input  wire logic [1:0]  rsp_addr_lo_i,
  input  wire logic [2:0]  rsp_funct3_i,
  input  wire logic [31:0] rsp_rdata_i,
  output      logic [31:0] load_data_o
);
  always_comb begin
    misaligned_o = 1'b0;
    be_o         = 4'b1111;
    wdata_o      = store_data_i;
    unique case (size_i)
      2'b00: begin
        be_o    = 4'b0001 << addr_lo_i;
        wdata_o = {4{store_data_i[7:0]}};
      end
      2'b01: begin
        misaligned_o = addr_lo_i[0];
        be_o         = addr_lo_i[1] ? 4'b1100 : 4'b0011;
        wdata_o      = {2{store_data_i[15:0]}};
      end
      default: misaligned_o = (addr_lo_i != 2'b00);
    endcase
  end

  logic [15:0] shifted;  // the addressed byte or half in the low bits
  assign shifted = 16'(rsp_rdata_i >> {rsp_addr_lo_i, 3'b000});

  always_comb begin
    load_data_o = rsp_rdata_i;
    unique case (rsp_funct3_i)
      3'b000:  load_data_o = {{24{shifted[7]}}, shifted[7:0]};
      3'b001:  load_data_o = {{16{shifted[15]}}, shifted[15:0]};
      3'b100:  load_data_o = {24'b0, shifted[7:0]};
      3'b101:  load_data_o = {16'b0, shifted[15:0]};
      default: load_data_o = rsp_rdata_i;
    endcase
  end
endmodule
