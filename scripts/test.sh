#!/usr/bin/env bash
# Installs the dependencies, builds every target (the bhpm program, the test executable
# and the benchmarks under bench/, so that none can rot unnoticed: about 50 s of the
# build on 2 cores) and runs the whole test suite.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j"$(nproc)"
