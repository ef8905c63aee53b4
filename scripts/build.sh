#!/usr/bin/env bash
# Configures and builds BHPM (Release, -O2, OpenBLAS) into build/. Extra arguments are
# passed to `cmake --build` (for example `--target bhpm`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" -j"$(nproc)" "$@"
