#!/usr/bin/env bash
# The main job on a small default configuration: installs the dependencies, builds the
# `bhpm` program, simulates the quickstart dataset (Burgers' equation, N = 4), trains the
# model on a reduced schedule (about three minutes on 2 cores) and scores the learned
# operator on the ten held-out experiments and on the training experiments' whole grids.
# Rerunning resumes from the checkpoints in out/quickstart/run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/out/quickstart"
bhpm="$root/build/src/bhpm"
config="$root/configs/quickstart.toml"
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh" --target bhpm
mkdir -p "$out"
[ -f "$out/data.h5" ] || "$bhpm" simulate "$config" -o "$out/data.h5"
"$bhpm" train "$config" --data "$out/data.h5" -o "$out/run"
echo "== held-out experiments (extrapolation beyond the data's coverage) =="
"$bhpm" evaluate "$out/run" --data "$out/data.h5"
echo "== training experiments' whole grids (inside the coverage, mostly unmeasured points) =="
"$bhpm" evaluate "$out/run" --data "$out/data.h5" --set-name train \
  -o "$out/run/metrics-train.json"
echo "== prediction: 32 operator samples solved from held-out test experiment 0's initial condition =="
"$bhpm" predict "$out/run" --ic-from "$out/data.h5:0" -q
