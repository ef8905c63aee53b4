#!/usr/bin/env bash
# Times one 4-member sweep (the heat equation's small configuration of the CLI tests,
# data.n_st = 128, 256 x 2 repeats, longer phases) three ways and prints the wall times:
#   1 process, 1 member at a time            bhpm --threads 1 sweep --jobs 1
#   1 process, 2 members at a time (fork)    bhpm --threads 2 sweep --jobs 2
#   2 MPI ranks, 1 member at a time each     mpirun -n 2 bhpm --threads 1 sweep
# each member on one thread, and checks that the three summaries are identical (a member's
# result does not depend on where it ran). On P cores the MPI sweep's speed-up over one
# member at a time is at most min(P, members); across nodes it is the same arithmetic
# with P the ranks (docs/parallel.md).
#   bash bench/mpi_sweep.sh   (build first: bash scripts/build.sh --target bhpm; needs mpirun)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/bench/mpi_common.sh"  # $bhpm, $work, timed

source "$root/tests/cli/heat_run.sh"  # write_heat_config: the CLI tests' small heat run
write_heat_config "$work/heat.toml"
sweep=(sweep "$work/heat.toml" --set data.test_experiments=1 --set train_leaves.iterations=3000
       --set train_root.iterations=300 --set train_joint.iterations=1000
       --vary data.n_st=128,256 --repeats 2 -q)

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
timed "1 process, 1 member at a time" "$work/one" "$work/one.out" "$bhpm" --threads 1 "${sweep[@]}" --jobs 1
timed "1 process, 2 members at a time (fork)" "$work/fork" "$work/fork.out" "$bhpm" --threads 2 "${sweep[@]}" --jobs 2
timed "mpirun -n 2, 1 member at a time per rank" "$work/mpi" "$work/mpi.out" \
  mpirun -n 2 --oversubscribe "$bhpm" --threads 1 "${sweep[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
for folder in fork mpi; do
  cmp -s "$work/one/sweep-summary.csv" "$work/$folder/sweep-summary.csv" \
    && echo "$folder: the same sweep-summary.csv as one member at a time" \
    || { echo "$folder: sweep-summary.csv DIFFERS from one member at a time"; exit 1; }
done
cat "$work/mpi/sweep.txt"
