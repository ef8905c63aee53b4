#!/usr/bin/env bash
# End to end on the shipped example of users' own data (configs/sensors.toml's comment,
# docs/commands.md, `bhpm import`): examples/sensors/burgers-sensors.csv imported with one tank held
# out, then `bhpm run` with run.data: trained on a short schedule, the operator samples'
# spread calibrated from the measurements alone, scored without a truth, the operator
# distilled, the held-out tank predicted on its own window (a leaf fitted to four fifths of
# its measurements, scored on the fifth), a prediction from the sampled initial condition
# examples/sensors/u0.csv, and
# the report with the measurements' scatter plots and the training curves. Every file present, every score finite, run.log kept, a rerun up to
# date, another dataset in the folder refused; about five minutes on one thread beside
# another test, as ctest runs it. The configuration's own schedule (1m40s of training):
# with 1500 leaf steps instead of 4000 the leaves keep noise scales near 0.07 and every
# operator sample blows up or is rejected as ill-posed.
source "$(dirname "$0")/common.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"

"$bhpm" import "$root/examples/sensors/burgers-sensors.csv" -o "$work/data.h5" --hold-out 1 \
  > "$work/out" 2>&1
check "import the shipped CSV" $?
grep -q "5500 points in 3 experiments (train 2, test 1)" "$work/out"
check "three tanks, one held out" $?
"$bhpm" run "$root/configs/sensors.toml" -o "$work/run" --set "run.data=$work/data.h5" \
  --set predict.samples=4 --set predict.features=512 -q > "$work/run.out" 2>&1
check "bhpm run on the imported data (run.data replaces simulate)" $?
cat "$work/run.out"
grep -q "== simulate: replaced by run.data: copying $work/data.h5" "$work/run.out" &&
  cmp -s "$work/data.h5" "$work/run/data.h5"
check "the simulate stage copied the dataset" $?

for file in joint.ckpt root.h5 metrics.json metrics-leaves.json distill.json prediction-u0.h5 \
            prediction-test-0.h5 report/prediction-test-0-boundary.png \
            history-leaves.csv history-exact_gp.csv history-joint.csv run.log \
            report/index.html report/datasets.png report/training.png report/root-inputs.png \
            report/prediction-u0.png report/distill.png; do
  [ -s "$work/run/$file" ]
  check "$file written" $?
done
[ ! -e "$work/run/metrics-train.json" ]
check "no training-grid scores without solution grids" $?
grep -q "== calibrate: model discrepancy on the training experiments' measurements" \
  "$work/run.out" && grep -q "^model discrepancy (from the measurements alone)" "$work/run.out"
check "calibrate fits the spread from the measurements alone" $?
grep -q "Data: the measurements" "$work/run/report/index.html"
check "the report draws the measurements as scatter plots" $?
grep -q "^== train" "$work/run/run.log" && grep -q "^=== .*: bhpm run .*sensors.toml" "$work/run/run.log"
check "run.log holds the job's output under its command line" $?

"$bhpm" run "$root/configs/sensors.toml" -o "$work/run" --set "run.data=$work/data.h5" \
  --set predict.samples=4 --set predict.features=512 -q > "$work/rerun.out" 2>&1 &&
  grep -q "== simulate: up to date" "$work/rerun.out" && grep -q "== train: up to date" "$work/rerun.out" &&
  [ "$(grep -c "^=== " "$work/run/run.log")" -eq 2 ]
check "a rerun is up to date and appends to run.log" $?

"$bhpm" import "$root/examples/sensors/burgers-sensors.csv" -o "$work/other.h5" --hold-out 1 --seed 3 \
  > /dev/null 2>&1
"$bhpm" run "$root/configs/sensors.toml" -o "$work/run" --set "run.data=$work/other.h5" -q \
  > "$work/out" 2>&1
[ $? -ne 0 ] && grep -q "data.h5 is not a copy of run.data = $work/other.h5" "$work/out"
check "another dataset in the same run folder is refused" $?
"$bhpm" run "$root/configs/sensors.toml" -o "$work/run2" --set "run.data=$work/data.h5" \
  --set "run.predict_experiments=[1]" -q > "$work/out" 2>&1
[ $? -ne 0 ] && grep -q "run.predict_experiments: experiment 1 is not among the 1 held-out" "$work/out" &&
  [ ! -e "$work/run2" ]
check "predicting a held-out experiment the dataset lacks is refused before any work" $?

"$python" - "$work/run" <<'PY'
import json, math, sys
import h5py
run = sys.argv[1]
for name in ["metrics.json", "metrics-leaves.json"]:
    m = json.load(open(f"{run}/{name}"))
    values = [m["rmse"], m["median_nlpd"], m["mean_nlpd"]] + list(m["coverage"].values())
    assert all(math.isfinite(v) for v in values), (name, m)
    assert "true_equation" not in m, name
calibration = json.load(open(f"{run}/discrepancy.json"))
assert calibration["method"] == "operator" and calibration["variance"] == 0, calibration
kappa = calibration["inflation"]
assert math.isfinite(kappa) and kappa > 0, kappa
assert len(calibration["operator"]["training_experiments"]) == 2, calibration["operator"]
with h5py.File(f"{run}/prediction-u0.h5") as f:
    assert f.attrs["samples"] == 4 and f.attrs["diverged"] == 0
    assert f.attrs["spread_inflation"] == kappa, (f.attrs["spread_inflation"], kappa)
    band = f.attrs["band"]
    band = band.decode() if isinstance(band, bytes) else band
    assert band == "calibrated (operator)", band
    assert "interpolated from" in f.attrs["initial_condition"]
    mean = f["statistics/mean"][:]
    assert mean.shape[1] == 256 and all(math.isfinite(v) for v in mean.ravel())
with h5py.File(f"{run}/prediction-test-0.h5") as f:  # the held-out tank on its own window
    assert f.attrs["initial_condition"].startswith("held-out experiment 0 on its window")
    scores = f.attrs["window_measurements"]
    scores = scores.decode() if isinstance(scores, bytes) else scores
    assert scores.startswith("360 held-back measurements: relative L2 error of the mean"), scores
    assert f["measurements"].attrs["held_back"] == 1
[row] = [p for p in json.load(open(f"{run}/report/metrics.json"))["predictions"]
         if p["file"] == "prediction-test-0.h5"]
assert row["scored_on"] == "held-back measurements" and math.isfinite(row["relative_l2"]), row
PY
check "the truth-free scores and the predictions are finite" $?
grep -q "predict: held-out experiment 0 on its own window (measurements only)" "$work/run.out"
check "the held-out tank is predicted on its own window" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
