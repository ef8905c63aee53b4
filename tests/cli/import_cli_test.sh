#!/usr/bin/env bash
# bhpm import: the same scattered measurements from CSV, NumPy .npz (stored and deflated,
# text and integer experiment ids) and HDF5 arrays give the same version 2 dataset; the
# hold-out split; a short training on the imported file; and one refusal per rule, each
# naming the file, the line or array and the rule, with nothing written.
source "$(dirname "$0")/common.sh"

# Three experiments of 40, 55 and 70 points on different windows, rows interleaved.
"$python" - "$work" <<'PY'
import sys, numpy as np, h5py
work = sys.argv[1]
rng = np.random.default_rng(5)
names, ids, xs, ts, us = [], [], [], [], []
for e, (count, x0, t0) in enumerate([(40, -2.0, 0.0), (55, 0.0, 1.0), (70, -1.0, 0.5)]):
    for i in range(count):
        names.append(f"run {'ABC'[e]}"); ids.append(10 + e)
        xs.append(x0 + 2.0 * rng.random()); ts.append(t0 + rng.random())
        us.append(np.sin(xs[-1] - ts[-1]) + 0.01 * rng.normal())
order = rng.permutation(len(xs))
cols = {k: np.array(v)[order] for k, v in dict(x=xs, t=ts, u=us).items()}
names = np.array(names)[order]; ids = np.array(ids, dtype=np.int64)[order]
sigma = np.full(len(xs), 0.01)
with open(f"{work}/sensors.csv", "w") as f:
    f.write("experiment,position,t,u,sigma\n# position in m, t in s\n")
    for i in range(len(xs)):
        f.write(f'"{names[i]}",{cols["x"][i]!r},{cols["t"][i]!r},{cols["u"][i]!r},0.01\n')
np.savez(f"{work}/sensors.npz", experiment=names, position=cols["x"], t=cols["t"], u=cols["u"],
         sigma=sigma)
np.savez_compressed(f"{work}/sensors-deflated.npz", experiment=names, position=cols["x"],
                    t=cols["t"], u=cols["u"], sigma=sigma)
with h5py.File(f"{work}/sensors.h5", "w") as f:
    f["experiment"] = ids
    f["data/position"] = cols["x"]; f["t"] = cols["t"]; f["u"] = cols["u"]; f["sigma"] = sigma
PY
check "write the inputs" $?

"$bhpm" import "$work/sensors.csv" -o "$work/csv.h5" --column x=position --hold-out-names "run C" \
  --attribute units.x=m --seed 4 > "$work/out" 2>&1
check "import a CSV" $?
grep -q "wrote .*csv.h5: 165 points in 3 experiments (train 2, test 1)" "$work/out"
check "the summary counts points, experiments and the split" $?
"$bhpm" import "$work/sensors.npz" -o "$work/npz.h5" --column x=position --hold-out-names "run C" \
  --attribute units.x=m --seed 4 -q > /dev/null 2>&1
check "import an .npz archive" $?
"$bhpm" import "$work/sensors-deflated.npz" -o "$work/deflated.h5" --column x=position \
  --hold-out-names "run C" --attribute units.x=m --seed 4 -q > /dev/null 2>&1
check "import a deflated .npz archive" $?
"$bhpm" import "$work/sensors.h5" -o "$work/hdf5.h5" --column x=/data/position --hold-out 1 \
  --seed 4 -q > /dev/null 2>&1
check "import HDF5 arrays, holding out the last experiment" $?

"$python" - "$work" <<'PY'
import sys, numpy as np, h5py
work = sys.argv[1]
def experiments(path):
    """{name: group} of every experiment, and the names per set in stored order."""
    f = h5py.File(path)
    found, order = {}, {}
    for s in ["train", "test"]:
        order[s] = [f[f"{s}/{e}"].attrs["name"] for e in range(f[s].attrs["experiments"])]
        found.update({f[f"{s}/{e}"].attrs["name"]: f[f"{s}/{e}"] for e in range(f[s].attrs["experiments"])})
    return f, found, order
f, csv, order = experiments(f"{work}/csv.h5")
assert f.attrs["format"] == "bhpm-dataset" and f.attrs["format_version"] == 2
assert order["test"] == ["run C"] and sorted(order["train"]) == ["run A", "run B"], order
assert [csv[n]["u"].shape[0] for n in ["run A", "run B", "run C"]] == [40, 55, 70]
g = csv["run B"]
assert g.attrs["units.x"] == "m"
assert g.attrs["x_min"] == g["x"][:].min() and g.attrs["t_max"] == g["t"][:].max()
assert np.all(g["sigma"][:] == 0.01)
assert "seed = 4" in f.attrs["import"]
for name in ["npz", "deflated"]:
    _, other, other_order = experiments(f"{work}/{name}.h5")
    assert other_order == order, (name, other_order)
    for n in csv:
        for k in ["x", "t", "u", "sigma"]:
            assert np.array_equal(other[n][k][:], csv[n][k][:]), (name, n, k)
_, hdf5, hdf5_order = experiments(f"{work}/hdf5.h5")
ids = {"run A": "10", "run B": "11", "run C": "12"}
appearance = []  # experiment names in order of first appearance in the input
for line in open(f"{work}/sensors.csv").read().splitlines()[2:]:
    name = line.split(",")[0].strip('"')
    if name not in appearance: appearance.append(name)
assert hdf5_order["train"] == [ids[n] for n in appearance[:2]], hdf5_order
assert hdf5_order["test"] == [ids[appearance[2]]], hdf5_order  # --hold-out 1: the last
for n in csv:
    assert np.array_equal(hdf5[ids[n]]["u"][:], csv[n]["u"][:]), n
PY
check "CSV, .npz and HDF5 imports agree value for value; windows and attributes stored" $?

# A short training on the imported, ragged file: each leaf on its own window.
cat > "$work/small.toml" <<'TOML'
seed = 3
[leaves]
width = 8
hidden_layers = 2
[root]
inducing_points = 16
[train_leaves]
iterations = 20
[train_root]
iterations = 5
points = 64
[train_joint]
iterations = 5
TOML
"$bhpm" train "$work/small.toml" --data "$work/csv.h5" -o "$work/run" > "$work/out" 2>&1
check "train on the imported dataset" $?
grep -q "each leaf uses n_st = 40 points" "$work/out" && [ -f "$work/run/root.h5" ]
check "leaves use the fewest experiment's count, said on stderr; root.h5 written" $?

expect_refusal() {  # expect_refusal NAME TEXT INPUT [ARGS...]: exit 1, TEXT on stderr, no file
  local name="$1" text="$2" input="$3"
  shift 3
  "$bhpm" import "$input" -o "$work/refused.h5" "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  [ "$rc" -eq 1 ] && grep -qF -- "$text" "$work/err" && [ ! -e "$work/refused.h5" ] &&
    ! compgen -G "$work/refused.h5.tmp-*" > /dev/null
  check "$name" $?
  [ "$rc" -eq 1 ] && grep -qF -- "$text" "$work/err" || { echo "  exit $rc, stderr:"; cat "$work/err"; }
}
csv() {  # csv NAME LINES...: a CSV file of these lines
  printf '%s\n' "${@:2}" > "$work/$1"
  echo "$work/$1"
}
expect_refusal "a missing column is refused" "no.csv: line 1: no column 'u' (the header has: experiment, x, t, value)" \
  "$(csv no.csv experiment,x,t,value a,0,0,1)"
expect_refusal "NaN is refused with its line and column" "nan.csv: line 3, column 'u': nan is not a measurement" \
  "$(csv nan.csv experiment,x,t,u a,0,0,1 a,1,1,nan)"
expect_refusal "a repeated point is refused with both lines" "experiment 'a': line 2 and line 4 measure the same point" \
  "$(csv repeat.csv experiment,x,t,u a,0,0,1 a,1,1,2 a,0,0,3)"
expect_refusal "an experiment of zero extent is refused" "experiment 'b': all its 2 points have t = 3: zero extent in t" \
  "$(csv flat.csv experiment,x,t,u a,0,0,1 a,1,1,2 b,0,3,1 b,1,3,1)"
expect_refusal "an unknown file type is refused" "unknown file type '.txt'" \
  "$(csv data.txt experiment,x,t,u a,0,0,1 a,1,1,2)"
expect_refusal "an HDF5 file without the arrays named is refused" "sensors.h5: no array 'x'" "$work/sensors.h5"
expect_refusal "an .npz archive without the arrays named is refused" "sensors.npz: no array 'x' in the archive" "$work/sensors.npz"
"$python" - "$work" <<'PY'
import sys, zipfile
work = sys.argv[1]
with zipfile.ZipFile(f"{work}/sensors.npz") as archive:  # stored: the bytes are the values
    member = archive.getinfo("u.npy")
raw = bytearray(open(f"{work}/sensors.npz", "rb").read())
start = member.header_offset + 30 + int.from_bytes(raw[member.header_offset + 26:member.header_offset + 28], "little") \
    + int.from_bytes(raw[member.header_offset + 28:member.header_offset + 30], "little")
raw[start + member.file_size - 3] ^= 0x10  # one bit of the last value of u
open(f"{work}/flipped.npz", "wb").write(raw)
PY
expect_refusal "an .npz archive with one bit flipped fails its CRC-32 check" \
  "flipped.npz: not a readable .npz archive (member u.npy fails its CRC-32 check" "$work/flipped.npz" \
  --column x=position
# -o on what is not a regular file: a pipe is refused and left a pipe (never replaced, as
# /dev/null would be); a symbolic link is written through, and stays a link.
mkfifo "$work/pipe.h5"
"$bhpm" import "$work/sensors.csv" --column x=position -o "$work/pipe.h5" > "$work/out" 2> "$work/err"
[ $? -eq 1 ] && [ -p "$work/pipe.h5" ] && grep -qF "pipe.h5': exists and is not a regular file" "$work/err"
check "-o on a named pipe is refused before any work, and the pipe is left in place" $?
# A folder where no file can be made (/proc refuses even root) is named with the system's
# reason before any work.
"$bhpm" import "$work/sensors.csv" --column x=position -o /proc/bhpm-import.h5 > "$work/out" 2> "$work/err"
[ $? -eq 1 ] && grep -qF "output '/proc/bhpm-import.h5': cannot write in folder '/proc': " "$work/err"
check "-o in a folder where nothing can be written is refused with the system's reason" $?
ln -s "$work/linked-target.h5" "$work/link.h5"
"$bhpm" import "$work/sensors.csv" --column x=position -o "$work/link.h5" > "$work/out" 2>&1 &&
  [ -L "$work/link.h5" ] && [ -f "$work/linked-target.h5" ] && "$python" -c "import h5py, sys; h5py.File(sys.argv[1])" "$work/link.h5"
check "-o on a symbolic link writes the file it points to and keeps the link" $?
expect_refusal "a field that is not a number is refused" "line 3, column 't': 'soon' is not a number" \
  "$(csv word.csv experiment,x,t,u a,0,0,1 a,1,soon,2)"
expect_refusal "holding out every experiment is refused" "leaves none to train on" \
  "$(csv two.csv experiment,x,t,u a,0,0,1 a,1,1,2)" --hold-out 1
expect_refusal "holding out an unknown name is refused" "--hold-out-names: no experiment 'z'" \
  "$work/two.csv" --hold-out-names z
expect_refusal "an unknown --column field is refused" "unknown field 'time'" "$work/two.csv" --column time=t

# Truth-free scoring against the truth: simulated Burgers data, its held-out experiments
# once as simulate wrote them (version 1, with the true operator) and once imported from a
# CSV of ragged subsets of their measurements (450 and 600 points, no truth). Measured:
# RMSE 0.0514 against the truth, 0.0513 truth-free on the import; the test allows a
# factor 2 either way.
cat > "$work/burgers.toml" <<'TOML'
seed = 3
[equation]
name = "burgers"
[domain]
t_end = 2.0
[solver]
modes = 64
output_dt = 0.1
[data]
train_experiments = 2
test_experiments = 2
n_st = 600
[leaves]
width = 32
hidden_layers = 3
[root]
inducing_points = 32
[train_leaves]
iterations = 3000
learning_rate = 3e-3
final_learning_rate = 1e-4
[train_root]
iterations = 50
points = 256
[train_joint]
iterations = 100
TOML
"$bhpm" simulate "$work/burgers.toml" -o "$work/burgers.h5" -q > /dev/null 2>&1 &&
  "$bhpm" train "$work/burgers.toml" --data "$work/burgers.h5" -o "$work/burgers" -q > /dev/null 2>&1
check "simulate and train a small Burgers run" $?
"$bhpm" evaluate "$work/burgers" --data "$work/burgers.h5" --truth-free -q > "$work/out" 2>&1
check "evaluate --truth-free on a simulated file" $?
grep -q "truth *truth-free *leaves (u)" "$work/out" &&
  [ -f "$work/burgers/metrics.json" ] && [ -f "$work/burgers/metrics-truth-free.json" ] &&
  [ -f "$work/burgers/metrics-leaves.json" ]
check "the truth-based and truth-free scores side by side, in three files" $?
"$python" - "$work" <<'PY'
import sys, numpy as np, h5py
work = sys.argv[1]
with h5py.File(f"{work}/burgers.h5") as f, open(f"{work}/held-out.csv", "w") as out:
    out.write("experiment,x,t,u\n")
    m = f["test/measurements"]
    for e, keep in enumerate([450, 600]):
        for x, t, u in zip(m["x"][e][:keep], m["t"][e][:keep], m["u"][e][:keep]):
            out.write(f"{e},{x!r},{t!r},{u!r}\n")
PY
"$bhpm" import "$work/held-out.csv" -o "$work/held-out.h5" -q > /dev/null 2>&1 &&
  "$bhpm" evaluate "$work/burgers" --data "$work/held-out.h5" --set-name train -q \
    -o "$work/imported-metrics.json" > "$work/out" 2>&1
check "evaluate on the imported ragged file (no truth): truth-free only" $?
grep -q "truth-free *leaves (u)" "$work/out" && ! grep -q "true operator" "$work/out"
check "without a truth only the truth-free scores are printed" $?
"$python" - "$work" <<'PY'
import sys, json
work = sys.argv[1]
truth = json.load(open(f"{work}/burgers/metrics.json"))
free = json.load(open(f"{work}/imported-metrics.json"))
leaves = json.load(open(f"{work}/imported-metrics-leaves.json"))
ratio = free["rmse"] / truth["rmse"]
print(f"RMSE truth {truth['rmse']:.4g}, truth-free on the import {free['rmse']:.4g} (ratio {ratio:.3g})")
assert 0.5 <= ratio <= 2.0, ratio
assert free["points"] == 2 * 360, free["points"]  # 4 of every 5 of the fewest 450 points
assert leaves["points"] == 2 * 90 and 0 < leaves["coverage"]["0.95"] <= 1
assert "held-out leaves" in free["target"]
PY
check "the truth-free RMSE on the import is within a factor 2 of the truth-based one" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
