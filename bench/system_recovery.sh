#!/usr/bin/env bash
# Recovery of a system's equations by `bhpm distill` (docs/systems.md, "Distilling a
# system"): a system's configuration (`configs/nls.toml` unless --config names another, such
# as `configs/lambda-omega.toml`) is simulated, trained and distilled at each measurement
# noise level p (noise sd = p x the RMS of every field over the noise-free training
# measurements, pooled), and for each run, in the pointwise form (the
# roots' posterior samples) and in weak form (the leaves' fields), the table prints per
# field and true term its inclusion, median, relative error and 95 % interval (and whether
# it holds the truth), and the largest inclusion of any other term, with the training's
# seconds. Nothing is asserted: a benchmark prints. Existing run folders are reused.
#   bash bench/system_recovery.sh DIR [--bhpm PATH] [--config PATH] [--levels "0 0.01 0.05"]
# (build first: bash scripts/build.sh --target bhpm). About 1.5 minutes per level on 2 cores
# for NLS, 5 for lambda-omega.
set -euo pipefail
{  # the whole script is read before it runs: editing this file during a run cannot change it
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bhpm="$root/build/src/bhpm"
levels="0 0.01 0.05"
config="$root/configs/nls.toml"
dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bhpm) bhpm="$2"; shift 2 ;;
    --levels) levels="$2"; shift 2 ;;
    --config) config="$2"; shift 2 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) dir="$1"; shift ;;
  esac
done
[ -n "$dir" ] || { echo "usage: bash bench/system_recovery.sh DIR [--bhpm PATH] [--config PATH] [--levels \"0 0.01 0.05\"]" >&2; exit 2; }
mkdir -p "$dir"
python=""  # a Python that imports h5py (python3-h5py may be installed for the system's only)
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c "import h5py" 2>/dev/null; then python="$candidate"; break; fi
done
[ -n "$python" ] || { echo "system_recovery: needs a python3 with h5py (scripts/install-deps.sh)" >&2; exit 1; }
echo "load average $(cut -d' ' -f1 /proc/loadavg); $config; levels: $levels"
[ -f "$dir/clean.h5" ] || "$bhpm" simulate "$config" -o "$dir/clean.h5" -q >/dev/null
rms=$("$python" -c '
import h5py, numpy as np, sys
m = h5py.File(sys.argv[1], "r")["train/measurements"]
clean = [m[key][:].ravel() for key in m if key.endswith("_clean")]
print(np.sqrt(np.mean(np.concatenate(clean) ** 2)))
' "$dir/clean.h5")
for level in $levels; do
  sd=$("$python" -c "print($level * $rms)")
  run="$dir/noise-$level"
  if [ ! -f "$run/system.ckpt" ]; then
    "$bhpm" simulate "$config" -o "$run.h5" -q --set data.noise="$sd" >/dev/null
    start=$(date +%s.%N)
    "$bhpm" train "$config" --data "$run.h5" -o "$run" -q --set data.noise="$sd" >"$run.train.log"
    "$python" -c "print(round($(date +%s.%N) - $start, 1))" >"$run.seconds"
  fi
  [ -f "$run/distill.json" ] || "$bhpm" distill "$run" -q >/dev/null 2>"$run.distill.err"
  "$python" - "$run/distill.json" "$level" "$sd" "$(cat "$run.seconds")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"\nnoise {float(sys.argv[2]):.0%} of the RMS (sd {float(sys.argv[3]):.4g}); train {sys.argv[4]} s")
print(f"{'form':10} {'term':8} {'incl':>5} {'median':>9} {'error':>8} {'95 % interval':>22} holds")
for field, fit in d["fields"].items():
    for form, part in (("pointwise", fit), ("weak", fit.get("weak_form"))):
        if not part:
            print(f"{form:10} {field}_t: not fitted")
            continue
        terms = part["terms"]
        true = [t for t in terms if t["truth"] is not None and abs(t["truth"]) > 1e-6]
        for t in true:
            error = abs(t["median"] - t["truth"]) / abs(t["truth"])
            holds = t["lower"] <= t["truth"] <= t["upper"]
            print(f"{form:10} {field + ': ' + t['name']:8} {t['inclusion']:5.2f} {t['median']:9.4f} "
                  f"{error:8.2%} [{t['lower']:9.4f}, {t['upper']:9.4f}] {'yes' if holds else 'no'}")
        spurious = max([t["inclusion"] for t in terms if t not in true] or [0.0])
        print(f"{form:10} {field}_t: largest spurious inclusion {spurious:.2f}; {part['equation']}")
PY
done
exit
}
