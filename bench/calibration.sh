#!/usr/bin/env bash
# Calibration of the prediction bands: trains a run if needed, predicts every held-out
# experiment of RUN_DIR/data.h5 from its initial condition, and prints, per initial
# condition, how well the ensemble's bands cover the stored true solution. Nothing is
# asserted: a benchmark prints, and machines are noisy.
#   bash bench/calibration.sh CONFIG.toml RUN_DIR [--bhpm PATH] [--samples S]
#                             [--truth DATA.h5] [--set section.key=value ...]
# --truth: the held-out experiments (and their solution grids) come from DATA.h5 instead of
# RUN_DIR/data.h5: for a run trained on measurements only (bench/measured_calibration.sh),
# whose own data.h5 has no grid to start from or score against.
# 1. No RUN_DIR/joint.ckpt: `bhpm run CONFIG -o RUN_DIR
#    --set run.stages=simulate,train,calibrate,evaluate [--set ...]` (the --set settings go to
#    the run; those of [predict] to every prediction too). A trained run without
#    RUN_DIR/discrepancy.json: `bhpm calibrate RUN_DIR [--set predict...]` (training
#    experiments only), timed.
# 2. For each test experiment e (the first dimension of test/u in RUN_DIR/data.h5):
#    `bhpm predict RUN_DIR --ic-from RUN_DIR/data.h5:e -q
#     -o RUN_DIR/calibration/prediction-test-e.h5 [--samples S]`,
#    timed (wall seconds) into RUN_DIR/calibration/timings.csv (experiment,seconds,exit_code);
#    a failed prediction is recorded with its exit code and the others go on.
# 3. When `bhpm evaluate --help` mentions --function-only: the root's posterior of f without
#    sigma_f^2 against the true operator, into RUN_DIR/calibration/function-metrics.json.
# 4. `python3 bench/calibration_table.py RUN_DIR/calibration`: the table, the summary and
#    RUN_DIR/calibration/calibration.json.
# Old prediction files, timings and function metrics in RUN_DIR/calibration are removed first.
# Columns (bench/calibration_table.py has the details), over the sound samples X (m of them,
# samples/diverged == 0) and the truth y = truth/u, every output time but t = 0:
#   rel L2 = ||mean X - y|| / ||y||; cov50/90/95 = fraction of y inside the p = 0.5 / 0.9 /
#   0.95 prediction bands mean X -+ t_{m-1}((1 + p)/2) sqrt(1 + 1/m) std X per grid point
#   (the band bhpm writes for p = 0.95); cal cov95, cal in, rank: the 95 % coverage of each
#   member as the truth against the band of the others (its 10-90 % range, the fraction
#   within [0.90, 0.99], the truth's rank among them: what a calibrated model scores);
#   err/spread = RMSE(mean X - y) / RMS(std X, 1/(m-1)),
#   e/s early and late the same over the first and the last fifth of the output times;
#   CRPS = grid mean of E|X - y| - 1/2 E|X - X'| (fair: 1/(m(m-1)) pairs); diverged,
#   rejected (attribute `rejected`, else 0) sample counts; outside (attribute
#   `outside_coverage`); seconds of the prediction. A calibrated ensemble of m members has
#   err/spread about sqrt(1 + 1/m): the summary prints it.
set -euo pipefail
{  # the whole script is read before it runs: editing this file during a run cannot change it
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() {
  echo "usage: bash bench/calibration.sh CONFIG.toml RUN_DIR [--bhpm PATH] [--samples S]" \
       "[--truth DATA.h5] [--set section.key=value ...]" >&2
  exit 2
}
fail() {  # fail MESSAGE: error on stderr, exit 1
  echo "error: $1" >&2
  exit 1
}

bhpm="$root/build/src/bhpm"
samples=()
truth=""
run_sets=()
predict_sets=()
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bhpm) [ $# -ge 2 ] || usage; bhpm="$2"; shift 2 ;;
    --samples) [ $# -ge 2 ] || usage; samples=(--samples "$2"); shift 2 ;;
    --truth) [ $# -ge 2 ] || usage; truth="$2"; shift 2 ;;
    --set)
      [ $# -ge 2 ] || usage
      run_sets+=(--set "$2")
      case "$2" in predict.*) predict_sets+=(--set "$2") ;; esac
      shift 2 ;;
    -h|--help) usage ;;
    -*) echo "error: unknown option $1" >&2; usage ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -eq 2 ] || usage
config="${positional[0]}"
run_dir="${positional[1]}"
[ -x "$bhpm" ] || fail "$bhpm: no bhpm binary there (pass --bhpm PATH)"

python=""  # a Python that imports h5py (python3-h5py may be installed for the system's only)
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c "import h5py, numpy" 2>/dev/null; then python="$candidate"; break; fi
done
[ -n "$python" ] || fail "no python3 that imports h5py and numpy (package python3-h5py)"

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
if [ ! -f "$run_dir/joint.ckpt" ]; then
  echo "training: $bhpm run $config -o $run_dir"
  "$bhpm" run "$config" -o "$run_dir" --set run.stages=simulate,train,calibrate,evaluate \
    "${run_sets[@]}" -q
elif [ ! -f "$run_dir/discrepancy.json" ]; then
  echo "calibrating the model discrepancy: $bhpm calibrate $run_dir"
  start="$(date +%s.%N)"
  "$bhpm" calibrate "$run_dir" -q "${predict_sets[@]}"
  awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "calibrate: %.1f s\n", b - a }'
fi
data="${truth:-$run_dir/data.h5}"
[ -f "$data" ] || fail "$data: missing (the held-out experiments come from there)"

experiments="$("$python" - "$data" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    print(f["test/u"].shape[0] if "test/u" in f else 0)
PY
)"
[ "$experiments" -gt 0 ] || fail "$data: no test experiments (data.test_experiments = 0)"

out="$run_dir/calibration"
mkdir -p "$out"
rm -f "$out"/prediction-test-*.h5 "$out/timings.csv" "$out/function-metrics.json"
echo "experiment,seconds,exit_code" > "$out/timings.csv"
for ((e = 0; e < experiments; e++)); do
  start="$(date +%s.%N)"
  code=0
  "$bhpm" predict "$run_dir" --ic-from "$data:$e" -o "$out/prediction-test-$e.h5" -q \
    "${samples[@]}" "${predict_sets[@]}" || code=$?
  seconds="$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')"
  echo "$e,$seconds,$code" >> "$out/timings.csv"
  [ "$code" -eq 0 ] || echo "prediction of test experiment $e failed (exit $code); going on"
done

help="$("$bhpm" evaluate --help 2>&1 || true)"
if [[ "$help" == *--function-only* ]]; then
  "$bhpm" evaluate "$run_dir" --data "$data" --function-only -o "$out/function-metrics.json" \
    > /dev/null ||
    echo "bhpm evaluate --function-only failed (exit $?); no function-only calibration"
else
  echo "$bhpm has no --function-only (bhpm evaluate): function-only calibration skipped"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
"$python" "$root/bench/calibration_table.py" "$out"
exit
}
