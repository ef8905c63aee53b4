#!/usr/bin/env bash
# bhpm train and bhpm evaluate: a small three-phase run (checkpoints of every phase, the
# root file, resume in the joint phase), metrics as JSON with finite values, and refusals
# of bad input (missing fields, N or n_st too large, an untrained run folder, a device that
# cannot be used); bhpm distill on the trained run (distill.json with the truth) and its
# refusals before any work.
source "$(dirname "$0")/common.sh"

cat > "$work/run.toml" <<'TOML'
seed = 4
[equation]
name = "burgers"
[domain]
t_end = 1.0
[solver]
modes = 32
output_dt = 0.1
[data]
train_experiments = 2
test_experiments = 2
n_st = 128
[leaves]
width = 8
hidden_layers = 2
[train_leaves]
iterations = 20
[root]
inducing_points = 16
[train_root]
iterations = 10
points = 64
[train_joint]
iterations = 10
batch_size = 32
checkpoint_every = 5
TOML
"$bhpm" simulate "$work/run.toml" -o "$work/data.h5" -q >/dev/null 2>&1
check "simulate the data" $?

"$bhpm" train "$work/run.toml" --data "$work/data.h5" -o "$work/run" -q > "$work/out" 2>&1
check "train exits 0" $?
for file in leaves.ckpt exact_gp.ckpt joint.ckpt root.h5; do
  [ -f "$work/run/$file" ]
  check "train writes $file" $?
done
grep -q "root mean: u_t ~" "$work/out"
check "train prints the learned mean" $?

"$bhpm" train "$work/run.toml" --data "$work/data.h5" -o "$work/run" -q \
  --set train_joint.iterations=20 > "$work/out" 2>&1
grep -q "resumed in the joint phase" "$work/out"
check "a longer rerun resumes in the joint phase" $?

"$bhpm" evaluate "$work/run" --data "$work/data.h5" > "$work/out" 2>&1
check "evaluate exits 0" $?
grep -q "median NLPD" "$work/out" && grep -q "coverage 95%" "$work/out"
check "evaluate prints the table" $?

"$python" - "$work/run/metrics.json" <<'PY'
import json, math, sys
m = json.load(open(sys.argv[1]))
values = [m["rmse"], m["median_nlpd"], m["mean_nlpd"]] + list(m["coverage"].values())
assert all(isinstance(v, float) and math.isfinite(v) for v in values), values
assert set(m["coverage"]) == {"0.5", "0.9", "0.95"}, m["coverage"]
assert len(m["rmse_per_experiment"]) == 2
PY
check "metrics.json holds finite metrics" $?
"$bhpm" evaluate "$work/run" --data "$work/data.h5" --function-only -o "$work/function.json" \
  > "$work/out" 2>&1
check "evaluate --function-only exits 0" $?
"$python" - "$work/run/metrics.json" "$work/function.json" <<'PY'
import json, sys
noisy, f = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert noisy["predictive"] == "f + sigma_f^2" and f["predictive"] == "f", (noisy, f)
assert f["rmse"] == noisy["rmse"], "the mean must not change"
# Without sigma_f^2 every central interval is nested inside the noisy one: coverage cannot grow.
for level in ("0.5", "0.9", "0.95"):
    assert f["coverage"][level] <= noisy["coverage"][level], level
assert f["mean_nlpd"] != noisy["mean_nlpd"]
PY
check "the function-only scores share the mean and have nested intervals" $?
"$python" - "$work/run/root.h5" <<'PY'
import h5py, sys
f = h5py.File(sys.argv[1], "r")
assert f["root_inputs/v"].shape == (2, 128, 3), f["root_inputs/v"].shape
assert f["gp/inducing_inputs"].shape == (16, 3)
assert f.attrs["variables"] == "u,u_x,u_xx"
PY
check "root.h5 reads with h5py" $?
"$bhpm" distill "$work/run" --data "$work/data.h5" --samples 4 --set distill.max_points=200 \
  > "$work/out" 2> "$work/err"
check "distill exits 0" $?
grep -q "^u_t = " "$work/out" && grep -q "true operator: u_t = 0.1 u_xx + (-u\*u_x)" "$work/out" &&
  grep -q "of the posterior mean's variance" "$work/out"
check "distill prints the equation, the truth and the explained fraction" $?
"$python" - "$work/run/distill.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "bhpm-distill" and d["format_version"] == 1
assert len(d["terms"]) == 20 and d["library"]["variables"] == ["u", "u_x", "u_xx"]
assert len(d["coefficient_samples"]) == 4 and all(len(r) == 20 for r in d["coefficient_samples"])
for t in d["terms"]:
    assert 0 <= t["inclusion"] <= 1 and t["lower"] <= t["median"] <= t["upper"], t
truth = {t["name"]: t["truth"] for t in d["terms"]}
assert abs(truth["u*u_x"] + 1) < 1e-8 and abs(truth["u_xx"] - 0.1) < 1e-8, truth
assert d["settings"]["samples"] == 4 and d["settings"]["points"] == 200 and d["settings"]["folds"] == 2
assert d["settings"]["resampled"] is True  # two experiments: resampled by default
assert "[distill]" in d["config"]
PY
check "distill.json holds every term, the samples' coefficients and the truth" $?
expect_error_early() {  # expect_error_early NAME TEXT ARGS...: refused, and nothing written
  local name="$1" text="$2"
  shift 2
  "$bhpm" distill "$@" -o "$work/refused.json" > "$work/out" 2> "$work/err"
  [ $? -ne 0 ] && grep -qF -- "$text" "$work/err" && [ ! -e "$work/refused.json" ]
  check "$name" $?
}
expect_error_early "distill refuses degree 0" "distill.degree" "$work/run" --degree 0
expect_error_early "distill refuses degree 6" "must be in [1, 5]" "$work/run" --degree 6
expect_error_early "distill refuses one sample" "distill.samples" "$work/run" --samples 1
expect_error_early "distill refuses a resample_experiments that is not a boolean" \
  "distill.resample_experiments" "$work/run" --set distill.resample_experiments=3
mkdir -p "$work/untrained"
expect_error_early "distill refuses a run without a trained root" "run \`bhpm train\` first" \
  "$work/untrained"

cp "$work/data.h5" "$work/broken.h5"
"$python" -c "import h5py, sys; del h5py.File(sys.argv[1], 'r+')['train/measurements/t']" "$work/broken.h5"
"$bhpm" train "$work/run.toml" --data "$work/broken.h5" -o "$work/broken" -q > "$work/out" 2> "$work/err"
[ $? -ne 0 ] && grep -q "measurements/t" "$work/err"
check "a data file missing a field is refused by name" $?

expect_error() {  # expect_error NAME TEXT COMMAND ARGS...
  local name="$1" text="$2"
  shift 2
  "$bhpm" "$@" > "$work/out" 2> "$work/err"
  local code=$?
  [ "$code" -ne 0 ] && grep -q "error:" "$work/err" && grep -qF -- "$text" "$work/err"
  check "$name" $?
}
expect_error "too many experiments" "N = 3 experiments requested" \
  train "$work/run.toml" --data "$work/data.h5" -o "$work/other" -q --experiments 3
expect_error "too many points" "fewer than the n_st = 129 each leaf needs" \
  train "$work/run.toml" --data "$work/data.h5" -o "$work/other" -q --points 129
expect_error "another root order is refused by name" "root.order = 2, the configuration asks for 3" \
  train "$work/run.toml" --data "$work/data.h5" -o "$work/run" -q --set root.order=3
expect_error "unknown key" "train_joint.batchsize" \
  train "$work/run.toml" --data "$work/data.h5" -o "$work/other" -q --set train_joint.batchsize=5
mkdir -p "$work/empty"
expect_error "evaluate needs a trained model" "run \`bhpm train\` first" \
  evaluate "$work/empty" --data "$work/data.h5"
expect_error "an unknown device is refused by name" 'compute.device: must be "cpu", "cuda" or "cuda:N"' \
  train "$work/run.toml" --data "$work/data.h5" -o "$work/other" -q --device gpu
# --device cuda: a clear error before any work without CUDA; where this bhpm has CUDA, the
# CUDA tests of bhpm_tests check the GPU path instead.
for command in "train $work/run.toml --data $work/data.h5 -o $work/on-gpu" \
  "run $work/run.toml -o $work/on-gpu" \
  "evaluate $work/run --data $work/data.h5 -o $work/on-gpu.json" \
  "predict $work/run --ic sin(x) --samples 2 -o $work/on-gpu.h5"; do
  name="${command%% *}"
  $bhpm $command -q --device cuda > "$work/out" 2> "$work/err"
  if [ $? -eq 0 ]; then
    echo "skipped: $name --device cuda ran (this bhpm has CUDA and sees a GPU)"
    continue
  fi
  grep -qF 'compute.device = "cuda:0": this bhpm was built against a LibTorch without CUDA' "$work/err" &&
    [ ! -e "$work/on-gpu" ] && [ ! -e "$work/on-gpu.json" ] && [ ! -e "$work/on-gpu.h5" ]
  check "$name --device cuda without CUDA: a clear error, nothing written" $?
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
