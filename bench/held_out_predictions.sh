#!/usr/bin/env bash
# Wall time of `bhpm predict` on a trained run's held-out experiments, inside and outside the
# data's coverage: each experiment's initial condition predicted with the run's [predict]
# settings (`bhpm predict RUN --ic-from RUN/data.h5:test/E -q`, the process's start
# included), the experiments alternated so that a slow minute falls on all of them alike.
# Prints, per experiment, a figure line (bench/figure_line.h) with the median time, the
# accuracy reached (relative L2 of the mean, the truth inside the 95 % band) and the share
# of the path outside the data's coverage that predict warned of; then, for each
# experiment with that warning, its time over the median of those without it. Nothing is
# asserted: a benchmark prints.
#   bash bench/held_out_predictions.sh RUN_DIR [--experiments 0,6] [--repeats 3]
#                                      [--bhpm PATH]
# (build first: bash scripts/build.sh --target bhpm). The quickstart run's held-out 0 stays
# inside the coverage and held-out 6 leaves it (docs/predictions.md, "Cost of a prediction").
set -euo pipefail
{  # read whole before it runs
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bhpm="$root/build/src/bhpm"
usage() {
  echo "usage: bash bench/held_out_predictions.sh RUN_DIR [--experiments 0,6] [--repeats 3]" \
       "[--bhpm PATH]" >&2
  exit 2
}
experiments="0,6"
repeats=3
run=""
while [ $# -gt 0 ]; do
  case "$1" in
    --experiments) [ $# -ge 2 ] || usage; experiments="$2"; shift 2 ;;
    --repeats) [ $# -ge 2 ] || usage; repeats="$2"; shift 2 ;;
    --bhpm) [ $# -ge 2 ] || usage; bhpm="$2"; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "error: unknown option $1" >&2; usage ;;
    *) [ -z "$run" ] || usage; run="$1"; shift ;;
  esac
done
[ -n "$run" ] || usage
[ -f "$run/data.h5" ] || { echo "error: $run: no data.h5 (not a run folder)" >&2; exit 2; }
[ -x "$bhpm" ] || { echo "error: $bhpm: not built (bash scripts/build.sh --target bhpm)" >&2; exit 1; }
[[ "$repeats" =~ ^[1-9][0-9]*$ ]] || { echo "error: --repeats $repeats: a positive integer" >&2; exit 2; }
[[ "$experiments" =~ ^[0-9]+(,[0-9]+)*$ ]] ||
  { echo "error: --experiments $experiments: comma-separated experiment indices" >&2; exit 2; }

folder="$(mktemp -d)"
trap 'rm -rf "$folder"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
for repeat in $(seq 1 "$repeats"); do
  for experiment in ${experiments//,/ }; do
    log="$folder/$experiment-$repeat.log"
    start="$(date +%s.%N)"
    "$bhpm" predict "$run" --ic-from "$run/data.h5:test/$experiment" \
      -o "$folder/prediction-$experiment.h5" -q > "$log" 2>&1 ||
      { echo "error: bhpm predict on held-out $experiment failed:" >&2; tail -3 "$log" >&2; exit 1; }
    awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f\n", b - a }' > "$log.seconds"
    echo "held-out $experiment, repeat $repeat: $(cat "$log.seconds") s"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$folder" "$(basename "$run")" "$experiments" "$repeats" <<'PY'
import pathlib, re, statistics, sys
folder, run, experiments, repeats = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
rows = {}
for experiment in experiments.split(","):
    times = [float((folder / f"{experiment}-{r}.log.seconds").read_text()) for r in range(1, repeats + 1)]
    text = (folder / f"{experiment}-{repeats}.log").read_text()
    outside = re.search(r"warning: ([0-9.]+)% of the prediction's path", text)
    truth = re.search(r"relative L2 error of the mean ([0-9.eE+-]+), RMSE [0-9.eE+-]+, "
                      r"inside the 95% band ([0-9.]+)%", text)
    reach = re.search(r"\((\d+) took the rounds left at once", text)
    samples = re.search(r"^samples: (\d+), diverged: (\d+)", text, re.M)
    rows[experiment] = (statistics.median(times), times, outside, truth, reach, samples)
    accuracy = (f"relative L2 of the mean {truth.group(1)}, {truth.group(2)} % in the 95 % band"
                if truth else "-")
    where = (f"{outside.group(1)} % of the path outside the data's coverage" if outside
             else "inside the data's coverage")
    note = [where]
    if samples:
        note.append(f"{samples.group(1)} samples, {samples.group(2)} diverged")
    if reach:
        note.append(f"{reach.group(1)} out of reach")
    note.append("median of " + ", ".join(f"{t:.2f}" for t in times) + " s")
    print(f"figure: bhpm predict, run {run}, held-out {experiment} | {rows[experiment][0]:.2f} s"
          f" | accuracy: {accuracy} | " + "; ".join(note))
inside = [row[0] for row in rows.values() if not row[2]]
for experiment, row in rows.items():
    if row[2] and inside:
        print(f"figure: bhpm predict, run {run}, held-out {experiment} over the in-coverage ones"
              f" | {row[0] / statistics.median(inside):.2f} x | accuracy: - | "
              f"{row[0]:.2f} s against a median {statistics.median(inside):.2f} s without a "
              "coverage warning")
PY
}
