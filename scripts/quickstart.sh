#!/usr/bin/env bash
# The main job on a small default configuration: installs the dependencies, builds the
# `bhpm` program and simulates the quickstart dataset (Burgers' equation).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh" --target bhpm
mkdir -p "$root/out/quickstart"
"$root/build/src/bhpm" simulate "$root/configs/quickstart.toml" -o "$root/out/quickstart/data.h5"
echo "dataset: $root/out/quickstart/data.h5 (layout: docs/dataset-format.md)"
