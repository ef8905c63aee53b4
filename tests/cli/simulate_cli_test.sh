#!/usr/bin/env bash
# `bhpm simulate` from the outside: a small valid run writes its file (on a periodic and on
# bounded domains: walls, no flux, KdV's three conditions, inflow); every bad input exits non-zero with "error:" and the offending field on
# stderr, and leaves neither an output file nor a temporary one behind.
#
# Usage: bash simulate_cli_test.sh PATH_TO_BHPM
set -u

BHPM=${1:?usage: simulate_cli_test.sh PATH_TO_BHPM}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bhpm-cli-test-XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL: $1"; }

# 11 output times x 32 points = 352 grid points per experiment.
SMALL=(--set solver.modes=32 --set data.n_st=50 --set data.train_experiments=2
       --set data.test_experiments=1 --set domain.t_end=1 --set solver.output_dt=0.1)

write_config() {  # write_config NAME LINES...: one TOML line per argument
  local path="$WORK/$1.toml"
  shift
  printf '%s\n' "$@" >"$path"
  echo "$path"
}

no_temporaries() { ! compgen -G "$WORK/*.tmp-*" >/dev/null; }

# expect_failure NAME EXPECTED_TEXT CONFIG [ARGS...]: the run must fail cleanly.
expect_failure() {
  local name=$1 expected=$2 config=$3
  shift 3
  local out="$WORK/$name.h5" stderr="$WORK/$name.stderr" problems=""
  "$BHPM" simulate "$config" -o "$out" -q "$@" >"$WORK/$name.stdout" 2>"$stderr"
  local rc=$?
  if [ "$rc" -ge 128 ]; then
    problems+="; killed by a signal (exit status $rc)"
  elif [ "$rc" -ne 1 ]; then
    problems+="; exit status $rc (bad input exits 1)"
  fi
  grep -q "error:" "$stderr" || problems+="; no 'error:' on stderr"
  grep -qF -- "$expected" "$stderr" || problems+="; stderr lacks '$expected'"
  [ -e "$out" ] && problems+="; output file $out was created"
  if ! no_temporaries; then
    problems+="; temporary left: $(compgen -G "$WORK/*.tmp-*" | tr '\n' ' ')"
    rm -f "$WORK"/*.tmp-*
  fi
  if [ -z "$problems" ]; then
    pass "$name"
  else
    fail "$name${problems}"
    echo "  stderr was:"; sed 's/^/    /' "$stderr"
  fi
}

BURGERS=$(write_config burgers '[equation]' 'name = "burgers"')

# --- a small valid run -------------------------------------------------------------------
VALID="$WORK/valid.h5"
"$BHPM" simulate "$BURGERS" -o "$VALID" -q "${SMALL[@]}" --set data.noise=0.01 \
  >"$WORK/valid.stdout" 2>"$WORK/valid.stderr"
rc=$?
if [ "$rc" -eq 0 ] && [ -s "$VALID" ] && no_temporaries; then
  pass "valid run exits 0 and writes $VALID"
else
  fail "valid run: exit status $rc, file present: $([ -e "$VALID" ] && echo yes || echo no)"
  sed 's/^/    /' "$WORK/valid.stderr"
fi
if grep -q "^wrote " "$WORK/valid.stdout"; then
  pass "valid run reports what it wrote"
else
  fail "valid run: stdout lacks 'wrote ...'"
fi

# A bounded domain with walls: the grid is the Chebyshev points, the conditions reported.
"$BHPM" simulate "$BURGERS" -o "$WORK/walls.h5" -q "${SMALL[@]}" --set domain.boundary=conditions \
  --set "domain.left=u = 0" --set "domain.right=u = 0" --set solver.intervals=16 \
  >"$WORK/walls.stdout" 2>"$WORK/walls.stderr"
if [ $? -eq 0 ] && grep -qF "grid 11 x 17 Chebyshev points (left: u = 0; right: u = 0)" "$WORK/walls.stdout"; then
  pass "a bounded domain with walls is simulated on its Chebyshev points"
else
  fail "bounded simulate: $(cat "$WORK/walls.stdout" "$WORK/walls.stderr")"
fi

# The other kinds of boundary the solver takes: heat with no flux at either end, KdV with
# its three conditions (one at the left, two at the right), advection with inflow data at
# the left and none at the outflow; the inflow's data are the stored solution's left column.
bounded_case() {  # bounded_case NAME EXPECTED-CONDITIONS SETTINGS...
  local name=$1 expected=$2
  shift 2
  "$BHPM" simulate "$BURGERS" -o "$WORK/$name.h5" -q "${SMALL[@]}" --set domain.boundary=conditions \
    --set solver.intervals=24 "$@" >"$WORK/$name.stdout" 2>"$WORK/$name.stderr"
  if [ $? -eq 0 ] && grep -qF "Chebyshev points ($expected)" "$WORK/$name.stdout"; then
    pass "$name simulated on a bounded domain ($expected)"
  else
    fail "$name: $(cat "$WORK/$name.stdout" "$WORK/$name.stderr")"
  fi
}
bounded_case heat-no-flux "left: u_x = 0; right: u_x = 0" --set equation.name=heat \
  --set "domain.left=u_x = 0" --set "domain.right=u_x = 0"
bounded_case kdv-interval "left: u = 0; right: u = 0, u_x = 0" --set equation.name=kdv \
  --set "domain.left=u = 0" --set "domain.right=u = 0,u_x = 0"
bounded_case advection-inflow "left: u = 0.1*sin(t); right: none" --set equation.name=general \
  --set "equation.linear=[0, -1]" --set "domain.left=u = 0.1*sin(t)" --set "domain.right=[]"
for python in python3 /usr/bin/python3; do "$python" -c "import h5py" 2>/dev/null && break; done
if "$python" - "$WORK/advection-inflow.h5" <<'PY'
import h5py, numpy as np, sys
f = h5py.File(sys.argv[1], "r")
u, t = f["test/u"][:], f["test/t"][:]
assert np.abs(u[0, :, 0] - 0.1 * np.sin(t)).max() < 1e-12
PY
then
  pass "the inflow data are the solution at the left end"
else
  fail "the inflow data are not the solution at the left end"
fi

# --- bad inputs --------------------------------------------------------------------------
expect_failure unknown_key "solver.mode" "$BURGERS" "${SMALL[@]}" --set solver.mode=3

WRONG_TYPE=$(write_config wrong_type '[equation]' 'name = "burgers"' '[solver]' 'modes = "abc"')
expect_failure wrong_type "solver.modes" "$WRONG_TYPE" --set data.n_st=50

expect_failure modes_zero "solver.modes" "$BURGERS" "${SMALL[@]}" --set solver.modes=0

expect_failure negative_dt "solver.dt" "$BURGERS" "${SMALL[@]}" --set solver.dt=-1
expect_failure bounded_count "domain.left, domain.right: boundary conditions: u_t = 0.1 u_xx + (-u*u_x) (order 2) needs 1 condition at the left end" \
  "$BURGERS" "${SMALL[@]}" --set domain.boundary=conditions --set "domain.left=u = 0,u_x = 0" --set "domain.right=u = 0"
expect_failure bounded_file "initial_condition.kind = \"file\": on a bounded domain" \
  "$BURGERS" "${SMALL[@]}" --set domain.boundary=conditions --set "domain.left=u = 0" --set "domain.right=u = 0" \
  --set initial_condition.kind=file --set initial_condition.file=u0.txt

BAD_NONLINEAR=$(write_config bad_nonlinear '[equation]' 'name = "general"' \
  'linear = [0, 0, 0.1]' 'nonlinear = "-u*u_y"')
expect_failure bad_nonlinear "equation.nonlinear" "$BAD_NONLINEAR" "${SMALL[@]}"

printf '0.1 0.2 0.3\n0.4 0.5\n' >"$WORK/u0_short.txt"
SHORT_FILE=$(write_config short_file '[equation]' 'name = "burgers"' '[initial_condition]' \
  'kind = "file"' 'file = "u0_short.txt"')
expect_failure short_initial_condition "initial_condition.file" "$SHORT_FILE" "${SMALL[@]}"

expect_failure n_st_too_large "data.n_st" "$BURGERS" "${SMALL[@]}" --set data.n_st=353

# u_t = -u_xx, the backward heat equation: every high wavenumber grows without bound.
BACKWARD=$(write_config backward_heat '[equation]' 'name = "general"' 'linear = [0, 0, -1]')
expect_failure blow_up "blew up" "$BACKWARD" "${SMALL[@]}"
if grep -q "t = " "$WORK/blow_up.stderr"; then
  pass "blow_up names the time"
else
  fail "blow_up: stderr lacks 't = '"
fi

# A failed run over an existing file leaves that file as it was.
if [ -s "$VALID" ]; then
  cp "$VALID" "$WORK/valid.copy"
  "$BHPM" simulate "$BACKWARD" -o "$VALID" -q "${SMALL[@]}" >/dev/null 2>&1
  rc=$?
  if [ "$rc" -ne 0 ] && cmp -s "$VALID" "$WORK/valid.copy" && no_temporaries; then
    pass "failed run keeps the previous output"
  else
    fail "failed run over an existing file: exit status $rc, file changed or temporary left"
  fi
  rm -f "$WORK/valid.copy"
fi

# --- exit codes: 0 success, 1 bad input or failure, 2 usage (README, "Exit codes") -------
expect_exit() {  # expect_exit NAME CODE TEXT ARGS...: bhpm ARGS exits CODE with TEXT on stderr
  local name=$1 code=$2 text=$3
  shift 3
  "$BHPM" "$@" >"$WORK/exit.stdout" 2>"$WORK/exit.stderr"
  local rc=$?
  if [ "$rc" -eq "$code" ] && grep -qF -- "$text" "$WORK/exit.stderr" "$WORK/exit.stdout"; then
    pass "$name"
  else
    fail "$name: exit status $rc (expected $code), output: $(cat "$WORK/exit.stderr")"
  fi
}
expect_exit "--version exits 0" 0 "bhpm " --version
expect_exit "an unknown option is a usage error" 2 "error: " simulate "$BURGERS" -o "$WORK/x.h5" --no-such-option
expect_exit "a missing required option is a usage error" 2 "error: " simulate "$BURGERS"
expect_exit "no subcommand is a usage error" 2 "error: "
expect_exit "an unknown subcommand is a usage error" 2 "error: " no-such-command
expect_exit "a configuration file that does not exist is a usage error" 2 "error: " simulate "$WORK/absent.toml" -o "$WORK/x.h5"
expect_exit "a --set without section.key=value is a usage error" 2 "expected section.key=value" simulate "$BURGERS" -o "$WORK/x.h5" --set solver.modes
expect_exit "run --threads 0 is refused as the top-level --threads 0 is" 2 "--threads: Value 0 not in range 1" run "$BURGERS" -o "$WORK/run0" --threads 0
expect_exit "a negative seed is refused with the value given, not a range of 300 digits" 2 "--seed: must be >= 0 (got -3)" import "$BURGERS" -o "$WORK/x.h5" --seed -3
[ ! -e "$WORK/run0" ] && pass "a refused run makes no run folder" || fail "run --threads 0 made $WORK/run0"
expect_exit "a configuration that breaks a rule is bad input" 1 "error: " simulate "$BURGERS" -o "$WORK/x.h5" --set solver.modes=0

# --- the file as h5py users see it ---------------------------------------------------------
PYTHON=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c "import h5py" >/dev/null 2>&1; then
    PYTHON=$candidate
    break
  fi
done
if [ -z "$PYTHON" ]; then
  fail "a python3 that imports h5py (package python3-h5py, installed by scripts/install-deps.sh)"
elif [ -s "$VALID" ]; then
  if "$PYTHON" - "$VALID" <<'EOF'
import sys
import h5py

with h5py.File(sys.argv[1], "r") as f:
    assert f["train/u"].shape == (2, 11, 32), f["train/u"].shape
    assert f["train/measurements/u"].shape == (2, 50), f["train/measurements/u"].shape
    assert f["test/u"].shape == (1, 11, 32), f["test/u"].shape
    config = f.attrs["config"]
    if isinstance(config, bytes):
        config = config.decode()
    assert "[solver]" in config, config
EOF
  then
    pass "h5py reads the expected shapes and the config attribute"
  else
    fail "h5py check of $VALID"
  fi
fi

echo "$passed passed, $failed failed"
if [ "$failed" -ne 0 ]; then exit 1; fi
exit 0
