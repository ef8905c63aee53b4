#!/usr/bin/env bash
# bhpm run: the whole job in one folder, resumable. A run killed during training (after
# its first leaf checkpoint, before root.h5) is rerun and must end with exactly the numbers
# of an uninterrupted run with the same seed (root.h5's arrays and metrics.json); a rerun
# of a finished run skips every stage; outputs of another configuration are refused; a
# configuration that cannot work (n_st larger than the grid, a missing section, a
# predicted experiment the data will not hold, a stage without its inputs, an equation or
# initial condition the simulate stage cannot make) is refused
# before any work, leaving no folder behind; a second run on a folder in use is refused; an
# output damaged after it was written is made again.
source "$(dirname "$0")/common.sh"

source "$(dirname "$0")/heat_run.sh"
write_heat_config "$work/run.toml"
# One test experiment, a longer leaf phase checkpointed often (room to kill it mid-phase);
# a --set given after these wins.
settings=(--set seed=11 --set data.test_experiments=1 --set train_leaves.iterations=1500
          --set train_leaves.checkpoint_every=100 --set train_joint.checkpoint_every=50
          --set run.stages=simulate,train,evaluate)

"$bhpm" run "$work/run.toml" "${settings[@]}" -o "$work/whole" --threads 1 -q > "$work/whole.out" 2>&1
check "an uninterrupted run exits 0" $?
for f in run.toml data.h5 leaves.ckpt exact_gp.ckpt joint.ckpt root.h5 metrics.json metrics-train.json; do
  [ -f "$work/whole/$f" ]
  check "the run writes $f" $?
done

"$bhpm" run "$work/run.toml" "${settings[@]}" -o "$work/whole" --threads 1 -q > "$work/again.out" 2>&1
check "rerunning a finished run exits 0" $?
[ "$(grep -c ': up to date' "$work/again.out")" -eq 3 ]
check "rerunning a finished run skips all three stages" $?
# metrics.json cut short after it was written, still newer than its inputs: made again.
head -c 20 "$work/whole/metrics.json" > "$work/cut.json" && cat "$work/cut.json" > "$work/whole/metrics.json"
"$bhpm" run "$work/run.toml" "${settings[@]}" -o "$work/whole" --threads 1 -q > "$work/damaged.out" 2>&1 &&
  grep -q "metrics.json does not read back (.*): made again" "$work/damaged.out" &&
  "$python" -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/whole/metrics.json"
check "a damaged metrics.json is not taken as up to date: the run evaluates again" $?

# Interrupt: start the same run, stop it (SIGSTOP) as soon as the first leaf checkpoint
# exists, and kill it after the check below. Stopping first makes the test independent of
# the machine's speed: the leaf phase ends about a second after its first checkpoint, less
# than a second bhpm's start-up takes on a loaded machine.
"$bhpm" run "$work/run.toml" "${settings[@]}" -o "$work/killed" --threads 1 -q > "$work/killed.out" 2>&1 &
pid=$!
for _ in $(seq 1 6000); do
  [ -f "$work/killed/leaves.ckpt" ] && break
  sleep 0.01
done
kill -STOP "$pid" 2>/dev/null
# A second run on the folder while the first trains is refused at once, naming the holder.
"$bhpm" run "$work/run.toml" "${settings[@]}" --set seed=12 -o "$work/killed" --threads 1 -q \
  > "$work/second.out" 2>&1
[ $? -eq 1 ] && grep -q "is in use by another bhpm process (pid $pid: bhpm run" "$work/second.out"
check "a second run on a folder in use is refused with the holder's pid" $?
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ -f "$work/killed/leaves.ckpt" ] && [ ! -f "$work/killed/root.h5" ]
check "the second run was killed during training (a leaf checkpoint, no root.h5)" $?
ls "$work/killed" | grep -q "tmp-" && leftover=1 || leftover=0
[ "$leftover" -eq 0 ] || rm -f "$work/killed/"*tmp-*  # a kill -9 may leave a temporary file; never a target
"$bhpm" run "$work/run.toml" "${settings[@]}" -o "$work/killed" --threads 1 > "$work/resumed.out" 2>&1
check "the killed run resumes and exits 0" $?
grep -q "simulate: up to date" "$work/resumed.out" && grep -q "resumed from iteration" "$work/resumed.out"
check "the resumed run keeps the data and resumes training from the checkpoint" $?
grep "resumed from iteration" "$work/resumed.out"

"$python" - "$work/whole" "$work/killed" <<'PY'
import json, sys
import h5py, numpy as np
a, b = sys.argv[1], sys.argv[2]
with h5py.File(f"{a}/root.h5") as fa, h5py.File(f"{b}/root.h5") as fb:
  for name in ["root_inputs/v", "root_inputs/u_t", "gp/inducing_inputs", "gp/q_mean",
               "gp/q_covariance", "gp/lengthscales", "leaves/noise_scale"]:
      assert np.array_equal(fa[name][()], fb[name][()]), f"{name} differs"
ma, mb = json.load(open(f"{a}/metrics.json")), json.load(open(f"{b}/metrics.json"))
for key in ["rmse", "mean_nlpd", "median_nlpd", "coverage"]:
  assert ma[key] == mb[key], f"metrics.json {key}: {ma[key]} vs {mb[key]}"
print("identical: root.h5 arrays and metrics.json, rmse", ma["rmse"])
PY
check "the resumed run ends with exactly the uninterrupted run's numbers" $?

"$bhpm" run "$work/run.toml" "${settings[@]}" -o "$work/whole" --set data.n_st=200 > "$work/out" 2>&1
[ $? -ne 0 ] && grep -q "data.h5 was made by another configuration (data.n_st = 256 there, 200 here)" "$work/out"
check "outputs of another configuration are refused with the setting that differs" $?

refused() {  # refused NAME PATTERN ARGS...: exit 1, the message, no folder left
  local name="$1" pattern="$2"
  shift 2
  rm -rf "$work/bad"
  local config="$1"
  shift
  "$bhpm" run "$config" "${settings[@]}" "$@" -o "$work/bad" > "$work/out" 2>&1
  local code=$?
  [ "$code" -eq 1 ] && grep -q "$pattern" "$work/out" && [ ! -e "$work/bad" ]
  check "refused before any work: $name" $?
}
refused "n_st larger than the grid" "data.n_st: must be in \[1, 352\] (the grid's stored times x points)" \
  "$work/run.toml" --set data.n_st=1000
printf 'seed = 1\n[data]\nn_st = 10\n' > "$work/no-equation.toml"
refused "a missing section" "missing section \[equation\]" "$work/no-equation.toml"
refused "an unknown key" "data.n_sx: unknown key" "$work/run.toml" --set data.n_sx=10
refused "an unknown stage" 'run.stages: each stage must be one of' "$work/run.toml" --set run.stages=simulate,fit
refused "a predicted experiment beyond the test set" "run.predict_experiments: experiment 3 is not among" \
  "$work/run.toml" --set run.stages=simulate,train,predict --set "run.predict_experiments=[3]"
refused "a bounded domain with a condition too many for the equation" \
  "domain.left, domain.right: boundary conditions: .* needs 1 condition at the left end" \
  "$work/run.toml" --set domain.boundary=conditions --set "domain.left=u = 0,u_x = 0" --set "domain.right=u = 0"
refused "periodic held-out grids predicted on a bounded domain" \
  "run.predict_experiments: the held-out experiments of .* are on a periodic domain" \
  "$work/run.toml" --set run.stages=train,predict --set run.data="$work/whole/data.h5" --set "run.predict_experiments=[0]" \
  --set domain.boundary=conditions --set "domain.left=u = 0" --set "domain.right=u = 0"
refused "a stage without its inputs" "the evaluate stage needs .*data.h5, which is missing" \
  "$work/run.toml" --set run.stages=evaluate
refused "a coefficient that is not finite" "equation.nu: must be a finite number" \
  "$work/run.toml" --set equation.nu=nan
refused "a nonlinear term that does not parse" "equation.nonlinear" \
  "$work/run.toml" --set equation.name=general --set "equation.nonlinear=u*(u_x"
refused "an initial condition that is not finite" "initial_condition.expression: expression '1/(x-x_min)' is not finite" \
  "$work/run.toml" --set initial_condition.kind=expression --set "initial_condition.expression=1/(x-x_min)"
refused "an initial condition that is not periodic" "initial_condition.expression 'x': u0 is not periodic" \
  "$work/run.toml" --set initial_condition.kind=expression --set initial_condition.expression=x
refused "a missing initial-condition file" "initial_condition.file: cannot open" \
  "$work/run.toml" --set initial_condition.kind=file --set initial_condition.file=missing-u0.txt

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
