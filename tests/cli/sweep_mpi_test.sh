#!/usr/bin/env bash
# mpirun -n 2 bhpm sweep: the members are spread over the ranks (rank r trains members r,
# r + 2, ...) and rank 0 writes the same summary, byte for byte, as the sweep in one
# process with the same seeds and threads per member; rerunning resumes. A member that
# fails is reported with its rank; a rank that fails ends the job with a message naming
# the rank; other commands are refused under mpirun (docs/parallel.md). Registered only
# when bhpm is built with MPI (CMake option BHPM_WITH_MPI).
source "$(dirname "$0")/common.sh"

# Open MPI refuses to start as root unless told that it is meant (CI runs as root), and
# oversubscription lets two ranks share one core on a smaller machine.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun -n 2 --oversubscribe)

source "$(dirname "$0")/heat_run.sh"
write_heat_config "$work/sweep.toml"
sweep=(sweep "$work/sweep.toml" --set seed=3 --set data.test_experiments=1
       --set train_leaves.iterations=400 --set train_root.iterations=50
       --set train_joint.iterations=50 --vary data.n_st=128,256 --repeats 2 -q)

# One thread per member in both: the members' training is then the same computation.
"$bhpm" --threads 1 "${sweep[@]}" --jobs 1 -o "$work/single" > "$work/out" 2>&1
check "the sweep in one process exits 0" $?
"${mpirun[@]}" "$bhpm" --threads 1 "${sweep[@]}" -o "$work/mpi" > "$work/out" 2>&1
check "mpirun -n 2 bhpm sweep exits 0" $?
cat "$work/out"
grep -q "sweep: 4 runs (2 values x 2 repeats) over 2 ranks" "$work/out"
check "the sweep says it runs over 2 ranks" $?
cmp "$work/single/sweep-summary.csv" "$work/mpi/sweep-summary.csv"
check "sweep-summary.csv is the same as the single-process sweep's" $?
sed "s#$work/single#DIR#" "$work/single/sweep-members.csv" > "$work/single-members"
sed "s#$work/mpi#DIR#" "$work/mpi/sweep-members.csv" > "$work/mpi-members"
cmp "$work/single-members" "$work/mpi-members"
check "sweep-members.csv is the same (every member's RMSE and MNLP) but for the folder" $?
[ -f "$work/mpi/sweep.png" ] && [ -f "$work/mpi/sweep.txt" ]
check "rank 0 writes the table and the figure" $?

"${mpirun[@]}" "$bhpm" --threads 1 "${sweep[@]}" -o "$work/mpi" > "$work/out" 2>&1
check "rerunning the MPI sweep exits 0" $?
[ "$(cat "$work/mpi"/*/repeat-*/run.log | grep -c ': up to date')" -eq 12 ]
check "rerunning the MPI sweep resumes: every member's three stages are up to date" $?

# Member 1 (data.n_st=128, repeat 1) belongs to rank 1; an unreadable checkpoint in its
# folder makes its `bhpm run` fail, and the sweep goes on without it.
mkdir -p "$work/failing/data.n_st=128/repeat-1"
echo "not a checkpoint" > "$work/failing/data.n_st=128/repeat-1/leaves.ckpt"
"${mpirun[@]}" "$bhpm" --threads 1 "${sweep[@]}" -o "$work/failing" > "$work/out" 2>&1
code=$?
[ "$code" -ne 0 ] && grep -q "FAILED data.n_st=128 repeat 1: exit code 1 on rank 1, see " "$work/out" &&
  grep -q "error: sweep: 1 of 4 runs failed" "$work/out" && grep -Eq "^128 +1/2 " "$work/failing/sweep.txt"
check "a failed member is reported with its rank and left out of the summary" $?
log="$work/failing/data.n_st=128/repeat-1/run.log"
grep -q "leaves.ckpt: not a readable checkpoint" "$log" && ! grep -q "frame #" "$log"
check "the member's log names the unreadable checkpoint, without LibTorch's backtrace" $?

# Member 1 (data.n_st=128, repeat 1) belongs to rank 1; a folder where its log must go
# makes rank 1 fail at once.
mkdir -p "$work/broken/data.n_st=128/repeat-1/run.log"
"${mpirun[@]}" "$bhpm" --threads 1 "${sweep[@]}" -o "$work/broken" > "$work/out" 2>&1
code=$?
cat "$work/out"
[ "$code" -ne 0 ] && grep -q "error: sweep on rank 1 of 2: .*repeat-1/run.log: cannot open for writing" "$work/out"
check "a rank that fails ends the job with a message naming the rank and the cause" $?
[ ! -e "$work/broken/sweep-summary.csv" ]
check "a job ended by a failed rank writes no summary" $?

# Only sweep shares its work among ranks: any other command is refused under mpirun.
"${mpirun[@]}" "$bhpm" simulate "$work/sweep.toml" -o "$work/data.h5" > "$work/out" 2>&1
code=$?
[ "$code" -ne 0 ] && grep -q "error: bhpm simulate: started by an MPI launcher as one of several processes" "$work/out" &&
  [ ! -e "$work/data.h5" ]
check "mpirun -n 2 bhpm simulate is refused before any work" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
