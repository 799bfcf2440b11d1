# tests/lib/check.sh: the checks the shell suites share. Source it after
# setting $tmp (each check keeps its command's output in $tmp/NAME.*); the
# suite ends with `echo "$pass passed, $fail failed"`.
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
ko() { fail=$((fail + 1)); echo "FAIL: $1"; }
# t NAME CMD...: CMD succeeds.
t() { local name=$1; shift; if "$@" >"$tmp/$name.log" 2>&1; then ok "$name"; else ko "$name"; sed 's/^/  /' "$tmp/$name.log" | tail -20; fi; }
# expect_fail NAME CODE PATTERN CMD...: CMD exits with CODE and its stderr
# has PATTERN (an empty PATTERN: any stderr).
expect_fail() {
  local name=$1 code=$2 pat=$3; shift 3
  "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  local rc=$?
  if [ $rc -eq "$code" ] && { [ -z "$pat" ] || grep -q -- "$pat" "$tmp/$name.err"; }; then ok "$name"
  else ko "$name (exit $rc, wanted $code and '$pat')"; sed 's/^/  /' "$tmp/$name.err" | tail -5; fi
}
# killed_clean NAME SIG COND CMD...: starts CMD with TMPDIR a new empty
# folder $scratch ($tmp/NAME.scratch), sends it SIG once the bash condition
# COND holds (polled for up to 60 s; it may use $scratch), and checks that
# CMD died of SIG, that no process whose command line names $scratch is
# left, and that $scratch is empty. CMD runs under job control (set -m), so
# a background job does not start with SIGINT ignored.
killed_clean() {
  local name=$1 sig=$2 cond=$3 up=0 rc; shift 3
  scratch=$(cd "$tmp" && pwd)/$name.scratch
  rm -rf "$scratch" && mkdir -p "$scratch"
  set -m
  TMPDIR=$scratch "$@" >"$tmp/$name.log" 2>&1 &
  local pid=$!
  set +m
  for _ in $(seq 600); do eval "$cond" && up=1 && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -s "$sig" "$pid" 2>/dev/null
  { # (the shell's "Hangup" notice of the job goes nowhere)
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    wait "$pid"; rc=$?
  } 2>/dev/null
  local want=$((128 + $(kill -l "$sig"))) left files
  left=$(pgrep -f -- "$scratch" | wc -l)
  files=$(ls -A "$scratch" | wc -l)
  if [ "$up" = 1 ] && [ "$rc" = "$want" ] && [ "$left" = 0 ] && [ "$files" = 0 ]; then ok "$name"
  else
    ko "$name (condition met: $up; exit $rc, wanted $want; $left processes and $files files left)"
    pgrep -af -- "$scratch" | sed 's/^/  /'; ls -AR "$scratch" | head -5 | sed 's/^/  /'; tail -3 "$tmp/$name.log" | sed 's/^/  /'
    for p in $(pgrep -f -- "$scratch"); do kill -KILL "$p"; done
  fi
}
