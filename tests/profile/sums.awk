# sums.awk: reads `tessel profile --format csv`; checks that the kernel rows
# add up to the total row for every counter-derived column, and that no
# kernel does fewer MACs than its share of the graph. Prints one line per
# check; exits 1 on the first mismatch. (Names must not contain commas.)
BEGIN { FS = ","; n = split("npu_cycles macs useful_macs spad_rd_bytes spad_wr_bytes acc_rd_bytes acc_wr_bytes " \
                            "dram_rd_bytes dram_wr_bytes compulsory_dram_bytes stall_dma stall_token stall_preload " \
                            "estimate_cycles load_busy exec_busy store_busy", cols, " ") }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$1 == "kernel" {
  kernels++
  for (c = 1; c <= n; c++) sum[cols[c]] += $(col[cols[c]])
  if ($(col["macs"]) < $(col["useful_macs"])) { print "kernel " $2 ": fewer MACs than the graph's"; exit 1 }
}
$1 == "total" {
  for (c = 1; c <= n; c++) {
    if (sum[cols[c]] != $(col[cols[c]])) { print cols[c] ": kernels sum to " sum[cols[c]] ", total " $(col[cols[c]]); exit 1 }
  }
  print kernels " kernels: all " n " columns add up to the total"
  print "useful_macs " $(col["useful_macs"])
}
