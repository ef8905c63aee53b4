#!/usr/bin/env bash
# Recovery of known equations by `bhpm distill` (docs/distillation.md, "Distilled equations"):
# for Burgers (configs/quickstart.toml, K = 2) and KdV (configs/kdv-quick.toml, K = 3), at
# measurement noise 0, 1 % and 5 % of the training data's std(u), a run is simulated,
# trained and distilled (`bhpm run CONFIG -o DIR/<name>-noise-<p> --set
# run.stages=simulate,train,distill --set data.noise=EPS`), and bench/distill_table.py prints
# per run: the true terms' inclusion, the largest inclusion of any other term, each true
# coefficient's median, relative error and 95 % interval (and whether it covers the truth),
# the fraction of the posterior mean explained, the largest terms of the leaves' target
# bias u_t - f(v) (what the root's data add to the true operator), and the distill time;
# then the same rows for the equation in weak form on the leaves' u (docs/distillation.md,
# "Weak-form distillation").
# `python3 bench/leaf_smoothing.py DIR/<run>` then shows how far the leaves smooth the
# truth (docs/distillation.md, "Distilled equations"). Nothing is asserted:
# a benchmark prints. Existing run folders are reused (`bhpm run` resumes), so a second call
# only prints.
#   bash bench/distill_recovery.sh DIR [--bhpm PATH] [--only burgers|kdv] [--set key=value ...]
# (build first: bash scripts/build.sh --target bhpm). About 20 minutes per equation on 2 cores.
set -euo pipefail
{  # the whole script is read before it runs: editing this file during a run cannot change it
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bhpm="$root/build/src/bhpm"
only=""
sets=()
dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bhpm) bhpm="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) dir="$1"; shift ;;
  esac
done
[ -n "$dir" ] || { echo "usage: bash bench/distill_recovery.sh DIR [--bhpm PATH] [--only burgers|kdv] [--set key=value ...]" >&2; exit 2; }
mkdir -p "$dir"
python=""  # a Python that imports h5py (python3-h5py may be installed for the system's only)
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c "import h5py" 2>/dev/null; then python="$candidate"; break; fi
done
[ -n "$python" ] || { echo "error: no python3 that imports h5py (package python3-h5py)" >&2; exit 1; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"

runs=()
for pair in burgers:quickstart kdv:kdv-quick; do
  name="${pair%%:*}"
  config="$root/configs/${pair#*:}.toml"
  [ -z "$only" ] || [ "$only" = "$name" ] || continue
  std=""
  for percent in 0 1 5; do
    folder="$dir/$name-noise-$percent"
    noise=0.0
    if [ "$percent" != 0 ]; then
      [ -n "$std" ] || { echo "   no noise-free data to take std(u) from" >&2; break; }
      noise="$("$python" -c "print($percent / 100 * $std)")"
    fi
    echo "== $name, noise $percent % of std(u): epsilon = $noise -> $folder"
    if ! "$bhpm" run "$config" -o "$folder" -q --set run.stages=simulate,train,distill \
      --set data.noise="$noise" "${sets[@]}" > "$folder.log" 2>&1; then
      echo "   failed (see $folder.log)"
      continue
    fi
    grep -E '^== (train|distill): [0-9.]+ s$' "$folder.log" | sed 's/^/   /'
    # std of the noise-free training data's u (the measurements' scale), from the first run.
    [ -n "$std" ] || std="$("$python" -c "import h5py, sys; print(float(h5py.File(sys.argv[1], 'r')['train/u'][()].std()))" "$folder/data.h5")"
    runs+=("$folder")
  done
done
"$python" "$root/bench/distill_table.py" "${runs[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit
}
