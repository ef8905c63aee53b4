#!/usr/bin/env bash
# The main job on a small default configuration: installs the dependencies, builds the
# `bhpm` program and runs `bhpm run configs/quickstart.toml -o out/quickstart`: simulates
# the quickstart dataset (Burgers' equation, N = 4), trains the model on a reduced
# schedule, scores the learned operator on the ten held-out experiments and on the
# training experiments' whole grids, predicts two held-out experiments under 32 operator
# samples and draws the report (out/quickstart/report/index.html). A little over three
# minutes on 2 cores after the build (docs/results-log.md). Rerunning resumes: finished
# stages are skipped, training continues from its checkpoints.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh" --target bhpm
cd "$root"
build/src/bhpm run configs/quickstart.toml -o out/quickstart "$@"
