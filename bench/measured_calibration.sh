#!/usr/bin/env bash
# Calibration of the prediction bands on data shaped like a user's: scattered measurements
# only, each training experiment on its own sub-window, no solution grid in the pipeline.
# Nothing is asserted: a benchmark prints.
#   bash bench/measured_calibration.sh CONFIG.toml WORK_DIR [--noise EPS] [--bhpm PATH]
#                                      [--samples S] [--set section.key=value ...]
# 1. `bhpm simulate CONFIG -o WORK_DIR/truth.h5 [--set ...]`: the training and held-out
#    experiments with their solution grids, kept aside for scoring only.
# 2. Each training experiment "measured" (seed 2026): a window of 60-100 % of the domain's
#    width and of the horizon at a random place, 2600-5200 grid points of it drawn at
#    random, Gaussian noise of sd EPS (default 0.01) times that experiment's RMS of u on
#    its window (no sigma column: the noise is not told) -> WORK_DIR/measurements.csv,
#    `bhpm import` -> WORK_DIR/data.h5 (measurements only, every experiment for training).
# 3. `bhpm run CONFIG -o WORK_DIR/run --set run.data=WORK_DIR/data.h5
#    --set run.stages=simulate,train,calibrate` (the --set settings too): calibrate fits
#    from the measurements alone (predict.calibration_method = "auto").
# 4. `bash bench/calibration.sh CONFIG WORK_DIR/run --truth WORK_DIR/truth.h5`: every
#    held-out experiment predicted from its initial condition and scored against its grid.
set -euo pipefail
{  # read whole before it runs
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() {
  echo "usage: bash bench/measured_calibration.sh CONFIG.toml WORK_DIR [--noise EPS]" \
       "[--bhpm PATH] [--samples S] [--set section.key=value ...]" >&2
  exit 2
}
bhpm="$root/build/src/bhpm"
noise=0.01
passed=()
run_sets=()
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --noise) [ $# -ge 2 ] || usage; noise="$2"; shift 2 ;;
    --bhpm) [ $# -ge 2 ] || usage; bhpm="$2"; passed+=(--bhpm "$2"); shift 2 ;;
    --samples) [ $# -ge 2 ] || usage; passed+=(--samples "$2"); shift 2 ;;
    --set) [ $# -ge 2 ] || usage; run_sets+=(--set "$2"); passed+=(--set "$2"); shift 2 ;;
    -h|--help) usage ;;
    -*) echo "error: unknown option $1" >&2; usage ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -eq 2 ] || usage
config="${positional[0]}"
work="${positional[1]}"
python=""
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c "import h5py, numpy" 2>/dev/null; then python="$candidate"; break; fi
done
[ -n "$python" ] || { echo "error: no python3 that imports h5py and numpy" >&2; exit 1; }
mkdir -p "$work"
work="$(cd "$work" && pwd)"

if [ ! -f "$work/run/joint.ckpt" ]; then
  [ -f "$work/truth.h5" ] ||
    "$bhpm" simulate "$config" -o "$work/truth.h5" -q ${run_sets[@]+"${run_sets[@]}"} > /dev/null
  "$python" - "$work/truth.h5" "$work/measurements.csv" "$noise" <<'PY'
import sys
import h5py
import numpy as np
truth, output, noise = sys.argv[1], sys.argv[2], float(sys.argv[3])
rng = np.random.default_rng(2026)
with h5py.File(truth, "r") as f:
    u, x, t = f["train/u"][()], f["train/x"][()], f["train/t"][()]
with open(output, "w") as out:
    out.write("experiment,x,t,u\n")
    for e in range(u.shape[0]):
        width, span = rng.uniform(0.6, 1.0), rng.uniform(0.6, 1.0)
        nx, nt = max(2, int(width * x.size)), max(2, int(span * t.size))
        x0, t0 = rng.integers(0, x.size - nx + 1), rng.integers(0, t.size - nt + 1)
        window = u[e, t0:t0 + nt, x0:x0 + nx]
        count = min(window.size, int(rng.integers(2600, 5201)))
        chosen = rng.choice(window.size, count, replace=False)
        rows, cols = np.divmod(chosen, nx)
        sd = noise * np.sqrt(np.mean(window ** 2))
        values = window[rows, cols] + sd * rng.normal(size=count)
        for xv, tv, uv in zip(x[x0 + cols], t[t0 + rows], values):
            out.write(f"experiment {e},{xv:.6f},{tv:.5f},{uv:.8f}\n")
        print(f"experiment {e}: x in [{x[x0]:.3g}, {x[x0 + nx - 1]:.3g}], t in "
              f"[{t[t0]:.3g}, {t[t0 + nt - 1]:.3g}], {count} points, noise sd {sd:.3g}")
PY
  "$bhpm" import "$work/measurements.csv" -o "$work/data.h5" -q
  echo "training on the measurements: $bhpm run $config -o $work/run --set run.data=$work/data.h5"
  "$bhpm" run "$config" -o "$work/run" --set "run.data=$work/data.h5" \
    --set run.stages=simulate,train,calibrate "${run_sets[@]}" -q
fi
bash "$root/bench/calibration.sh" "$config" "$work/run" --truth "$work/truth.h5" "${passed[@]}"
exit
}
