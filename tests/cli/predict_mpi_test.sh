#!/usr/bin/env bash
# mpirun -n 2 bhpm predict: the operator samples are shared out over the ranks (rank 0
# solves members 0-2, rank 1 members 3-4 of 5) and rank 0 writes the file; every member,
# and so every ensemble statistic, is bit for bit the one-process prediction's with the
# same seed, for both samplers, with a model discrepancy and with a rejected member (named
# with its rank), with adaptive steps (each member's own, the default) and with fixed ones.
# Refused under mpirun, naming the rank and the rule: a share whose members would depend on
# the others' (the PINN solver, a time budget), the distilled operator, fewer samples than
# ranks. Registered only when bhpm is built with MPI
# (CMake option BHPM_WITH_MPI; docs/parallel.md).
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/heat_run.sh"

# Open MPI refuses to start as root unless told that it is meant (CI runs as root), and
# oversubscription lets two ranks share one core on a smaller machine.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun -n 2 --oversubscribe)

train_heat_run

# One thread per process in both, so that every member is the same computation.
predict_both() {  # predict_both NAME ARGS...: one process into NAME-1.h5, two ranks into NAME-2.h5
  local name="$1"
  shift
  "$bhpm" --threads 1 predict "$work/run" --ic-from "$work/data.h5:1" --samples 5 -q "$@" \
    -o "$work/$name-1.h5" > "$work/out" 2>&1 &&
    "${mpirun[@]}" "$bhpm" --threads 1 predict "$work/run" --ic-from "$work/data.h5:1" \
      --samples 5 -q "$@" -o "$work/$name-2.h5" > "$work/out-mpi" 2>&1
}
same_ensembles() {  # same_ensembles NAME: every dataset of NAME-1.h5 equals NAME-2.h5's, NaN alike
  "$python" - "$work/$1-1.h5" "$work/$1-2.h5" <<'PY'
import h5py, numpy, sys
one, two = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
names = []
one.visititems(lambda name, item: names.append(name) if isinstance(item, h5py.Dataset) else None)
assert "samples/u" in names and "statistics/mean" in names and "statistics/band_upper" in names
for name in names:
    a, b = one[name][()], two[name][()]
    assert a.shape == b.shape and numpy.array_equal(a, b, equal_nan=True), name
assert one["samples"].attrs["failures"] == two["samples"].attrs["failures"]
for key in ("samples", "diverged", "rejected", "repaired"):
    assert one.attrs[key] == two.attrs[key], key
PY
}

predict_both conditioned
check "bhpm predict in one process and under mpirun -n 2 exit 0 (Algorithm 1)" $?
cat "$work/out-mpi"
grep -q "predict: 5 samples over 2 MPI ranks" "$work/out-mpi" && grep -q "samples: 5, diverged:" "$work/out-mpi"
check "rank 0 says the job's size and prints the whole ensemble's summary" $?
same_ensembles conditioned
check "Algorithm 1 under mpirun -n 2: every member and statistic bit for bit the single process's" $?

predict_both pathwise --sampler pathwise --set predict.discrepancy=fixed \
  --set predict.discrepancy_variance=1e-4 --set predict.discrepancy_timescale=0.25
check "pathwise samples with a model discrepancy, one process and two ranks, exit 0" $?
same_ensembles pathwise
check "pathwise samples and their discrepancy under mpirun -n 2: bit for bit the single process's" $?

predict_both fixed --sampler pathwise --set predict.step_tolerance=0
check "fixed steps, one process and two ranks, exit 0" $?
same_ensembles fixed
check "fixed steps under mpirun -n 2: bit for bit the single process's" $?

# Pathwise sample 3 of this run is ill-posed along u0: rejected, it is reported with the
# rank that solved it, and the file (its failures included) is still the one process's.
predict_both rejected --sampler pathwise --set predict.ill_posed=reject
check "an ensemble with a rejected member, one process and two ranks, exit 0" $?
grep -q "sample 3 on rank 1 rejected: ill-posed" "$work/out-mpi" && grep -q "sample 3 rejected: ill-posed" "$work/out"
check "the rejected member is reported with its rank under mpirun" $?
same_ensembles rejected
check "the ensemble with a rejected member under mpirun -n 2: bit for bit the single process's" $?

expect_refusal() {  # expect_refusal NAME PATTERN ARGS...
  local name="$1" pattern="$2"
  shift 2
  "${mpirun[@]}" "$bhpm" predict "$work/run" --ic-from "$work/data.h5:1" -q "$@" \
    -o "$work/refused.h5" > "$work/out" 2>&1
  local code=$?
  [ "$code" -ne 0 ] && grep -q -- "$pattern" "$work/out" && [ ! -f "$work/refused.h5" ]
  check "mpirun -n 2 bhpm predict refuses $name" $?
}
expect_refusal "the PINN solver" "error: predict on rank [01] of 2: predict: a share of the ensemble (members .*) needs the spectral solver" \
  --solver pinn
expect_refusal "a time budget" "needs predict.time_budget = 0" --time-budget 5
expect_refusal "the distilled operator" "operator distilled is solved by one process" --operator distilled
expect_refusal "fewer samples than ranks" "error: predict on rank [01] of 2: predict: 1 samples over 2 MPI ranks" --samples 1

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
