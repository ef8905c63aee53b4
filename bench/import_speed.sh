#!/usr/bin/env bash
# The speed and memory of `bhpm import` (docs/importing-data.md) on 10^6 measurements: ten
# experiments of 10^5 scattered points each, written once as CSV (sigma column included)
# and as a deflated NumPy .npz, then imported with one held out. Prints per input: file
# size, wall time and the import process's peak resident memory (getrusage of the child,
# each run from its own Python process), beside that of `bhpm --version` (start-up alone);
# then a system's CSV of as many rows (two fields on a plane, one unmeasured at every
# third point, docs/importing-data.md, "Several fields and two dimensions").
# Nothing is asserted: a benchmark prints.
#   bash bench/import_speed.sh [--bhpm PATH] [--rows N]
# (build first: bash scripts/build.sh --target bhpm). Needs a Python with numpy.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bhpm="$root/build/src/bhpm"
rows=1000000
while [ $# -gt 0 ]; do
  case "$1" in
    --bhpm) bhpm="$2"; shift 2 ;;
    --rows) rows="$2"; shift 2 ;;
    *) echo "usage: bash bench/import_speed.sh [--bhpm PATH] [--rows N]" >&2; exit 2 ;;
  esac
done
python=python3
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c "import numpy" 2>/dev/null; then python="$candidate"; break; fi
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" - "$bhpm" "$work" "$rows" <<'PY'
import os, resource, subprocess, sys, time
import numpy as np
bhpm, work, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = np.random.default_rng(0)
experiment = np.repeat(np.arange(10), rows // 10)
n = experiment.size
x, t = 16 * rng.random(n) - 8, 10 * rng.random(n)
u = np.sin(x - 0.3 * t) * np.exp(-0.05 * t) + 0.01 * rng.normal(size=n)
sigma = np.full(n, 0.01)
order = rng.permutation(n)
columns = [a[order] for a in (experiment, x, t, u, sigma)]
with open(f"{work}/points.csv", "w") as f:
    f.write("experiment,x,t,u,sigma\n")
    np.savetxt(f, np.column_stack(columns), fmt=["%d", "%.17g", "%.17g", "%.17g", "%.17g"],
               delimiter=",")
np.savez_compressed(f"{work}/points.npz", **dict(zip(["experiment", "x", "t", "u", "sigma"], columns)))
def measured(command):
    """(wall seconds, peak RSS MiB) of `command`, run alone under a fresh Python."""
    probe = ("import resource, subprocess, sys; "
             "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", probe] + command, check=True,
                         capture_output=True, text=True).stdout
    return time.perf_counter() - start, int(out.split()[-1]) / 1024
print(f"bhpm import of {n} measurements (10 experiments, one held out)")
print(f"{'input':18} {'file MB':>8} {'wall s':>8} {'peak RSS MB':>12}")
wall, peak = measured([bhpm, "--version"])
print(f"{'(bhpm --version)':18} {'':>8} {wall:8.2f} {peak:12.0f}")
for name in ["csv", "npz"]:
    path = f"{work}/points.{name}"
    wall, peak = measured([bhpm, "import", path, "-o", f"{work}/{name}.h5", "--hold-out", "1", "-q"])
    print(f"{name:18} {os.path.getsize(path) / 1e6:8.1f} {wall:8.2f} {peak:12.0f}")
# A system's measurements: two fields on a plane, v left unmeasured at every third point.
y = 16 * rng.random(n) - 8
v = np.cos(x + y - 0.3 * t)
with open(f"{work}/plane.csv", "w") as f:
    f.write("experiment,x,y,t,u,v\n")
    for e, xi, yi, ti, ui, vi, k in zip(experiment, x, y, t, u, v, range(n)):
        f.write("%d,%.17g,%.17g,%.17g,%.17g,%s\n" % (e, xi, yi, ti, ui, "" if k % 3 == 0 else "%.17g" % vi))
path = f"{work}/plane.csv"
wall, peak = measured([bhpm, "import", path, "--fields", "u,v", "--column", "y=y", "-o",
                       f"{work}/plane.h5", "--hold-out", "1", "-q"])
print(f"{'csv u,v on (x,y)':18} {os.path.getsize(path) / 1e6:8.1f} {wall:8.2f} {peak:12.0f}")
PY
