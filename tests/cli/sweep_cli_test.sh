#!/usr/bin/env bash
# bhpm sweep: a Fig. 2 study in miniature (n_st = 128, 256 on the heat equation, two
# repeats each, two runs at a time): every member trains and is scored, the table holds
# mean and spread of the held-out RMSE and MNLP per value, computed from the members'
# metrics.json, and drawn in sweep.png; rerunning resumes (every member up to date). Bad sweeps are refused before
# any member starts: an unknown key, a value that cannot work, the seed as the key.
source "$(dirname "$0")/common.sh"

source "$(dirname "$0")/heat_run.sh"
write_heat_config "$work/sweep.toml"
# One test experiment and short phases: every member trains in a second or two.
short=(--set seed=3 --set data.test_experiments=1 --set train_leaves.iterations=400
       --set train_root.iterations=50 --set train_joint.iterations=50)

"$bhpm" sweep "$work/sweep.toml" "${short[@]}" --vary data.n_st=128,256 --repeats 2 --jobs 2 -o "$work/sweep" \
  > "$work/out" 2>&1
check "a sweep of 2 values x 2 repeats exits 0" $?
cat "$work/out"
for f in sweep.json sweep-members.csv sweep-summary.csv sweep.txt sweep.png; do
  [ -f "$work/sweep/$f" ]
  check "the sweep writes $f" $?
done
for member in "data.n_st=128/repeat-0" "data.n_st=128/repeat-1" "data.n_st=256/repeat-0" "data.n_st=256/repeat-1"; do
  [ -f "$work/sweep/$member/metrics.json" ] && [ -f "$work/sweep/$member/run.log" ]
  check "member $member trained and was scored" $?
done

python3 - "$work/sweep" <<'PY'
import csv, json, math, statistics, sys
d = sys.argv[1]
members = list(csv.DictReader(open(f"{d}/sweep-members.csv")))
summary = {row["data.n_st"]: row for row in csv.DictReader(open(f"{d}/sweep-summary.csv"))}
assert len(members) == 4 and all(m["finished"] == "1" for m in members), members
assert {m["seed"] for m in members} == {"3", "4"}, "repeat r must use seed + r"
for value in ["128", "256"]:
    runs = [m for m in members if m["data.n_st"] == value]
    rmse = [json.load(open(f"{m['run_dir']}/metrics.json"))["rmse"] for m in runs]
    mnlp = [json.load(open(f"{m['run_dir']}/metrics.json"))["mean_nlpd"] for m in runs]
    row = summary[value]
    assert row["finished"] == "2" and row["repeats"] == "2"
    for name, values in [("rmse", rmse), ("mnlp", mnlp)]:
        assert math.isclose(float(row[f"{name}_mean"]), statistics.mean(values), rel_tol=1e-5), name
        assert math.isclose(float(row[f"{name}_sd"]), statistics.stdev(values), rel_tol=1e-5, abs_tol=1e-12), name
        assert math.isclose(float(row[f"{name}_min"]), min(values), rel_tol=1e-5), name
        assert all(math.isfinite(float(row[f"{name}_{s}"])) for s in ["mean", "sd", "min", "max"])
print("summary matches the members' metrics.json")
PY
check "the summary is the mean, sd and range of the members' held-out metrics" $?

"$bhpm" sweep "$work/sweep.toml" "${short[@]}" --vary data.n_st=128,256 --repeats 2 --jobs 2 -o "$work/sweep" \
  > "$work/out" 2>&1
check "rerunning the sweep exits 0" $?
[ "$(cat "$work/sweep"/*/repeat-*/run.log | grep -c ': up to date')" -eq 12 ]
check "rerunning the sweep resumes: every member's three stages are up to date" $?

refused() {  # refused NAME PATTERN ARGS...: exit 1, the message, no folder left
  local name="$1" pattern="$2"
  shift 2
  "$bhpm" sweep "$work/sweep.toml" "${short[@]}" "$@" -o "$work/bad" > "$work/out" 2>&1
  local code=$?
  [ "$code" -eq 1 ] && grep -q "$pattern" "$work/out" && [ ! -e "$work/bad" ]
  check "refused before any run: $name" $?
}
refused "an unknown sweep key" "sweep --vary data.n_sx: unknown configuration key" --vary data.n_sx=1,2
refused "a section that does not exist" "sweep --vary dta.n_st: unknown configuration key" --vary dta.n_st=1,2
refused "a value that cannot work" "data.n_st=100000: .*must be in \[1, " --vary data.n_st=128,100000
refused "the seed as the key" "repeats already vary the seed" --vary seed=1,2
refused "a malformed --vary" "expected section.key=v1,v2" --vary data.n_st

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
