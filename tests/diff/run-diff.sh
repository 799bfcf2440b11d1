#!/bin/bash
# Differential test: random programs on tessel-iss and tessel-sim must
# retire the same instructions with the same register writes.
#   tests/diff/run-diff.sh GEN ISS SIM OUTDIR FIRST_SEED COUNT INSNS [ELF...]
# For each seed: GEN writes the program and prints the pc of its final
# tohost store; both simulators run it with --trace-commits (tessel-sim with
# a DRAM latency and bandwidth that vary with the seed); the traces, cut
# after that store, must be identical. A mismatch prints the seed and
# the first differing line, and keeps the program and traces in
# OUTDIR/seed-N/ for reproduction. Each extra ELF (real firmware whose
# behaviour does not depend on cycle counts) is compared the same way over
# its whole run. Ends with "N passed, N failed".
set -u
gen=$1 iss=$2 sim=$3 out=$4 first=$5 count=$6 insns=$7
shift 7
mkdir -p "$out"
pass=0 fail=0
for ((seed = first; seed < first + count; seed++)); do
  d=$out/seed-$seed
  mkdir -p "$d"
  if ! stop_pc=$("$gen" "$seed" "$insns" "$d/prog.elf"); then
    echo "FAIL seed $seed: generator failed"; fail=$((fail + 1)); continue
  fi
  "$iss" "$d/prog.elf" --max-insns 1000000 --trace-commits "$d/iss.full" >"$d/iss.out" 2>&1
  iss_rc=$?
  # Vary the DRAM timing with the seed: commit traces must not depend on it.
  bws=(8 1 0.5 64 2) lat=$(( (seed * 37) % 120 + 1 ))
  bw=${bws[$((seed % 5))]}
  "$sim" "$d/prog.elf" --max-cycles 10000000 --dram-latency "$lat" --dram-bw "$bw" \
    --trace-commits "$d/sim.full" >"$d/sim.out" 2>&1
  sim_rc=$?
  # Cut at the tohost store: a simulator may retire a few more before it stops.
  # Hex case is normalised: the format fixes the digits, not their case.
  sed "/^$stop_pc /q" "$d/iss.full" | tr 'A-F' 'a-f' >"$d/iss.trace"
  sed "/^$stop_pc /q" "$d/sim.full" | tr 'A-F' 'a-f' >"$d/sim.trace"
  why=
  if [[ $iss_rc -ne 0 ]]; then
    why="tessel-iss exit $iss_rc: $(head -c 200 "$d/iss.out")"
  elif [[ $sim_rc -ne 0 ]]; then
    why="tessel-sim exit $sim_rc: $(head -c 200 "$d/sim.out")"
  elif ! cmp -s "$d/iss.trace" "$d/sim.trace"; then
    line=$(cmp "$d/iss.trace" "$d/sim.trace" 2>&1 | sed -nE 's/.*line ([0-9]+).*/\1/p')
    [[ -z $line ]] && line=$(( $(wc -l <"$d/iss.trace") < $(wc -l <"$d/sim.trace") ? $(wc -l <"$d/iss.trace") + 1 : $(wc -l <"$d/sim.trace") + 1 ))
    why="traces differ at line $line: iss '$(sed -n "${line}p" "$d/iss.trace")' sim '$(sed -n "${line}p" "$d/sim.trace")'"
  fi
  if [[ -z $why ]]; then
    echo "PASS seed $seed ($(wc -l <"$d/iss.trace") commits)"
    pass=$((pass + 1))
    rm -rf "$d"
  else
    echo "FAIL seed $seed: $why"
    echo "     reproduce: $gen $seed $insns prog.elf (sim --dram-latency $lat --dram-bw $bw); files kept in $d"
    fail=$((fail + 1))
  fi
done
for elf in "$@"; do
  name=$(basename "$elf" .elf)
  d=$out/elf-$name
  mkdir -p "$d"
  "$iss" "$elf" --max-insns 50000000 --trace-commits "$d/iss.full" >"$d/iss.out" 2>&1
  iss_rc=$?
  "$sim" "$elf" --max-cycles 200000000 --trace-commits "$d/sim.full" >"$d/sim.out" 2>&1
  sim_rc=$?
  if [[ $iss_rc -ne $sim_rc ]]; then
    echo "FAIL $name: exit status iss $iss_rc, sim $sim_rc (files in $d)"; fail=$((fail + 1))
  elif ! cmp -s <(tr 'A-F' 'a-f' <"$d/iss.full") <(tr 'A-F' 'a-f' <"$d/sim.full"); then
    line=$(cmp <(tr 'A-F' 'a-f' <"$d/iss.full") <(tr 'A-F' 'a-f' <"$d/sim.full") 2>&1 | sed -nE 's/.*line ([0-9]+).*/\1/p')
    [[ -z $line ]] && line="end (one trace is a prefix of the other)"
    echo "FAIL $name: traces differ at line $line (files in $d)"; fail=$((fail + 1))
  else
    echo "PASS $name ($(wc -l <"$d/iss.full") commits)"; pass=$((pass + 1))
    rm -rf "$d"
  fi
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
