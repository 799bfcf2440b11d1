// tessel_memport_pkg: the external memory port (docs/memory-port.md) as two
// structs, as OpenTitan's tlul_pkg has them: req_t is everything a master
// drives (request and write-data channels, and the ready of the two response
// channels), rsp_t everything the memory drives back. Every module that
// carries the port takes one req_t and one rsp_t (a master: req_o/rsp_i, a
// memory: req_i/rsp_o) instead of its twenty signals.
//
// One id width for the whole port: a master sets only the low MstIdW bits of
// req_id (the arbiter puts the master's index above them on the way out and
// clears it again on responses), so the same types serve both sides of the
// arbiter.
//
// What yosys 0.23 reads of these (checked): struct ports, members read and
// assigned at module scope, output ports connected to members. What it does
// not: packed arrays of structs (they come out wrong, with no error), structs
// declared inside generate blocks, '{...} patterns, $bits of a type. So a
// module with N masters takes a plain vector of N structs (ReqW/RspW bits
// each, master i at [i*ReqW +: ReqW]) and copies one out before reading its
// members.
`default_nettype none

package tessel_memport_pkg;

  localparam int unsigned AddrW  = 32;              // byte address
  localparam int unsigned DataW  = 64;              // one beat
  localparam int unsigned StrbW  = DataW / 8;       // byte strobes of a beat
  localparam int unsigned LenW   = 8;               // beats minus one
  localparam int unsigned MstIdW = 4;               // id bits a master uses
  localparam int unsigned IdxW   = 2;               // master-index bits (arbiter)
  localparam int unsigned IdW    = IdxW + MstIdW;   // id bits on the port

  // Master to memory.
  typedef struct packed {
    logic             req_valid;
    logic             req_write;  // 1 = write, 0 = read
    logic [AddrW-1:0] req_addr;   // first beat's byte address
    logic [LenW-1:0]  req_len;    // beats minus one
    logic [IdW-1:0]   req_id;
    logic             w_valid;
    logic [DataW-1:0] w_data;
    logic [StrbW-1:0] w_strb;
    logic             w_last;
    logic             r_ready;
    logic             b_ready;
  } req_t;

  // Memory to master.
  typedef struct packed {
    logic             req_ready;
    logic             w_ready;
    logic             r_valid;
    logic [DataW-1:0] r_data;
    logic [IdW-1:0]   r_id;       // the id of the request the beat answers
    logic             r_last;
    logic             r_err;
    logic             b_valid;
    logic [IdW-1:0]   b_id;
    logic             b_err;
  } rsp_t;

  // Their widths, for vectors of several: the fields above, summed (yosys
  // 0.23 has no $bits of a type). A wrong sum is a width mismatch wherever a
  // struct is copied out of such a vector, which Verilator's lint fails.
  localparam int unsigned ReqW = 2 + AddrW + LenW + IdW + 1 + DataW + StrbW + 3;
  localparam int unsigned RspW = 3 + DataW + IdW + 3 + IdW + 1;

endpackage

`default_nettype wire
