#!/usr/bin/env bash
# A field system's commands from the outside (docs/systems.md, "Learning a system" to
# "The whole job"): NLS as two real fields, simulated small by `bhpm run`, trained on two
# experiments (leaves and one root per field), its bands calibrated per field on the
# experiments left out in turn, scored per field on the solution grids,
# distilled (the true coefficients fitted exactly where the truth is known); then predicted
# from a training experiment's initial fields (scored against its solution: a model this
# small diverges on the held-out one) and from expressions, and a second `bhpm run` finds
# its stages done, predicts sampled initial fields and draws the report; the stored model
# reads back to the same scores, and without a truth (--truth-free) on new leaves; a sweep
# of the system pools its members' scores over the fields; a 2-D system runs every stage
# (its prediction drawn at snapshots over (x, y)) and predicts from a CSV of samples on a
# plane; a dataset of another system, a one-field dataset, a one-field key, another
# configuration in the run folder and options a system does not take are refused by name.
#
# Usage: bash learn_system_test.sh PATH_TO_BHPM
source "$(dirname "$0")/common.sh"

printf '%s\n' 'seed = 3' '[system]' 'name = "nls"' '[domain]' 't_end = 2' '[solver]' \
  'points = 128' 'output_dt = 0.1' '[initial_condition]' 'amplitude = 0.5' 'length_scale = 2' \
  '[data]' 'train_experiments = 2' 'test_experiments = 1' 'n_st = 2048' \
  '[leaves]' 'hidden_layers = 3' 'width = 32' 'first_omega = 10' \
  '[train_leaves]' 'iterations = 3000' 'learning_rate = 1e-2' 'final_learning_rate = 1e-5' \
  'batch_size = 1024' '[train_root]' 'iterations = 200' 'points = 256' 'condition_points = 1024' \
  '[predict]' 'samples = 2' 'features = 256' >"$work/nls.toml"
"$bhpm" run "$work/nls.toml" -o "$work/run" -q \
  --set run.stages=simulate,train,calibrate,evaluate,distill >"$work/run.out" 2>"$work/run.err"
status=$?
check "run simulates, trains, calibrates, evaluates and distils a system \
($(tail -c 300 "$work/run.err"))" $status
grep -q "trained 2 leaves of 2 fields on 2048 points each" "$work/run.out"
status=$?
for file in data.h5 system.ckpt system-calibration.json metrics.json distill.json run.toml; do
  [ -f "$work/run/$file" ] || status=1
done
check "train says what it trained; the run folder holds each stage's output" $status
cp "$work/run/data.h5" "$work/nls.h5"
"$python" - "$work/run/system-calibration.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
assert c["format"] == "bhpm-system-calibration" and set(c["fields"]) == {"u", "v"}, c
for field in c["fields"].values():
    assert field["inflation"] > 0 and len(field["experiment_inflation"]) == 2, field
PY
check "system-calibration.json: kappa per field from the two experiments left out in turn" $?

"$bhpm" evaluate "$work/run" --data "$work/nls.h5" --set-name train -o "$work/fit.json" \
  >"$work/fit.out"
check "evaluate on the training set's grids" $?
"$bhpm" evaluate "$work/run" --data "$work/run/data.h5" -o "$work/again.json" >/dev/null &&
  cmp -s "$work/run/metrics.json" "$work/again.json"
check "evaluate on the test set again: the stored model scores as the run's evaluate did" $?
"$python" - "$work/fit.json" "$work/run/metrics.json" <<'PY'
import json, sys
fit, held_out = (json.load(open(p)) for p in sys.argv[1:])
assert set(fit["fields"]) == set(held_out["fields"]) == {"u", "v"}, fit["fields"].keys()
assert held_out["fields"]["u"]["points"] == 21 * 128, held_out["fields"]["u"]["points"]
for field, m in fit["fields"].items():
    # The roots of u_t = -0.5 v_xx - |psi|^2 v and v_t = 0.5 u_xx + |psi|^2 u at the
    # training experiments' exact partials: 5 % and 11 % here, zero operator 100 %.
    assert m["relative_rmse"] < 0.3, (field, m["relative_rmse"])
    assert m["coverage"]["0.95"] > 0.8, (field, m["coverage"])
PY
check "each field's root knows its operator on the training grids (relative RMSE < 0.3)" $?

"$python" - "$work/run/distill.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "bhpm-system-distill" and set(d["fields"]) == {"u", "v"}
truth = {f: {t["name"]: t["truth"] for t in d["fields"][f]["terms"]} for f in ("u", "v")}
# The true operator is in the library: its least-squares coefficients are the equation's.
for field, term, value in (("u", "v_xx", -0.5), ("u", "u^2*v", -1), ("u", "v^3", -1),
                           ("v", "u_xx", 0.5), ("v", "u^3", 1), ("v", "u*v^2", 1)):
    assert abs(truth[field][term] - value) < 1e-6, (field, term, truth[field][term])
others = max(abs(c) for f in truth for n, c in truth[f].items()
             if n not in ("v_xx", "u^2*v", "v^3", "u_xx", "u^3", "u*v^2"))
assert others < 1e-6, others
assert d["fields"]["v"]["equation"].startswith("v_t ="), d["fields"]["v"]["equation"]
for field, term, value in (("u", "v_xx", -0.5), ("v", "u*v^2", 1)):
    weak = d["fields"][field]["weak_form"]
    assert weak["equation"].startswith(field + "_t ="), weak["equation"]
    assert abs({t["name"]: t["truth"] for t in weak["terms"]}[term] - value) < 1e-6, (field, term)
    names = {t["name"]: t["truth"] for t in weak["terms"]}  # transport terms, not u*v_x
    assert abs(names["u*u_x"]) < 1e-6 and "u*v_x" not in names, sorted(names)
PY
check "distill.json: a field each, the true coefficients of NLS fitted exactly, v_t named, \
each field's weak form with the truth carried over by name" $?

"$bhpm" predict "$work/run" --ic-from "$work/nls.h5:train/0" --samples 3 --set predict.features=256 \
  -o "$work/prediction.h5" >"$work/predict.out" 2>"$work/predict.err"
status=$?
check "predict a training experiment of a system ($(head -c 400 "$work/predict.out") $(head -c 400 "$work/predict.err"))" $status
"$python" - "$work/prediction.h5" "$work/nls.h5" <<'PY'
import sys, h5py, numpy as np
p, data = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
assert p.attrs["format"] == "bhpm-system-prediction" and p.attrs["fields"] == "u,v", dict(p.attrs)
assert p.attrs["members"] + p.attrs["dropped"].count("member ") == 3, dict(p.attrs)
assert "predict" in p.attrs["config"] and "samples = 3" in p.attrs["config"], p.attrs["config"]
assert p.attrs["calibration"].startswith("kappa u "), p.attrs["calibration"]  # the run's
assert np.allclose(p["t"][:], data["train/t"][:]) and np.allclose(p["x"][:], data["train/x"][:])
assert len(p["added_diffusion"]) == len(p["member_index"]) == p.attrs["members"]
for field in ("u", "v"):
    g = p[field]
    truth = data["train"][field][0]
    assert g["mean"].shape == truth.shape == (21, 128), (g["mean"].shape, truth.shape)
    assert np.array_equal(g["truth"][:], truth)
    assert np.allclose(g["mean_operator"][0], truth[0])  # every solve starts at u0
    # The band mean -/+ t_2(0.975) sqrt(1 + 1/3) sd of 3 members.
    assert np.allclose(g["upper"][:] - g["mean"][:], 4.302653 * np.sqrt(4 / 3) * g["sd"][:])
    inside = np.mean((g["lower"][:] <= truth) & (truth <= g["upper"][:]))
    assert abs(inside - g.attrs["coverage"]) < 1e-12, (inside, g.attrs["coverage"])
    error = np.linalg.norm(g["mean_operator"][:] - truth) / np.linalg.norm(truth)
    assert abs(error - g.attrs["mean_operator_error"]) < 1e-9
    # Two experiments trained this small: measured 0.077 (u) and 0.050 (v).
    assert error < 0.3, (field, error)
PY
check "prediction.h5: each field's mean solve, band and truth on the experiment's grid, its scores \
the formulas of the band and the truth" $?

"$bhpm" predict "$work/run" --ic "0.05/cosh(x); 0" --samples 2 -o "$work/sech.h5" \
  >"$work/sech.out" 2>&1
status=$?
check "predict initial fields given as expressions ($(tail -c 300 "$work/sech.out"))" $status
"$python" - "$work/sech.h5" <<'PY'
import sys, h5py, numpy as np
p = h5py.File(sys.argv[1], "r")
x = p["x"][:]
assert p.attrs["initial_condition"] == "0.05/cosh(x); 0" and "truth" not in p["u"]
assert np.allclose(p["u/mean_operator"][0], 0.05 / np.cosh(x)) and not p["v/mean_operator"][0].any()
assert p["u/mean"].shape == (21, 128) and abs(p["t"][-1] - 2.0) < 1e-12  # the data's horizon
PY
check "the expressions' prediction: u0 on the data's grid and horizon, no truth" $?

# The expressions' initial fields as samples at the grid's 128 points (the interpolation is
# one field's, tested there), columns in another order than the fields', predicted by a
# second run, which finds the other stages done and draws every prediction in the folder.
"$python" -c 'import numpy as np
x = np.linspace(-10, 10, 128, endpoint=False)
print("x,v,u"); [print(f"{a!r},0,{0.05 / np.cosh(a)!r}") for a in x]' >"$work/u0.csv"
head -1 "$work/u0.csv" | cut -d, -f1,3 >"$work/u-only.csv"
tail -n +2 "$work/u0.csv" | cut -d, -f1,3 >>"$work/u-only.csv"
cp "$work/prediction.h5" "$work/run/" && cp "$work/sech.h5" "$work/run/prediction-sech.h5" &&
  "$bhpm" run "$work/nls.toml" -o "$work/run" -q --set 'run.predict_experiments=[]' \
    --set "run.predict_ic_files=[\"$work/u0.csv\"]" >"$work/run2.out" 2>&1
status=$?
check "a second run predicts sampled initial fields and reports ($(tail -c 300 "$work/run2.out"))" \
  $status
for stage in simulate train calibrate evaluate distill; do
  grep -q "== $stage: up to date" "$work/run2.out" || status=1
done
check "the second run finds simulate, train, calibrate, evaluate and distill up to date" $status
"$python" - "$work/run/prediction-u0.h5" <<'PY'
import sys, h5py, numpy as np
p = h5py.File(sys.argv[1], "r")
x, u0 = p["x"][:], p["u/mean_operator"][0]
assert p.attrs["initial_condition"].startswith("interpolated from "), p.attrs["initial_condition"]
assert np.allclose(u0, 0.05 / np.cosh(x), rtol=0, atol=1e-15) and not p["v/mean_operator"][0].any()
assert p.attrs["members"] + p.attrs["dropped"].count("member ") == 2  # [predict] samples
PY
check "the run's prediction-u0.h5: the sampled initial fields (columns x, v, u) on the grid" $?
for figure in prediction-u prediction-v prediction-sech-u prediction-sech-v prediction-u0-u; do
  head -c 8 "$work/run/report/$figure.png" | grep -q PNG &&
    grep -q "$figure.png" "$work/run/report/index.html" || status=1
done
for field in u v; do
  grep -qF "held-out experiments, ${field}_t (metrics.json)" "$work/run/report/index.html" ||
    status=1
done
check "the report draws each prediction's fields, lists them in index.html and has each \
field's operator scores" $status

# A sweep of the system: each member a run (simulate, train, evaluate), its scores pooled
# over the fields.
"$bhpm" sweep "$work/nls.toml" --vary data.n_st=512,1024 -o "$work/sweep" -q \
  --set train_leaves.iterations=300 --set train_root.iterations=50 >"$work/sweep.out" 2>&1
status=$?
"$python" - "$work/sweep/sweep-members.csv" "$work/sweep/data.n_st=1024/repeat-0/metrics.json" \
  <<'PY' || status=1
import csv, json, math, sys
members = list(csv.DictReader(open(sys.argv[1])))
assert [m["data.n_st"] for m in members] == ["512", "1024"] and all(m["finished"] == "1" for m in members)
fields = json.load(open(sys.argv[2]))["fields"]
pooled = math.sqrt((fields["u"]["rmse"] ** 2 + fields["v"]["rmse"] ** 2) / 2)
assert abs(float(members[1]["rmse"]) - pooled) < 1e-5 * pooled, (members[1]["rmse"], pooled)  # 6 digits
PY
check "sweep a system: a run per value, its RMSE pooled over u and v ($(tail -c 200 \
"$work/sweep.out"))" $status

# A 2-D system through every stage: advection-diffusion on a 16 x 16 box, trained on two
# experiments, its held-out experiment predicted by a 2-D solve and drawn at snapshots.
printf '%s\n' 'seed = 5' '[system]' 'name = "advection_diffusion_2d"' '[domain]' 't_end = 1' \
  '[solver]' 'points = 16' 'output_dt = 0.1' '[initial_condition]' 'amplitude = 0.5' \
  'length_scale = 3' '[data]' 'train_experiments = 2' 'test_experiments = 1' 'n_st = 2048' \
  '[leaves]' 'hidden_layers = 3' 'width = 32' '[train_leaves]' 'iterations = 2000' \
  'learning_rate = 1e-2' 'final_learning_rate = 1e-5' 'batch_size = 1024' '[train_root]' \
  'iterations = 200' 'points = 256' 'condition_points = 1024' '[predict]' 'samples = 2' \
  'features = 256' >"$work/plane.toml"
"$bhpm" run "$work/plane.toml" -o "$work/plane" -q >"$work/plane.out" 2>&1
status=$?
check "a 2-D system's run, every stage ($(tail -c 300 "$work/plane.out"))" $status
"$python" - "$work/plane/prediction-test-0.h5" "$work/plane/report/index.html" <<'PY'
import sys, h5py, numpy as np
p = h5py.File(sys.argv[1], "r")
assert p.attrs["dimensions"] == 2 and p.attrs["fields"] == "u", dict(p.attrs)
assert p["u/mean"].shape == p["u/truth"].shape == (11, 16, 16), p["u/mean"].shape
truth = p["u/truth"][:]
error = np.linalg.norm(p["u/mean_operator"][:] - truth) / np.linalg.norm(truth)
# Measured 0.0126: the roots of u_t = 0.1 lap u - u_x - 0.5 u_y learned from two experiments.
assert error < 0.05 and abs(error - p["u"].attrs["mean_operator_error"]) < 1e-9, error
assert "prediction-test-0-u.png" in open(sys.argv[2]).read()
PY
status=$?
head -c 8 "$work/plane/report/prediction-test-0-u.png" | grep -q PNG || status=1
check "the 2-D prediction: [T, n_y, n_x] fields within 5 % of the truth, drawn at snapshots" $status
"$python" - "$work/plane/prediction-test-0.h5" "$work/plane-u0.csv" <<'PY'
import sys, h5py
p = h5py.File(sys.argv[1], "r")
with open(sys.argv[2], "w") as out:  # the held-out u0 as samples at the grid points
    out.write("u,y,x\n")
    for r, y in enumerate(p["y"][:]):
        for c, x in enumerate(p["x"][:]):
            out.write("%.17g,%.17g,%.17g\n" % (p["u/truth"][0, r, c], y, x))
PY
"$bhpm" predict "$work/plane" --ic-file "$work/plane-u0.csv" -o "$work/plane-file.h5" \
  >"$work/plane-file.out" 2>&1
status=$?
"$python" - "$work/plane/prediction-test-0.h5" "$work/plane-file.h5" <<'PY' || status=1
import sys, h5py, numpy as np
stored, sampled = (h5py.File(path, "r")["u/mean_operator"][:] for path in sys.argv[1:])
assert stored.shape == sampled.shape and np.abs(stored - sampled).max() < 1e-12
PY
check "2-D initial fields from a CSV of samples on the grid: the stored experiment's means' \
solve ($(tail -c 200 "$work/plane-file.out"))" $status

# The plane's equation in weak form (the run's distill stage) predicts the held-out
# experiment as the roots do, its members the weak form's coefficient samples.
"$bhpm" predict "$work/plane" --ic-from "$work/plane/data.h5:test/0" --operator weak-form \
  -o "$work/plane-weak.h5" >"$work/plane-weak.out" 2>&1
status=$?
"$python" - "$work/plane-weak.h5" "$work/plane/distill.json" <<'PY' || status=1
import sys, h5py, json, numpy as np
p = h5py.File(sys.argv[1], "r")
weak = json.load(open(sys.argv[2]))["fields"]["u"]["weak_form"]
terms = {t["name"]: t["median"] for t in weak["terms"] if t["inclusion"] > 0.5}
truth = p["u/truth"][:]
error = np.linalg.norm(p["u/mean_operator"][:] - truth) / np.linalg.norm(truth)
assert p.attrs["operator"] == "weak-form" and p.attrs["calibration"].startswith("none"), dict(p.attrs)
assert error < 0.05 and p.attrs["members"] == 2, (error, terms)
PY
check "a plane's weak-form equation predicts the held-out experiment within 5 % \
($(tail -c 300 "$work/plane-weak.out"))" $status
"$bhpm" predict "$work/plane" --ic-from "$work/plane/data.h5:test/0" --operator distilled \
  -o "$work/plane-pointwise.h5" >"$work/plane-pointwise.out" 2>&1
status=$?
"$python" - "$work/plane-pointwise.h5" <<'PY' || status=1
import sys, h5py, numpy as np
p = h5py.File(sys.argv[1], "r")
# This small plane's pointwise equation is poor (its means' solve measured 8.8 % off, its
# linear part empty), so only the route is checked: the members solved its samples.
assert p.attrs["operator"] == "distilled" and p.attrs["members"] == 2, dict(p.attrs)
assert np.isfinite(p["u/mean"][:]).all() and "u_t = " in p.attrs["linear_part"]
PY
check "the plane's pointwise equation is solved under --operator distilled \
($(tail -c 300 "$work/plane-pointwise.out"))" $status
refused_command too_few_coefficient_samples "coefficient samples, predict.samples asks for 1000" \
  "$bhpm" predict "$work/plane" --ic-from "$work/plane/data.h5:test/0" --operator weak-form \
  --samples 1000 -o "$work/plane-many.h5"
cp -r "$work/plane" "$work/plane-other" && cp "$work/run/distill.json" "$work/plane-other/"
refused_command other_distillation "holds 2 fields' equations; the run has 1" "$bhpm" predict \
  "$work/plane-other" --ic-from "$work/plane/data.h5:test/0" --operator weak-form \
  -o "$work/plane-other.h5"

refused_command other_system "but $work/nls.toml describes" "$bhpm" train "$work/nls.toml" \
  --data "$work/nls.h5" -o "$work/other" -q --set system.name=lambda_omega
refused_command one_field_key "root.inducing_points: unknown key" "$bhpm" train "$work/nls.toml" \
  --data "$work/nls.h5" -o "$work/other" -q --set root.inducing_points=8
refused_command too_many_points "holds 2 experiments of 2048 measurements each" "$bhpm" train \
  "$work/nls.toml" --data "$work/nls.h5" -o "$work/other" -q --points 5000
refused_command distill_other_setting "takes [distill] settings only" "$bhpm" distill "$work/run" \
  --set root.order=1
refused_command calibrate_other_setting "takes [predict] settings only" "$bhpm" calibrate "$work/run" \
  --set root.order=1
refused_command run_other_configuration "system.ckpt was made by another configuration" "$bhpm" run \
  "$work/nls.toml" -o "$work/run" --set train_root.iterations=100
refused_command run_missing_experiment "experiment 1 is not among the 1 held-out experiments" \
  "$bhpm" run "$work/nls.toml" -o "$work/run" --set 'run.predict_experiments=[1]'
refused_command run_refinement_stage "run.stages: each stage must be one of" "$bhpm" run \
  "$work/nls.toml" -o "$work/run" --set run.stages=refinement
refused_command predict_window "--window-from is for one field" "$bhpm" predict "$work/run" \
  --window-from 0
refused_command predict_file_column "line 1: no column 'v'" "$bhpm" predict "$work/run" \
  --ic-file "$work/u-only.csv"
refused_command predict_expressions "--ic" "$bhpm" predict "$work/run" --ic "sin(x)"
refused_command predict_other_setting "takes [predict] settings only" "$bhpm" predict "$work/run" \
  --ic-from "$work/nls.h5:0" --set solver.dt=0.1
refused_command predict_missing "holds 1 experiments" "$bhpm" predict "$work/run" \
  --ic-from "$work/nls.h5:test/3"
"$bhpm" evaluate "$work/run" --data "$work/nls.h5" --truth-free -q -o "$work/free.json" \
  >/dev/null && grep -q '"target": "new leaves' "$work/free.json"
check "evaluate --truth-free on a simulated system: new leaves' rows, not the grids" $?
printf '%s\n' '[equation]' 'name = "burgers"' '[data]' 'train_experiments = 1' \
  'test_experiments = 1' 'n_st = 64' '[solver]' 'modes = 32' >"$work/burgers.toml"
"$bhpm" simulate "$work/burgers.toml" -o "$work/burgers.h5" -q >/dev/null
refused_command one_field_data "not a dataset of a field system" "$bhpm" evaluate "$work/run" \
  --data "$work/burgers.h5"
[ ! -e "$work/other" ]
check "no run folder is made by a refused train" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
