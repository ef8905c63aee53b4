# Sourced by the end-to-end tests: simulate a configuration from configs/, train it on its
# (reduced) schedule, score the learned operator on the held-out experiments and on the
# training experiments' whole grids, print both tables, and check the figures against
# bounds given as "key<value" or "key>value" on metrics-held-out.json / metrics-train.json
# (keys: rmse, relative_rmse, median_nlpd, coverage_95, ...).
source "$(dirname "$0")/common.sh"
configs="$(cd "$(dirname "$0")/../../configs" && pwd)"

e2e_run() {  # e2e_run CONFIG_NAME [--set section.key=value ...]: the settings go to training
  local config="$configs/$1" name="$1"
  shift
  "$bhpm" simulate "$config" -o "$work/data.h5" -q > /dev/null
  check "simulate $name" $?
  "$bhpm" train "$config" --data "$work/data.h5" -o "$work/run" -q "$@" > "$work/train.out" 2>&1
  check "train $name" $?
  cat "$work/train.out"
  echo "-- held-out experiments --"
  "$bhpm" evaluate "$work/run" --data "$work/data.h5" -o "$work/held-out.json"
  check "evaluate on the held-out experiments" $?
  echo "-- training experiments' whole grids --"
  "$bhpm" evaluate "$work/run" --data "$work/data.h5" --set-name train -o "$work/train.json"
  check "evaluate on the training grids" $?
}

e2e_pipeline() {  # e2e_pipeline CONFIG_NAME [--set ...]: `bhpm run` (the README's main job) into $work/run
  local name="$1"
  shift
  "$bhpm" run "$configs/$name" -o "$work/run" -q "$@" > "$work/run.out" 2>&1
  check "bhpm run $name" $?
  cat "$work/run.out"
  cp "$work/run/metrics.json" "$work/held-out.json" && cp "$work/run/metrics-train.json" "$work/train.json"
  check "the run scored the held-out experiments and the training grids" $?
}

e2e_prediction_file() {  # e2e_prediction_file FILE: its comparison with the truth as $work/prediction.json
  local name
  name="$(basename "$1")"
  "$python" - "$1" "$work/prediction.json" <<'PY'
import json, sys
import h5py
with h5py.File(sys.argv[1]) as f:
    truth = f["truth"].attrs
    json.dump({"relative_l2": float(truth["relative_l2"]), "band_95": float(truth["coverage95"]),
               "diverged": int(f.attrs["diverged"])}, open(sys.argv[2], "w"))
PY
  check "read the comparison stored in $name" $?
}

e2e_expect() {  # e2e_expect held-out|train|prediction "key<bound" ...
  local which="$1"
  shift
  for rule in "$@"; do
    python3 - "$work/$which.json" "$rule" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))
m.update({"coverage_" + k.split(".")[1].ljust(2, "0"): v for k, v in m.get("coverage", {}).items()})
key, op, bound = re.fullmatch(r"(\w+)([<>])(.+)", sys.argv[2]).groups()
value = m[key]
ok = value < float(bound) if op == "<" else value > float(bound)
print(("ok" if ok else "OUT OF BOUNDS") + f": {key} = {value:.4g} ({op} {bound})")
sys.exit(0 if ok else 1)
PY
    check "$which: $rule" $?
  done
}
