#!/usr/bin/env bash
# A system's own measurements from the outside (docs/importing-data.md, "Several fields and
# two dimensions"): NLS simulated small, its measurements written as a CSV of two fields by
# experiment (ragged: 2048 and 1800 points, a third held out) and imported (a version 4
# file); the NLS configuration trains on them, its roots score on the simulation's own grids
# as on the simulated route, and without a truth on the held-out measurements as they do on
# its grids; the same fields measured at different points (an empty cell: not measured
# there) train each field's leaf output on its own points; a configuration of unknown
# equations runs every stage on them (distill without a truth, drawn per field) and
# predicts from expressions; measurements on a plane (a y column) train 2-D leaves on each experiment's
# window; simulating unknown equations, starting a prediction from measurements, a one-field
# step on them, other fields, a bad field name, sigma, a row or a field without
# measurements and a repeated (x, y, t) are refused by name.
#
# Usage: bash import_system_test.sh PATH_TO_BHPM
source "$(dirname "$0")/common.sh"

learning=('[leaves]' 'hidden_layers = 3' 'width = 32' 'first_omega = 10' '[train_leaves]'
  'iterations = 3000' 'learning_rate = 1e-2' 'final_learning_rate = 1e-5' 'batch_size = 1024'
  '[train_root]' 'iterations = 200' 'points = 256' 'condition_points = 1024' '[predict]'
  'samples = 2' 'features = 256')
printf '%s\n' 'seed = 3' '[system]' 'name = "nls"' '[domain]' 't_end = 2' '[solver]' \
  'points = 128' 'output_dt = 0.1' '[initial_condition]' 'amplitude = 0.5' 'length_scale = 2' \
  '[data]' 'train_experiments = 2' 'test_experiments = 1' 'n_st = 2048' "${learning[@]}" \
  >"$work/nls.toml"
"$bhpm" simulate "$work/nls.toml" -o "$work/nls.h5" -q >/dev/null
check "simulate NLS" $?
"$python" - "$work/nls.h5" "$work/nls.csv" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
with open(sys.argv[2], "w") as out:
    out.write("run,x,t,u,v,sigma\n")  # sigma 0: refused if it were read
    for name, set_name, e, count in [("first", "train", 0, 2048), ("second", "train", 1, 1800),
                                     ("held", "test", 0, 2048)]:
        m = f[set_name + "/measurements"]
        for j in range(count):
            out.write("%s,%.17g,%.17g,%.17g,%.17g,0\n" % (name, m["x"][e, j], m["t"][e, j],
                                                          m["u"][e, j], m["v"][e, j]))
PY
"$bhpm" import "$work/nls.csv" --fields u,v --column experiment=run --hold-out 1 \
  -o "$work/imported.h5" >"$work/import.out" 2>&1
status=$?
grep -q "wrote .*imported.h5: 5896 points in 3 experiments (train 2, test 1)" "$work/import.out" ||
  status=1
check "import two fields, a sigma column left unread ($(tail -c 200 "$work/import.out"))" $status
"$python" - "$work/imported.h5" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
assert f.attrs["format_version"] == 4 and f.attrs["fields"] == "u,v", dict(f.attrs)
assert f.attrs["dimensions"] == 1 and f["test"].attrs["experiments"] == 1
e = f["train/1"]
assert e.attrs["name"] == "second" and e["u"].shape == e["v"].shape == e["t"].shape == (1800,)
assert e.attrs["x_min"] == e["x"][:].min() and e.attrs["t_max"] == e["t"][:].max()
PY
check "the version 4 file: fields, dimensions, each experiment's points and window" $?

"$bhpm" train "$work/nls.toml" --data "$work/imported.h5" -o "$work/run" -q >"$work/train.out" \
  2>&1
status=$?
grep -q "trained 2 leaves of 2 fields on 1800 points each" "$work/train.out" || status=1
check "train NLS on the imported measurements ($(tail -c 300 "$work/train.out"))" $status
"$bhpm" evaluate "$work/run" --data "$work/nls.h5" --set-name train -o "$work/fit.json" >/dev/null
check "evaluate the imported route's roots on the simulation's grids" $?
"$python" - "$work/fit.json" <<'PY'
import json, sys
for field, m in json.load(open(sys.argv[1]))["fields"].items():
    # As on the simulated route (tests/cli/learn_system_test.sh): well under the zero
    # operator's 100 %.
    assert m["relative_rmse"] < 0.3, (field, m["relative_rmse"])
PY
check "each root's relative RMSE on the training grids under 0.3" $?
"$bhpm" evaluate "$work/run" --data "$work/imported.h5" -q -o "$work/leaves.json" >/dev/null &&
  "$bhpm" evaluate "$work/run" --data "$work/nls.h5" -o "$work/truth.json" >/dev/null
status=$?
"$python" - "$work/leaves.json" "$work/truth.json" <<'PY' || status=1
import json, sys
leaves, truth = (json.load(open(p)) for p in sys.argv[1:])
assert "no truth" in leaves["target"] and "grids" in truth["target"], leaves["target"]
for field, m in leaves["leaves_kept_back"].items():
    # The new leaves on the fifth kept back from their fit: relative RMSE 0.0055 (u) and
    # 0.0044 (v) measured (noise-free data).
    assert m["points"] == 409 and m["relative_rmse"] < 0.05, (field, m)
for field in ("u", "v"):
    # The held-out experiment scored against new leaves of its measurements and against its
    # grids: RMSE 0.160 / 0.157 (u) and 0.0470 / 0.0452 (v) measured (this small model is
    # far off on it: both say so alike).
    a, b = leaves["fields"][field]["rmse"], truth["fields"][field]["rmse"]
    assert 0.8 < a / b < 1.25, (field, a, b)
PY
check "evaluate without a truth on the held-out measurements tracks the grids' score" $status

# The same experiments with u and v measured at different points: each row one field.
"$python" - "$work/nls.csv" "$work/apart.csv" <<'PY'
import sys
rows = open(sys.argv[1]).read().splitlines()
with open(sys.argv[2], "w") as out:
    out.write("run,x,t,u,v\n")
    for j, row in enumerate(rows[1:]):
        run, x, t, u, v, _ = row.split(",")
        out.write(",".join([run, x, t, u, ""] if j % 2 else [run, x, t, "", v]) + "\n")
PY
"$bhpm" import "$work/apart.csv" --fields u,v --column experiment=run --hold-out 1 \
  -o "$work/apart.h5" -q >/dev/null &&
  "$bhpm" train "$work/nls.toml" --data "$work/apart.h5" -o "$work/apart" -q >/dev/null 2>&1 &&
  "$bhpm" evaluate "$work/apart" --data "$work/nls.h5" --set-name train -o "$work/apart.json" \
    >/dev/null
status=$?
"$python" - "$work/apart.h5" "$work/apart.json" <<'PY' || status=1
import json, sys, h5py, numpy as np
e = h5py.File(sys.argv[1], "r")["train/0"]
u, v = e["u"][:], e["v"][:]
assert np.isnan(u).sum() == np.isfinite(u).sum() == np.isnan(v).sum() == 1024
assert not (np.isnan(u) & np.isnan(v)).any()
for field, m in json.load(open(sys.argv[2]))["fields"].items():
    # Half the measurements of each field: 0.030 (u) and 0.041 (v) measured, against
    # 0.038 and 0.039 with both fields at every point.
    assert m["relative_rmse"] < 0.3, (field, m["relative_rmse"])
PY
check "fields measured at different points: NaN where not measured, the leaves fitted to \
each field's own points, each root under 0.3 on the training grids" $status

printf '%s\n' 'seed = 3' '[system]' 'name = "unknown"' 'fields = ["u", "v"]' '[domain]' \
  'x_min = -10' 'x_max = 10' 't_end = 2' '[solver]' 'points = 128' 'output_dt = 0.1' \
  "${learning[@]}" '[run]' 'predict_experiments = []' >"$work/unknown.toml"
short=(--set train_leaves.iterations=300 --set "run.data=$work/imported.h5")
"$bhpm" run "$work/unknown.toml" -o "$work/urun" -q "${short[@]}" >"$work/urun.out" \
  2>"$work/urun.err"
status=$?
grep -q "evaluate: held-out experiments against new leaves" "$work/urun.out" || status=1
for file in data.h5 system.ckpt system-calibration.json metrics.json distill.json \
  report/index.html report/distill-u.png report/distill-v.png; do
  [ -f "$work/urun/$file" ] || status=1
done
check "run on unknown equations: every stage, evaluate without a truth \
($(tail -c 300 "$work/urun.err"))" $status
"$python" - "$work/urun/distill.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["system"] == "unknown equations of u, v in 1-D", d["system"]
for field in d["fields"].values():
    assert field["truth_explained"] is None, field
PY
check "distill.json: the system's equations unknown, no truth" $?
"$bhpm" predict "$work/urun" --ic "0.05/cosh(x); 0" -o "$work/sech.h5" >"$work/sech.out" 2>&1
status=$?
"$python" - "$work/sech.h5" <<'PY' || status=1
import sys, h5py, numpy as np
p = h5py.File(sys.argv[1], "r")
assert p["u/mean"].shape == (21, 128) and abs(p["t"][-1] - 2.0) < 1e-12  # [domain], [solver]
assert np.isfinite(p["u/mean"][:]).all() and "truth" not in p["u"]
PY
check "predict from expressions on the configuration's box ($(tail -c 200 "$work/sech.out"))" \
  $status

"$python" - "$work/plane.csv" "$work/repeat.csv" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(5)
with open(sys.argv[1], "w") as out:
    out.write("experiment,x,y,t,c\n")
    for e, (x0, y0) in enumerate([(0.0, 0.0), (1.0, -2.0)]):
        for x, y, t in zip(x0 + 4 * rng.random(600), y0 + 3 * rng.random(600), rng.random(600)):
            out.write("%d,%.17g,%.17g,%.17g,%.17g\n" % (e, x, y, t, np.exp(-t) * np.sin(x + y)))
with open(sys.argv[2], "w") as out:
    out.write("experiment,x,y,t,c\n0,0,0,0,1\n0,1,0,0,2\n0,0,1,1,3\n0,1,0,0,4\n")
PY
"$bhpm" import "$work/plane.csv" --fields c --column y=y -o "$work/plane.h5" -q >/dev/null
check "import a field measured on a plane" $?
printf '%s\n' 'seed = 1' '[system]' 'name = "unknown"' 'dimensions = 2' 'fields = ["c"]' \
  '[leaves]' 'hidden_layers = 2' 'width = 16' '[train_leaves]' 'iterations = 200' \
  '[train_root]' 'iterations = 20' 'points = 64' 'condition_points = 128' >"$work/plane.toml"
"$bhpm" train "$work/plane.toml" --data "$work/plane.h5" -o "$work/plane" -q >"$work/plane.out" \
  2>&1
status=$?
grep -q "trained 2 leaves of 1 fields on 600 points each" "$work/plane.out" || status=1
check "train 2-D leaves on the plane's experiments ($(tail -c 300 "$work/plane.out"))" $status

refused_command simulate_unknown "system.name: a system of unknown equations has nothing to \
simulate" "$bhpm" simulate "$work/unknown.toml" -o "$work/never.h5"
refused_command run_unknown "system.name: a system of unknown equations" "$bhpm" run \
  "$work/unknown.toml" -o "$work/never"
refused_command sweep_unknown "system.name: a system of unknown equations" "$bhpm" sweep \
  "$work/unknown.toml" --vary root.order=1,2 -o "$work/never"
refused_command predict_from_measurements "measurements only (dataset format_version 4" \
  "$bhpm" predict "$work/urun" --ic-from "$work/imported.h5:train/0"
refused_command run_predict_experiment "run.predict_experiments: " "$bhpm" run \
  "$work/unknown.toml" -o "$work/urun" "${short[@]}" --set 'run.predict_experiments=[0]'
refused_command other_fields "holds the fields u,v in 1-D, but" "$bhpm" train \
  "$work/plane.toml" --data "$work/imported.h5" -o "$work/never"
printf '%s\n' '[equation]' 'name = "burgers"' >"$work/burgers.toml"
refused_command one_field_step "(dataset format_version 4): this step reads one field" \
  "$bhpm" train "$work/burgers.toml" --data "$work/imported.h5" -o "$work/never"
refused_command field_name "--fields: field name 'x'" "$bhpm" import "$work/nls.csv" \
  --fields u,x -o "$work/never.h5"
refused_command system_sigma "imported without sigma" "$bhpm" import "$work/nls.csv" \
  --fields u,v --column sigma=u -o "$work/never.h5"
printf '%s\n' 'experiment,x,t,u,v' '0,0,0,1,' '0,1,0,,2' '0,0,1,3,' '0,1,1,,' >"$work/none.csv"
refused_command row_without_field "none.csv: line 5: no field is measured there" "$bhpm" \
  import "$work/none.csv" --fields u,v -o "$work/never.h5"
printf '%s\n' 'experiment,x,t,u,v' '0,0,0,1,' '0,1,0,,2' '0,0,1,3,' >"$work/once.csv"
refused_command field_once "a field is measured at fewer than 2 of its points" "$bhpm" \
  import "$work/once.csv" --fields u,v -o "$work/never.h5"
refused_command repeated_point "line 3 and line 5 measure the same point (x, y, t)" "$bhpm" \
  import "$work/repeat.csv" --fields c --column y=y -o "$work/never.h5"
[ ! -e "$work/never" ] && [ ! -e "$work/never.h5" ]
check "no file or folder is made by a refused command" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
