#!/usr/bin/env bash
# Times the README's main job: `bhpm run configs/quickstart.toml` in a fresh folder, and
# prints each stage's wall time and the total, with the machine's load average before and
# after (timings on a busy machine are not comparable). The target is 10 minutes on 2 cores.
#   bash bench/main_job_time.sh [CONFIG.toml]   (build first: bash scripts/build.sh --target bhpm)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
config="${1:-$root/configs/quickstart.toml}"
folder="$(mktemp -d)"
trap 'rm -rf "$folder"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
"$root/build/src/bhpm" run "$config" -o "$folder/run" -q | grep -E '^== [a-z]+: [0-9.]+ s$|^run: '
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
