#!/usr/bin/env bash
# Installs the dependencies, builds what the tests run (the bhpm program and the test
# executable) and runs the whole test suite. The benchmarks under bench/ are built by
# `bash scripts/build.sh` (every target); built here as well, they would add about two
# minutes of compilation on 2 cores to every CI run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh" --target bhpm --target bhpm_tests
cd "$root/build"
ctest --output-on-failure -j"$(nproc)"
