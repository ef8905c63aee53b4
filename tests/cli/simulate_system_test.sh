#!/usr/bin/env bash
# `bhpm simulate` of field systems from the outside (docs/systems.md): NLS as two real
# fields conserves its mass; a 2-D advection-diffusion run from an expression matches the
# exact solution; lambda-omega's file has the 2-D layout with the measurements at grid
# values; bad inputs exit 1 naming the field and write nothing; a sweep of a system refuses
# a member's bad value before any starts, and the one-field train a system's dataset, by
# name.
#
# Usage: bash simulate_system_test.sh PATH_TO_BHPM
source "$(dirname "$0")/common.sh"

SMALL=(-q --set data.train_experiments=2 --set data.test_experiments=1 --set data.n_st=100)

config() {  # config NAME LINES...: writes $work/NAME.toml, one TOML line per argument
  printf '%s\n' "${@:2}" >"$work/$1.toml"
  echo "$work/$1.toml"
}

refused() {  # refused NAME TEXT CONFIG [ARGS...]: exit 1, "error:" and TEXT on stderr, no file
  local name=$1 text=$2 file=$3
  shift 3
  "$bhpm" simulate "$file" -o "$work/$name.h5" "${SMALL[@]}" "$@" >/dev/null 2>"$work/$name.err"
  local rc=$?
  [ "$rc" -eq 1 ] && grep -q "error:" "$work/$name.err" && grep -qF -- "$text" "$work/$name.err" &&
    [ ! -e "$work/$name.h5" ] && ! compgen -G "$work/*.tmp-*" >/dev/null
  local status=$?
  check "$name is refused naming '$text' (exit $rc: $(head -c 300 "$work/$name.err"))" $status
}

NLS=$(config nls 'seed = 5' '[system]' 'name = "nls"' '[solver]' 'points = 128' \
  '[domain]' 't_end = 2')
"$bhpm" simulate "$NLS" -o "$work/nls.h5" "${SMALL[@]}" --set data.noise=0.01 >"$work/nls.out"
status=$?
check "nls simulates ($(cat "$work/nls.out"))" $status
"$python" - "$work/nls.h5" <<'PY'
import h5py, numpy as np, sys
f = h5py.File(sys.argv[1], "r")
assert f.attrs["format_version"] == 3 and f.attrs["fields"] == "u,v" and f.attrs["dimensions"] == 1
u, v, t = f["train/u"][:], f["train/v"][:], f["train/t"][:]
assert u.shape == v.shape == (2, 41, 128) and "y" not in f["train"], u.shape
mass = (u**2 + v**2).sum(axis=2)  # |psi|^2 summed over the grid, [E, T]
drift = np.abs(mass / mass[:, :1] - 1).max()
assert drift < 1e-6, f"int |psi|^2 drifts by {drift:.2e}"
m = f["train/measurements"]
index = m["index"][:]
clean = u.reshape(2, -1)[np.arange(2)[:, None], index]
assert np.array_equal(clean, m["u_clean"][:])
assert np.array_equal(t[index // 128], m["t"][:])
noise = np.concatenate([(m[k][:] - m[k + "_clean"][:]).ravel() for k in ("u", "v")])
assert 0.008 < noise.std() < 0.012, noise.std()
PY
check "nls keeps int |psi|^2 to 1e-6, measurements are grid values plus the noise" $?

# u_t = 0.1 (u_xx + u_yy) - u_x from sin(x + 2 y): u = exp(-0.5 t) sin(x - t + 2 y).
ADVECTION=$(config advection '[system]' 'name = "general"' 'dimensions = 2' 'fields = ["c"]' \
  'linear = ["0.1*(c_xx + c_yy) - c_x"]' '[domain]' 'x_min = 0' 'x_max = 6.283185307179586' \
  'y_min = 0' 'y_max = 6.283185307179586' 't_end = 1' '[solver]' 'points = 16' 'output_dt = 0.5' \
  '[initial_condition]' 'kind = "expression"' 'expressions = ["sin(x + 2*y)"]')
"$bhpm" simulate "$ADVECTION" -o "$work/advection.h5" "${SMALL[@]}" >"$work/advection.out"
check "a general 2-D system from an expression simulates" $?
"$python" - "$work/advection.h5" <<'PY'
import h5py, numpy as np, sys
f = h5py.File(sys.argv[1], "r")
c, x, y = f["test/c"][0, -1], f["test/x"][:], f["test/y"][:]
X, Y = np.meshgrid(x, y)  # [y, x], as the file stores a field
assert c.shape == (16, 16)
error = np.abs(c - np.exp(-0.5) * np.sin(X - 1 + 2 * Y)).max()
assert error < 1e-10, error
PY
check "the 2-D advection-diffusion run is the exact solution (to 1e-10)" $?

LAMBDA=$(config lambda '[system]' 'name = "lambda_omega"' 'beta = 0.5' '[solver]' 'points = 24' \
  'points_y = 16' '[domain]' 't_end = 1')
"$bhpm" simulate "$LAMBDA" -o "$work/lambda.h5" "${SMALL[@]}" >"$work/lambda.out"
check "lambda_omega simulates on a 24 x 16 box" $?
"$python" - "$work/lambda.h5" <<'PY'
import h5py, numpy as np, sys
f = h5py.File(sys.argv[1], "r")
g = f["train"]
assert g["u"].shape == (2, 3, 16, 24) and g["y"].shape == (16,), g["u"].shape
m = g["measurements"]
index = m["index"][0]
t_index, point = index // 384, index % 384
assert np.array_equal(m["x"][0], g["x"][:][point % 24])
assert np.array_equal(m["y"][0], g["y"][:][point // 24])
assert np.array_equal(m["v"][0], g["v"][0].reshape(3, -1)[t_index, point])
assert "beta = 0.5" in f.attrs["config"] and "(0.5)*(u^2+v^2)*v" in f.attrs["system"]
PY
check "lambda_omega's file: [E, T, y, x] fields, points at their grid values, beta stored" $?

refused unknown_system "system.name" "$NLS" --set system.name=schroedinger
refused unknown_parameter "system.gamma" "$LAMBDA" --set system.gamma=1
refused y_in_one_dimension "domain.y_min" "$NLS" --set domain.y_min=0
refused odd_points "solver.points" "$NLS" --set solver.points=31
refused expressions_count "initial_condition.expressions" "$NLS" \
  --set initial_condition.kind=expression --set 'initial_condition.expressions=sin(x)'
refused not_periodic "along x" "$ADVECTION" --set 'initial_condition.expressions=x'
refused not_linear "is not linear" "$ADVECTION" --set 'system.linear=c*c_x'
refused unknown_partial "system.nonlinear[0]" "$ADVECTION" --set 'system.nonlinear=c*c_z'
refused n_st_too_large "data.n_st" "$LAMBDA" --set data.n_st=100000
refused joint_phase "unknown section [train_joint]" \
  "$(config with_joint '[system]' '[train_joint]' 'iterations = 8')"

"$bhpm" sweep "$LAMBDA" "${SMALL[@]}" --vary data.n_st=100,100000 -o "$work/run" >/dev/null \
  2>"$work/run.err"
[ $? -eq 1 ] && grep -qF "sweep --vary data.n_st=100000: " "$work/run.err" &&
  grep -qF "data.n_st: must be in [1, 1152]" "$work/run.err" && [ ! -e "$work/run" ]
status=$?
check "a sweep of a system checks every member's configuration before any starts, naming \
the value ($(head -c 200 "$work/run.err"))" $status
"$bhpm" train "$(config burgers '[equation]' 'name = "burgers"')" --data "$work/lambda.h5" \
  -o "$work/run" -q >/dev/null 2>"$work/data.err"
[ $? -eq 1 ] && grep -qF "a system of fields or a 2-D box (dataset format_version 3" "$work/data.err"
status=$?
check "train refuses a system's dataset by name ($(head -c 200 "$work/data.err"))" $status

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
