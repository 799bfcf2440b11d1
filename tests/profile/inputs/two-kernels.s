; two-kernels.s: a two-kernel stream for the profiler's timeline test (npu8).
; Each kernel loads 16 pixels of 8 channels, doubles them (VADD) and stores
; them back; MARKs before, between and after write their records at 512+.
MARK      kernel=0 record=1 dram=512
CFG_LOAD  stride_x=8
LOAD      mem=0 n0=8 dram=0 row=0 nx=16 ny=1 nz=1 push_next=1
CFG_VEC   shift=20 mult_a=1048576 mult_b=1048576 lo=-128 hi=127
VADD      pop_prev=1 push_next=1 a=0 b=0 out=16 rows=16
CFG_STORE src_pitch=16 stride_x=8 stride_y=128
CFG_EPI   pop_prev=1 lo=-128 hi=127
STORE     src_mem=1 dst_mem=0 n0=8 oh=1 ow=16 dram=128 src_row=16
MARK      kernel=7 record=1 dram=704
LOAD      mem=0 n0=8 dram=128 row=32 nx=16 ny=1 nz=1 push_next=1
VADD      pop_prev=1 push_next=1 a=32 b=32 out=48 rows=16
CFG_EPI   pop_prev=1 lo=-128 hi=127
STORE     src_mem=1 dst_mem=0 n0=8 oh=1 ow=16 dram=256 src_row=48
MARK      kernel=9 record=1 dram=896
