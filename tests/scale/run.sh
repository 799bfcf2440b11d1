#!/bin/bash
# The `scale` suite: `tessel tune --launcher` and `tessel run --launcher`
# against real engines started here and stopped after: a single-node Slurm
# (tests/scale/cluster.sh: munged, slurmctld, slurmd in a temporary folder,
# loopback only, logs in files) and GNU parallel with this host as its only
# login.  A seeded tune writes the same records through local, parallel and
# slurm; a task cancelled with scancel, killed, or over --timeout is logged
# and the log stays usable (--resume, compile --tuning-log); --fold takes a
# run's round folders back without running anything; a batch run in chunks
# writes the bytes of a local run; bad launcher arguments exit 2.
#   tests/scale/run.sh TMP_DIR TESSEL
set -u
tmp=$1 tessel=$2
here=$(cd "$(dirname "$0")" && pwd)
models=$(cd "$here/../models" && pwd)
rm -rf "$tmp" && mkdir -p "$tmp"
tmp=$(cd "$tmp" && pwd) # the tasks run in their round folders
. "$here/../lib/check.sh"
. "$here/cluster.sh"

# A snapshot of tessel: others may rebuild build/ while the tasks run.
mkdir -p "$tmp/snap/bin" && cp "$tessel" "$tmp/snap/bin/" || { echo "cannot snapshot tessel"; exit 1; }
tessel=$tmp/snap/bin/$(basename "$tessel")

missing=
for tool in munged slurmctld slurmd sbatch squeue scancel scontrol parallel; do
  command -v "$tool" >/dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then
  ko "Slurm, munge and GNU parallel installed (missing:$missing; make setup installs them)"
  echo "$pass passed, $fail failed"
  exit 1
fi
# Stopped whatever happens: scontrol shutdown, munged killed.
trap cluster_stop EXIT
if cluster_start "$tmp/cluster"; then ok "single-node Slurm up (munge, slurmctld, slurmd on 127.0.0.1)"
else
  ko "single-node Slurm up"; tail -5 "$tmp/cluster/log/"*.log 2>/dev/null | sed 's/^/  /'
  echo "$pass passed, $fail failed"
  exit 1
fi

kinds=$models/run/kinds
digits=$models/digits
untimed() { sed -e 's/"time": "[^"]*"//' -e 's/"seconds": [0-9.]*//' "$1"; }
tune_kinds() { "$tessel" tune "$kinds.onnx" --calib "$kinds.calib.npy" --engine model --seed 7 --no-progress "$@"; }
same_log() { # NAME A B: the same records, times aside
  if [ -s "$2" ] && diff <(untimed "$2") <(untimed "$3") >"$tmp/$1.diff"; then ok "$1 ($(wc -l <"$3") records)"
  else ko "$1"; head -4 "$tmp/$1.diff" | cut -c1-200 | sed 's/^/  /'; fi
}

# 1. A seeded tune: the same records (so the same best schedules) on each launcher.
t tune-local tune_kinds --trials 8 --log "$tmp/local.jsonl"
t tune-parallel tune_kinds --trials 8 --log "$tmp/parallel.jsonl" --launcher parallel --sshlogin : --jobs 4 --workdir "$tmp/pw"
t tune-slurm tune_kinds --trials 8 --log "$tmp/slurm.jsonl" --launcher slurm --workdir "$tmp/sw" --partition test \
  --time-limit 5 --sbatch-opt=--cpus-per-task=1
same_log parallel-same-records "$tmp/local.jsonl" "$tmp/parallel.jsonl"
same_log slurm-same-records "$tmp/local.jsonl" "$tmp/slurm.jsonl"
if [ -s "$tmp/sw/round-001/tasks.txt" ] && [ "$(ls "$tmp/sw/round-001/"*.rc | wc -l)" = "$(wc -l <"$tmp/sw/round-001/tasks.txt")" ] &&
   ls "$tmp/sw/round-001/"slurm-*.out >/dev/null 2>&1; then ok "slurm: one array per round, kept with every task's status"
else ko "slurm: one array per round, kept with every task's status"; ls "$tmp/sw" "$tmp/sw/round-001" | head | sed 's/^/  /'; fi

# 2. --fold: the slurm run's folder gives every result back; nothing is run
#    (the measuring binary is /bin/false).
t fold-slurm tune_kinds --trials 8 --log "$tmp/fold.jsonl" --fold "$tmp/sw" --tessel /bin/false
same_log fold-same-records "$tmp/local.jsonl" "$tmp/fold.jsonl"
# A run cut short (round 2's results lost): --fold takes rounds 0, 1 and 3
# from the folder and runs round 2 again, on parallel.
cp -r "$tmp/sw" "$tmp/sw2" && rm -f "$tmp/sw2/round-002/"*.profile.json "$tmp/sw2/round-002/"t*
t fold-partial tune_kinds --trials 8 --log "$tmp/fold2.jsonl" --fold "$tmp/sw2" --launcher parallel --sshlogin :
same_log fold-partial-same-records "$tmp/local.jsonl" "$tmp/fold2.jsonl"
if [ "$(wc -l <"$tmp/sw2/round-002/tasks.txt")" = "$(wc -l <"$tmp/sw/round-002/tasks.txt")" ] &&
   [ "$(cat "$tmp/sw2/round-001/tasks.txt")" = "$(cat "$tmp/sw/round-001/tasks.txt")" ] &&
   [ "$(ls "$tmp/sw2/round-001/"*.tpkg.new 2>/dev/null | wc -l)" = 0 ]; then ok "--fold ran only the round it lacked"
else ko "--fold ran only the round it lacked"; fi

# 3. A task killed mid-run: recorded with its status, the tune goes on and
#    exits 0, the log stays valid.  The wrapper does to measurement 3 what
#    a cluster does: Slurm cancels it (scancel of its own array task), or
#    it is killed (parallel), or it outlives --timeout (sleep).
cat >"$tmp/wrap.sh" <<WRAP
#!/bin/sh
case "\$2" in
  *m00003.tpkg)
    case "\$WRAP_DO" in
      scancel) scancel "\${SLURM_ARRAY_JOB_ID}_\${SLURM_ARRAY_TASK_ID}"; sleep 30 ;;
      kill) kill -KILL \$\$ ;;
      sleep) sleep 30 ;;
    esac ;;
esac
exec "$tessel" "\$@"
WRAP
chmod +x "$tmp/wrap.sh"
WRAP_DO=scancel t tune-scancel tune_kinds --trials 4 --log "$tmp/cancel.jsonl" --launcher slurm --workdir "$tmp/cw" --tessel "$tmp/wrap.sh"
if grep -q '"trial": 3, .*"status": "error".*CANCELLED\|"status": "error".*CANCELLED.*"trial": 3' "$tmp/cancel.jsonl" &&
   [ "$(grep -c '"status": "ok"' "$tmp/cancel.jsonl")" -gt 0 ]; then ok "scancel of a task: logged as cancelled, the others ok"
else ko "scancel of a task: logged as cancelled"; grep -v '"status": "ok"' "$tmp/cancel.jsonl" | cut -c1-300 | sed 's/^/  /'; fi
WRAP_DO=kill t tune-killed tune_kinds --trials 4 --log "$tmp/killed.jsonl" --launcher parallel --sshlogin : --workdir "$tmp/kw" --tessel "$tmp/wrap.sh"
if grep -q '"status": "error".*killed by signal 9' "$tmp/killed.jsonl"; then ok "a killed measurement (parallel): logged with its signal"
else ko "a killed measurement (parallel): logged with its signal"; grep -v '"status": "ok"' "$tmp/killed.jsonl" | cut -c1-300 | sed 's/^/  /'; fi
WRAP_DO=sleep t tune-timeout tune_kinds --trials 4 --log "$tmp/timeout.jsonl" --launcher slurm --workdir "$tmp/tw" --tessel "$tmp/wrap.sh" --timeout 2
if grep -q '"status": "timeout"' "$tmp/timeout.jsonl"; then ok "a task over --timeout (slurm): logged as a timeout"
else ko "a task over --timeout (slurm): logged as a timeout"; grep -v '"status": "ok"' "$tmp/timeout.jsonl" | cut -c1-300 | sed 's/^/  /'; fi
# The logs stay valid: --resume reads them (reusing every ok record), compile applies them.
t resume-cancelled tune_kinds --trials 4 --log "$tmp/cancel.jsonl" --resume
if grep -q "measurements (0 failed, [1-9][0-9]* from the log)" "$tmp/resume-cancelled.log"; then ok "--resume after a cancelled task reuses the log"
else ko "--resume after a cancelled task reuses the log"; head -2 "$tmp/resume-cancelled.log" | sed 's/^/  /'; fi
t compile-cancelled-log "$tessel" compile "$kinds.onnx" --calib "$kinds.calib.npy" -o "$tmp/c.tpkg" --tuning-log "$tmp/cancel.jsonl"
if grep -q "(0 skipped lines, [1-9][0-9]* failed measurements)" "$tmp/compile-cancelled-log.log"; then ok "the log of cancelled/killed tasks parses clean"
else ko "the log of cancelled/killed tasks parses clean"; grep "tuning log" "$tmp/compile-cancelled-log.log" | sed 's/^/  /'; fi

# 4. The progress line (on a terminal only): the cluster's side and the best so far.
if script -qec "$tessel tune $kinds.onnx --calib $kinds.calib.npy --engine model --seed 7 --trials 2 --log $tmp/tty.jsonl --launcher slurm --workdir $tmp/yw" \
     /dev/null >"$tmp/tty.log" 2>&1 && grep -q "best [0-9]* cycles.*slurm: [0-9]* queued, [0-9]* running, [0-9]* done, 0 failed" "$tmp/tty.log"; then
  ok "progress line on a terminal: queued, running, done, failed, best"
else ko "progress line on a terminal"; tail -c 300 "$tmp/tty.log" | sed 's/^/  /'; fi
if ! grep -q "queued" "$tmp/tune-slurm.log"; then ok "no progress line without a terminal"; else ko "no progress line without a terminal"; fi

# 5. A batch in chunks: the outputs a local run writes, byte for byte.
t compile-digits "$tessel" compile "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" -o "$tmp/digits.tpkg"
run_digits() { "$tessel" run "$tmp/digits.tpkg" --input "$digits/digits.test.npy" --engine model "$@"; }
t run-local run_digits --output "$tmp/local.npy"
t run-slurm run_digits --output "$tmp/slurm.npy" --launcher slurm --chunk 64 --workdir "$tmp/rs"
t run-parallel run_digits --output "$tmp/parallel.npy" --launcher parallel --sshlogin : --chunk 100 --workdir "$tmp/rp"
t run-slurm-bytes cmp "$tmp/local.npy" "$tmp/slurm.npy"
t run-parallel-bytes cmp "$tmp/local.npy" "$tmp/parallel.npy"
if grep -q "360 inferences of .* in 6 chunks (slurm" "$tmp/run-slurm.log"; then ok "run: the chunks named in the summary"
else ko "run: the chunks named in the summary"; cat "$tmp/run-slurm.log" | sed 's/^/  /'; fi
# A chunk that fails fails the run, named, with its output file; the engine
# options reach every chunk (here a simulator that cannot run).
expect_fail run-chunk-fails 1 "chunk 0 of 4 failed (exit 1: .*t00000.out)" "$tessel" run "$tmp/digits.tpkg" \
  --input "$digits/digits.test.npy" --engine rtl --sim /bin/false --output "$tmp/f.npy" --launcher parallel --chunk 100 --workdir "$tmp/rf"
t run-slurm-agreement "$tessel" compare "$tmp/local.npy" "$tmp/slurm.npy" --labels "$digits/digits.labels.npy"

# 6. Bad arguments: exit 2 with the reason.
expect_fail bad-launcher 2 "launcher 'pbs': expected local, parallel or slurm" tune_kinds --launcher pbs
expect_fail sshlogin-not-parallel 2 "sshlogin is for --launcher parallel" tune_kinds --launcher slurm --sshlogin : --workdir "$tmp/x"
expect_fail partition-not-slurm 2 "partition is for --launcher slurm" tune_kinds --partition test
expect_fail slurm-no-workdir 2 "needs --workdir DIR" tune_kinds --launcher slurm
expect_fail no-sbatch 2 "no 'sbatch' on PATH" env PATH=/nonexistent "$tessel" tune "$kinds.onnx" --calib "$kinds.calib.npy" --launcher slurm --workdir "$tmp/x"
expect_fail bad-sbatch-opt 2 "expected an sbatch option" tune_kinds --launcher slurm --workdir "$tmp/x" --sbatch-opt account
expect_fail fold-two-dirs 2 "give --workdir DIR too, or only --fold" tune_kinds --fold "$tmp/sw" --workdir "$tmp/pw"
expect_fail run-chunk-local 2 "chunk is for --launcher parallel or slurm" run_digits --output "$tmp/x.npy" --chunk 10
expect_fail run-no-output 2 "needs --output files" run_digits --launcher parallel --workdir "$tmp/x"
expect_fail run-profile 2 "profile is for one run" run_digits --launcher slurm --workdir "$tmp/x" --output "$tmp/x.npy" --profile "$tmp/x.json"
expect_fail run-bad-chunk 2 "chunk '0'" run_digits --launcher slurm --workdir "$tmp/x" --output "$tmp/x.npy" --chunk 0
expect_fail run-one-inference 1 "hold one inference" "$tessel" run "$tmp/digits.tpkg" --input "$digits/digits_cnn.in0.npy" --engine model \
  --launcher parallel --workdir "$tmp/x" --output "$tmp/x.npy"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
