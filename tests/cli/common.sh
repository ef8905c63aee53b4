# Sourced by the CLI test scripts: the bhpm binary ($1), a scratch folder removed on exit,
# pass/fail counting and a Python that can import h5py. The tests read our files as users
# will; without such a Python a failing check says so (never a silent skip), and every
# check that reads a file fails with it.
set -u
bhpm="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
check() {  # check NAME CONDITION-EXIT-CODE
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "ok: $1"; else failed=$((failed + 1)); echo "FAILED: $1"; fi
}
python=""
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c "import h5py" 2>/dev/null; then python="$candidate"; break; fi
done
if [ -z "$python" ]; then
  check "a python3 that imports h5py (package python3-h5py, installed by scripts/install-deps.sh)" 1
  python=python3
fi
refused_command() {  # refused_command NAME TEXT COMMAND...: exit 1, "error:" and TEXT on stderr
  local name=$1 text=$2
  shift 2
  "$@" >/dev/null 2>"$work/$name.err"
  local rc=$?
  [ "$rc" -eq 1 ] && grep -q "error:" "$work/$name.err" && grep -qF -- "$text" "$work/$name.err"
  local status=$?
  check "$name is refused naming '$text' (exit $rc: $(head -c 300 "$work/$name.err"))" $status
}
