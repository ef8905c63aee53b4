#!/usr/bin/env bash
# bhpm report on a small trained run (heat_run.sh) with held-out metrics, a prediction
# compared with its truth, one on a bounded domain (drawn with its boundary data), a
# distilled equation and a tiny refinement study: every figure is a PNG, index.html shows
# them all, report/metrics.json holds finite numbers, a second report replaces the first whole, and bad input (no run folder, no root.h5, no gnuplot, a file of
# the wrong format) is refused with a clear message, leaving neither a report folder nor a
# temporary one behind and the previous report intact.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/heat_run.sh"

train_heat_run
for phase in leaves exact_gp joint; do
  [ "$(head -c 34 "$work/run/history-$phase.csv")" = "iteration,learning_rate,objective," ] &&
    [ "$(tail -n 1 "$work/run/history-$phase.csv" | cut -d, -f1)" != "iteration" ]
  check "training wrote history-$phase.csv with rows" $?
done
"$bhpm" evaluate "$work/run" --data "$work/data.h5" >/dev/null 2>&1
check "evaluate it" $?
"$bhpm" predict "$work/run" --ic-from "$work/data.h5:0" -o "$work/run/prediction-test-0.h5" -q >/dev/null 2>&1
check "predict a test experiment" $?
walls=(--set domain.boundary=conditions --set "domain.left=u = 0" --set "domain.right=u = 0"
       --set solver.intervals=32)
"$bhpm" simulate "$work/run.toml" -o "$work/walls.h5" -q "${walls[@]}" >/dev/null 2>&1 &&
  "$bhpm" predict "$work/run" --ic-from "$work/walls.h5:1" "${walls[@]}" \
    -o "$work/run/prediction-walls.h5" -q >/dev/null 2>&1
check "predict a held-out experiment simulated between walls" $?
"$bhpm" distill "$work/run" --samples 4 >/dev/null 2>&1
check "distill it" $?
"$bhpm" refinement-study --samples 2 --tolerances 1e-2,1e-3 --grid 32 -o "$work/run/refinement.h5" -q \
  >/dev/null 2>&1
check "a tiny refinement study" $?

"$bhpm" report "$work/run" --data "$work/data.h5" > "$work/out" 2>&1
check "report exits 0" $?
figures="datasets training root-inputs distill prediction-test-0 prediction-test-0-std refinement
         prediction-walls prediction-walls-boundary"
for figure in $figures; do
  [ "$(head -c 8 "$work/run/report/$figure.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
  check "$figure.png is a PNG" $?
  grep -q "src=\"$figure.png\"" "$work/run/report/index.html"
  check "index.html shows $figure.png" $?
  grep -q "^figure: .*/$figure.png$" "$work/out"
  check "report prints $figure.png" $?
done
grep -q "^report: $work/run/report/index.html$" "$work/out"
check "report prints the index path" $?
grep -q "<td>n/a</td>" "$work/run/report/index.html"
[ $? -ne 0 ]
check "the metrics table has no n/a on a complete run" $?
[ -z "$(find "$work" -name '*.tmp-*' -o -name '*.old-*')" ]
check "no temporary folder is left" $?

"$python" - "$work/run/report/metrics.json" <<'PY'
import json, math, sys
metrics = json.load(open(sys.argv[1]))
def numbers(value):
  if isinstance(value, dict):
      for item in value.values(): yield from numbers(item)
  elif isinstance(value, list):
      for item in value: yield from numbers(item)
  elif value is None:
      raise AssertionError("null in metrics.json")
  elif isinstance(value, (int, float)) and not isinstance(value, bool):
      yield value
values = list(numbers(metrics))
assert values and all(math.isfinite(v) for v in values), values
held_out = metrics["operator"]["held_out"]
assert 0 <= held_out["coverage"]["0.95"] <= 1 and held_out["rmse"] > 0
predictions = {p["file"]: p for p in metrics["predictions"]}
assert sorted(predictions) == ["prediction-test-0.h5", "prediction-walls.h5"], sorted(predictions)
for prediction in predictions.values():
  assert prediction["samples"] == 4 and prediction["rmse_over_rms_std"] > 0
PY
check "report/metrics.json parses and every number is finite" $?

# A second report replaces the first whole.
touch "$work/run/report/stale-file"
"$bhpm" report "$work/run" --data "$work/data.h5" -q > "$work/out" 2>&1
[ $? -eq 0 ] && [ ! -s "$work/out" ] && [ ! -e "$work/run/report/stale-file" ]
check "a second report replaces the first and -q prints nothing" $?

expect_refusal() {  # expect_refusal NAME PATTERN OUTPUT_DIR ARGS...
  local name="$1" pattern="$2" output="$3"
  shift 3
  "$bhpm" report "$@" -o "$output" > "$work/out" 2> "$work/err"
  [ $? -ne 0 ] && grep -q -- "$pattern" "$work/err" && [ ! -e "$output" ] &&
    [ -z "$(find "$work" -name '*.tmp-*')" ]
  check "$name" $?
}
expect_refusal "a missing run folder" "run folder '$work/absent' does not exist" "$work/refused" "$work/absent"
mkdir -p "$work/untrained"
expect_refusal "a folder without root.h5 or refinement.h5" \
  "root.h5 is missing (run \`bhpm train\` first; a folder without a trained model needs at least refinement.h5)" \
  "$work/refused" "$work/untrained"
mkdir -p "$work/study" && cp "$work/run/refinement.h5" "$work/study/"
"$bhpm" report "$work/study" -q > "$work/out" 2>&1 && [ -f "$work/study/report/refinement.png" ] &&
  grep -q "root-inputs.png: no" "$work/study/report/index.html"
check "a refinement-only folder (configs/heat-refinement.toml) gets its figure and lists the rest as omitted" $?
expect_refusal "no gnuplot" "gnuplot not found.*install gnuplot-nox" "$work/refused" \
  "$work/run" --gnuplot "$work/no-such-gnuplot"
expect_refusal "a dataset of the wrong format" "attribute 'format' is 'bhpm-ensemble', expected 'bhpm-dataset'" \
  "$work/refused" "$work/run" --data "$work/run/prediction-test-0.h5"
"$bhpm" report "$work/run" --gnuplot "$work/no-such-gnuplot" -q > /dev/null 2>&1
[ $? -ne 0 ] && [ -f "$work/run/report/index.html" ] && [ -z "$(find "$work" -name '*.tmp-*' -o -name '*.old-*')" ]
check "a failed report keeps the previous one" $?

echo "passed $passed, failed $failed"
[ "$failed" -eq 0 ]
