; copy.s: a hand-written stream for the tessel-npu-model CLI test (npu4).
; Loads 4 pixels of 3 channels into the scratchpad, adds them to themselves
; (VADD, requantised: (a + a) * 2^20 >> 20 = 2a, clamped), stores them back.
CFG_LOAD  stride_x=3
LOAD      mem=0 n0=3 dram=0 row=0 nx=4 ny=1 nz=1 push_next=1
CFG_VEC   shift=20 mult_a=1048576 mult_b=1048576 lo=-128 hi=127
VADD      pop_prev=1 push_next=1 a=0 b=0 out=4 rows=4
CFG_STORE src_pitch=4 stride_x=3 stride_y=12
CFG_EPI   pop_prev=1 lo=-128 hi=127
STORE     src_mem=1 dst_mem=0 n0=3 oh=1 ow=4 dram=16 src_row=4
MARK      kernel=5 record=1 dram=32
