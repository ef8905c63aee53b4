#!/usr/bin/env bash
# A bounded, seeded fuzz test of bad input (tests/cli/fuzz_inputs.py generates and judges
# the cases): malformed configurations (mutations of configs/quickstart.toml and
# configs/sensors.toml), measurement files for `bhpm import` (CSV, NumPy .npz, HDF5),
# damaged BHPM datasets given to `bhpm train --data` and `bhpm evaluate --data`, and
# damage to a tiny run folder (run.toml, data.h5, root.h5, the checkpoints) before
# `bhpm predict`, `evaluate`, `distill` or a resumed `bhpm run`. Each malformed case must
# exit 1 or 2 (no crash, no hang), name the file and the field at fault on stderr, and
# leave nothing behind (no output, no run folder, no temporary file, inputs untouched);
# the valid spreadsheet form of a CSV (byte-order mark, CRLF) must be accepted.
# The seed is printed first: BHPM_FUZZ_SEED=S replays a run, BHPM_FUZZ_ONLY=N,M the named
# cases alone; BHPM_FUZZ_CASES (72) and BHPM_FUZZ_SECONDS (45: no case starts later) bound it.
source "$(dirname "$0")/common.sh"

here="$(cd "$(dirname "$0")" && pwd)"
"$python" "$here/fuzz_inputs.py" "$bhpm" "$work" "$(cd "$here/../.." && pwd)"
check "every malformed input refused by name with nothing written; valid ones accepted" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
