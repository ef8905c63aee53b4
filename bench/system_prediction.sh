#!/usr/bin/env bash
# Predictions of a system learned from data (docs/systems.md, "Predicting with a system"):
# a system's configuration (`configs/nls.toml` unless --config names another, such as
# `configs/lambda-omega.toml`) is simulated and trained once, then every held-out
# experiment's initial fields are predicted by `bhpm predict` under the roots (the
# posterior means and S pathwise members; --operator gp, the default) or under the
# distilled equations' coefficient samples (--operator distilled or weak-form, after `bhpm
# distill`). Per experiment and field the table
# prints the relative L2 error of the means' solve and of the members' mean over (t, x), the
# fraction of the true solution inside the 95 % band, RMS error / RMS spread, the members
# solved, repaired and dropped, and the seconds; then each field's pooled coverage and
# median errors over the experiments. Nothing is asserted: a benchmark prints. Existing
# files in DIR are reused.
#   bash bench/system_prediction.sh DIR [--bhpm PATH] [--config PATH] [--samples S]
#                                       [--operator gp|distilled|weak-form]
# (build first: bash scripts/build.sh --target bhpm). NLS: about 1 minute to train and 2-3
# minutes per experiment at S = 16 under the roots, seconds under an equation, on 2 cores.
set -euo pipefail
{  # the whole script is read before it runs: editing this file during a run cannot change it
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bhpm="$root/build/src/bhpm"
samples=16
config="$root/configs/nls.toml"
operator=gp
dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bhpm) bhpm="$2"; shift 2 ;;
    --samples) samples="$2"; shift 2 ;;
    --config) config="$2"; shift 2 ;;
    --operator) operator="$2"; shift 2 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) dir="$1"; shift ;;
  esac
done
[ -n "$dir" ] || { echo "usage: bash bench/system_prediction.sh DIR [--bhpm PATH] [--config PATH] [--samples S] [--operator gp|distilled|weak-form]" >&2; exit 2; }
mkdir -p "$dir"
python=""  # a Python that imports h5py (python3-h5py may be installed for the system's only)
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c "import h5py" 2>/dev/null; then python="$candidate"; break; fi
done
[ -n "$python" ] || { echo "system_prediction: needs a python3 with h5py (scripts/install-deps.sh)" >&2; exit 1; }
echo "load average $(cut -d' ' -f1 /proc/loadavg); $config; $samples members; operator $operator"
data="$dir/$(basename "$config" .toml).h5"
[ -f "$data" ] || "$bhpm" simulate "$config" -o "$data" -q >/dev/null
[ -f "$dir/run/system.ckpt" ] || "$bhpm" train "$config" --data "$data" -o "$dir/run" -q >/dev/null
if [ "$operator" != gp ] && [ ! -f "$dir/run/distill.json" ]; then
  "$bhpm" distill "$dir/run" -q >/dev/null
fi
experiments=$("$python" -c 'import h5py, sys; print(h5py.File(sys.argv[1], "r")["test"].attrs["experiments"])' "$data")
files=()
for ((e = 0; e < experiments; e++)); do
  out="$dir/prediction-$e-$operator-$samples.h5"
  [ -f "$out" ] || "$bhpm" predict "$dir/run" --ic-from "$data:test/$e" --samples "$samples" \
    --operator "$operator" -o "$out" >"$out.log" 2>&1 || echo "experiment $e: $(tail -1 "$out.log")"
  [ -f "$out" ] && files+=("$out")
done
"$python" - "${files[@]}" <<'PY'
import sys, h5py, numpy as np
print(f"{'experiment':>10} {'field':5} {'means L2':>9} {'members L2':>10} {'coverage':>8} "
      f"{'err/spread':>10} {'members':>7} {'repaired':>8} {'dropped':>7} {'seconds':>7}")
pooled = {}
for path in sys.argv[1:]:
    p = h5py.File(path, "r")
    experiment = p.attrs["initial_condition"].split(":")[-1]
    repaired = int(np.sum(p["added_diffusion"][:] > 0))
    dropped = p.attrs["dropped"].count("member ")
    for field in p.attrs["fields"].split(","):
        g = p[field]
        inside = (g["lower"][:] <= g["truth"][:]) & (g["truth"][:] <= g["upper"][:])
        pooled.setdefault(field, []).append((inside.sum(), inside.size, g.attrs["mean_operator_error"],
                                             g.attrs["ensemble_mean_error"]))
        print(f"{experiment:>10} {field:5} {g.attrs['mean_operator_error']:9.4f} "
              f"{g.attrs['ensemble_mean_error']:10.4f} {g.attrs['coverage']:8.3f} "
              f"{g.attrs['error_over_spread']:10.3g} {p.attrs['members']:7d} {repaired:8d} "
              f"{dropped:7d} {p.attrs['seconds']:7.1f}")
for field, rows in pooled.items():
    inside, total = sum(r[0] for r in rows), sum(r[1] for r in rows)
    print(f"{field}: pooled 95 % coverage {inside / total:.3f} over {len(rows)} experiments; median "
          f"relative L2 of the means' solve {np.median([r[2] for r in rows]):.4f}, of the members' "
          f"mean {np.median([r[3] for r in rows]):.4f}")
PY
exit
}
