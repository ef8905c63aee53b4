#!/usr/bin/env bash
# Times one 64-sample prediction (Algorithm 1, spectral) three ways and prints the wall times:
#   1 process, 1 thread               bhpm --threads 1 predict
#   1 process, 2 threads              bhpm --threads 2 predict
#   2 MPI ranks, 1 thread each        mpirun -n 2 bhpm --threads 1 predict (32 members each)
# and checks that the MPI ensemble is the one-thread process's, bit for bit (every member
# is drawn from its own seeds and solved apart from the others; docs/parallel.md). With
# RUN_DIR it predicts that trained run's test experiment 0 (its data.h5); without, it trains
# the CLI tests' small heat run first (seconds).
#   bash bench/mpi_predict.sh [RUN_DIR] [predict options...]
#   (build first: bash scripts/build.sh --target bhpm; needs mpirun and python3-h5py)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/bench/mpi_common.sh"  # $bhpm, $work, timed

if [ $# -ge 1 ]; then
  run="$1"
  shift
else
  source "$root/tests/cli/heat_run.sh"  # write_heat_config: the CLI tests' small heat run
  write_heat_config "$work/heat.toml"
  "$bhpm" simulate "$work/heat.toml" -o "$work/heat-data.h5" -q > /dev/null
  "$bhpm" train "$work/heat.toml" --data "$work/heat-data.h5" -o "$work/heat" -q > /dev/null
  cp "$work/heat-data.h5" "$work/heat/data.h5"
  run="$work/heat"
fi
predict=(predict "$run" --ic-from "$run/data.h5:0" --samples 64 -q "$@")

echo "run: $run; load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
timed "1 process, 1 thread" "$work/one.h5" "$work/one.out" "$bhpm" --threads 1 "${predict[@]}"
timed "1 process, 2 threads" "$work/two.h5" "$work/two.out" "$bhpm" --threads 2 "${predict[@]}"
timed "mpirun -n 2, 1 thread per rank" "$work/mpi.h5" "$work/mpi.out" mpirun -n 2 --oversubscribe "$bhpm" --threads 1 "${predict[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 - "$work/one.h5" "$work/mpi.h5" <<'PY'
import h5py, numpy, sys
one, mpi = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
same = all(numpy.array_equal(one[n][()], mpi[n][()], equal_nan=True)
           for n in ("samples/u", "statistics/mean", "statistics/std", "statistics/band_lower",
                     "statistics/band_upper"))
print("mpirun -n 2: members and statistics", "bit for bit the one-thread process's" if same else "DIFFER")
sys.exit(0 if same else 1)
PY
grep -h "samples: 64\|time steps" "$work/mpi.out"
