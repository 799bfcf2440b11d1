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
