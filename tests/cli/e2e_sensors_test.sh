#!/usr/bin/env bash
# End to end on the shipped example of users' own data (configs/sensors.toml's comment,
# README "Your own data"): examples/sensors/burgers-sensors.csv imported with one tank held
# out, trained on a short schedule, scored without a truth, the operator distilled, a
# prediction from the sampled initial condition examples/sensors/u0.csv, and the report.
# Every file present, every score finite; about two minutes on 2 cores. The configuration's
# own schedule (1m40s of training): with 1500 leaf steps instead of 4000 the leaves keep
# noise scales near 0.07 and every operator sample blows up or is rejected as ill-posed.
source "$(dirname "$0")/common.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"

"$bhpm" import "$root/examples/sensors/burgers-sensors.csv" -o "$work/data.h5" --hold-out 1 \
  > "$work/out" 2>&1
check "import the shipped CSV" $?
grep -q "5500 points in 3 experiments (train 2, test 1)" "$work/out"
check "three tanks, one held out" $?
"$bhpm" train "$root/configs/sensors.toml" --data "$work/data.h5" -o "$work/run" -q > "$work/out" 2>&1
check "train on it" $?
"$bhpm" evaluate "$work/run" --data "$work/data.h5" -q > "$work/evaluate.out" 2>&1
check "evaluate without a truth" $?
cat "$work/evaluate.out"
"$bhpm" distill "$work/run" -q > /dev/null 2>&1
check "distill" $?
"$bhpm" predict "$work/run" --ic-file "$root/examples/sensors/u0.csv" --samples 4 \
  --set predict.features=512 -q > "$work/predict.out" 2>&1
check "predict from the sampled initial condition" $?
"$bhpm" report "$work/run" > /dev/null 2>&1
check "report" $?

for file in joint.ckpt root.h5 metrics.json metrics-leaves.json distill.json prediction.h5 \
            report/index.html report/root-inputs.png report/prediction.png report/distill.png; do
  [ -s "$work/run/$file" ]
  check "$file written" $?
done
"$python" - "$work/run" <<'PY'
import json, math, sys
import h5py
run = sys.argv[1]
for name in ["metrics.json", "metrics-leaves.json"]:
    m = json.load(open(f"{run}/{name}"))
    values = [m["rmse"], m["median_nlpd"], m["mean_nlpd"]] + list(m["coverage"].values())
    assert all(math.isfinite(v) for v in values), (name, m)
    assert "true_equation" not in m, name
with h5py.File(f"{run}/prediction.h5") as f:
    assert f.attrs["samples"] == 4 and f.attrs["diverged"] == 0
    assert "interpolated from" in f.attrs["initial_condition"]
    mean = f["statistics/mean"][:]
    assert mean.shape[1] == 256 and all(math.isfinite(v) for v in mean.ravel())
PY
check "the truth-free scores and the prediction are finite" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
