#!/usr/bin/env bash
# Times the README's main job: `bhpm run configs/quickstart.toml` in a fresh folder, and
# prints each stage's wall time and the total, with the machine's load average before and
# after (timings on a busy machine are not comparable). The target is 10 minutes on 2 cores.
# Then the figure lines (bench/figure_line.h) of the total and of the train stage, with the
# accuracy reached: the held-out operator RMSE (metrics.json) and each prediction's relative
# L2 error and 95 % band coverage against the truth (report/metrics.json).
#   bash bench/main_job_time.sh [CONFIG.toml]   (build first: bash scripts/build.sh --target bhpm)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
config="${1:-$root/configs/quickstart.toml}"
folder="$(mktemp -d)"
trap 'rm -rf "$folder"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
"$root/build/src/bhpm" run "$config" -o "$folder/run" -q | tee "$folder/run.out" |
  grep -E '^== [a-z]+: [0-9.]+ s$|^run: '
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$folder/run.out" "$folder/run" "$(basename "$config")" <<'PY'
import json, os, re, sys
out, run, config = sys.argv[1:4]
text = open(out).read()
stages = re.findall(r"^== ([a-z]+): ([0-9.]+) s$", text, re.M)
total = re.search(r"^run: .* complete \(([0-9.]+) s\)$", text, re.M)
def read(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}
rmse = read(os.path.join(run, "metrics.json")).get("rmse")
held_out = f"held-out operator RMSE {rmse:.4g}" if rmse is not None else ""
predictions = [p for p in read(os.path.join(run, "report", "metrics.json")).get("predictions", [])
               if p.get("relative_l2") is not None]
bands = ", ".join(f"{p['relative_l2']:.3g} ({100 * p['coverage95']:.1f} % in the band)"
                  if p.get("coverage95") is not None else f"{p['relative_l2']:.3g}"
                  for p in predictions)
accuracy = "; ".join(part for part in (held_out, bands and "predictions' relative L2 " + bands)
                     if part) or "-"
name = f"main job, bhpm run {config}"
if total:
    print(f"figure: {name} | {total.group(1)} s | accuracy: {accuracy} | "
          + ", ".join(f"{stage} {seconds} s" for stage, seconds in stages))
for stage, seconds in stages:
    if stage == "train":
        print(f"figure: {name}, train stage | {seconds} s | accuracy: {held_out or '-'} | "
              "leaves, exact GP and joint phases")
PY
