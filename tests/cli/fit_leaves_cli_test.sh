#!/usr/bin/env bash
# bhpm fit-leaves: a small fit, resuming from its checkpoint, and refusals of bad input
# (architecture mismatch, too many experiments, NaN in the measurements).
source "$(dirname "$0")/common.sh"

cat > "$work/run.toml" <<'TOML'
seed = 3
[equation]
name = "burgers"
[domain]
t_end = 1.0
[solver]
modes = 32
output_dt = 0.1
[data]
train_experiments = 2
test_experiments = 0
n_st = 64
[leaves]
width = 8
hidden_layers = 2
[train_leaves]
iterations = 20
checkpoint_every = 10
TOML
"$bhpm" simulate "$work/run.toml" -o "$work/data.h5" -q >/dev/null 2>&1
check "simulate the data" $?

"$bhpm" fit-leaves "$work/run.toml" --data "$work/data.h5" -o "$work/run" -q > "$work/out" 2>&1
check "fit-leaves exits 0" $?
[ -f "$work/run/leaves.ckpt" ]
check "checkpoint written" $?

"$bhpm" fit-leaves "$work/run.toml" --data "$work/data.h5" -o "$work/run" -q \
  --set train_leaves.iterations=40 > "$work/out" 2>&1
grep -q "resumed at 20" "$work/out"
check "a longer rerun resumes from the checkpoint" $?

expect_error() {  # expect_error NAME TEXT ARGS...
  local name="$1" text="$2"
  shift 2
  "$bhpm" fit-leaves "$work/run.toml" --data "$work/data.h5" -q "$@" > "$work/out" 2> "$work/err"
  local code=$?
  [ "$code" -ne 0 ] && grep -q "error:" "$work/err" && grep -qF -- "$text" "$work/err"
  check "$name" $?
}
expect_error "architecture mismatch names the field" "leaves.width = 8" -o "$work/run" --set leaves.width=16
expect_error "too many experiments" "N = 3 experiments requested" -o "$work/other" --experiments 3
expect_error "too many points" "has 64 points, fewer than the n_st = 65 each leaf needs" -o "$work/other" --points 65
expect_error "unknown key" "train_leaves.iteration" -o "$work/other" --set train_leaves.iteration=5

cp "$work/data.h5" "$work/nan.h5"
"$python" -c "import h5py, sys; f = h5py.File(sys.argv[1], 'r+'); f['train/measurements/u'][1, 5] = float('nan')" "$work/nan.h5"
"$bhpm" fit-leaves "$work/run.toml" --data "$work/nan.h5" -o "$work/nan" -q > "$work/out" 2> "$work/err"
[ $? -ne 0 ] && grep -q "NaN or Inf" "$work/err"
check "NaN among the measurements is refused" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
