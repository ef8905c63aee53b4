#!/usr/bin/env bash
# Every benchmark figure in one run: runs the quick benchmarks one after another, each alone,
# and writes the table of their figures (docs/benchmarks.md). Builds nothing: it expects
# build/bench/* and build/src/bhpm (`bash scripts/build.sh`). Nothing is asserted: a
# benchmark prints, and machines are noisy.
#   bash bench/all.sh [--out DIR] [--run RUN_DIR] [--kdv-run RUN_DIR] [--with-main-job]
#                     [--leaf-fit-steps N] [--only NAME,NAME..] [--table FILE] [--limit SECONDS]
# Runs, in this order (an estimate from the figures of docs/results-log.md: about 8 minutes
# on the 2-core development machine, under 15; the main job adds 4 to 10; the table lists
# each benchmark's wall time):
#   simulate_datasets                 the training sets' time, errors against exact solutions
#   etdrk4_accuracy                   solver error against step and tolerance (about 2.5 min)
#   bounded_solve                     the bounded-domain solver against exact solutions (seconds)
#   system_solve                      field systems in 1-D and 2-D against exact solutions,
#                                     a 2-D step's cost against the points (seconds)
#   leaf_step, sparse_gp_step,        one training step of each kind, with its objective
#   joint_step
#   pinn_step 12 4 1                  one PINN iteration, on one thread (two are many times
#                                     slower on a busy 2-core machine)
#   leaf_fit N                        phase 1 on one Burgers experiment, N = 2000 Adam steps
#                                     (--leaf-fit-steps; the paper's 10000 take 5 times as long)
#   predict_ensemble RUN_DIR          32-sample predictions (about 3 min); RUN_DIR is --run,
#                                     else out/quickstart when it holds joint.ckpt (after
#                                     scripts/quickstart.sh), else skipped
#   held_out_predictions RUN_DIR      `bhpm predict` on held-out 0 and 6 of that run, inside
#                                     and outside the data's coverage, 3 times each (1 min)
#   held_out_predictions_kdv          the same on a kdv-quick run's held-out 0 and 6, once
#                                     (about 1.5 min): only with --kdv-run RUN_DIR
#   bash bench/main_job_time.sh       only with --with-main-job (or --only main_job): the
#                                     README's main job, its stages and accuracy
# For each it records, in DIR (default build/bench-results/YYYY-MM-DD-HHMMSS/):
#   NN-NAME.stdout, NN-NAME.stderr    what it printed; its headline figures are the lines
#                                     `figure: name | value unit | accuracy: .. | note`
#                                     (bench/figure_line.h)
#   NN-NAME.meta                      command, start date, seconds, exit status, the load
#                                     average (/proc/loadavg) before and after
# and machine.txt (CPU model, cores, memory, kernel, commit). Then
# `python3 bench/benchmark_table.py DIR -o FILE` writes the table: FILE is --table, else
# docs/benchmarks.md for a whole run and DIR/benchmarks.md with --only. A benchmark that
# fails is recorded with its exit status and the others go on; the script then exits 1.
# --limit: seconds after which a benchmark is stopped (default 1800; exit status 124).
# Timings on a busy machine are not comparable: run it alone (the load before each
# benchmark is in the table).
set -euo pipefail
{  # the whole script is read before it runs: editing this file during a run cannot change it
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

usage() {
  echo "usage: bash bench/all.sh [--out DIR] [--run RUN_DIR] [--kdv-run RUN_DIR]" \
       "[--with-main-job] [--leaf-fit-steps N] [--only NAME,NAME..] [--table FILE]" \
       "[--limit SECONDS]" >&2
  exit 2
}

out="build/bench-results/$(date +%Y-%m-%d-%H%M%S)"
run_dir=""
kdv_run_dir=""
main_job=0
leaf_fit_steps=2000
only=""
table=""
limit=1800
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || usage; out="$2"; shift 2 ;;
    --run) [ $# -ge 2 ] || usage; run_dir="$2"; shift 2 ;;
    --kdv-run) [ $# -ge 2 ] || usage; kdv_run_dir="$2"; shift 2 ;;
    --with-main-job) main_job=1; shift ;;
    --leaf-fit-steps) [ $# -ge 2 ] || usage; leaf_fit_steps="$2"; shift 2 ;;
    --only) [ $# -ge 2 ] || usage; only="$2"; shift 2 ;;
    --table) [ $# -ge 2 ] || usage; table="$2"; shift 2 ;;
    --limit) [ $# -ge 2 ] || usage; limit="$2"; shift 2 ;;
    -h|--help) usage ;;
    *) echo "error: unknown argument $1" >&2; usage ;;
  esac
done
if [ -z "$table" ]; then
  if [ -n "$only" ]; then table="$out/benchmarks.md"; else table="docs/benchmarks.md"; fi
fi

# name and command of each benchmark, in the order they run
names=(simulate_datasets etdrk4_accuracy bounded_solve system_solve leaf_step sparse_gp_step joint_step pinn_step leaf_fit
       predict_ensemble held_out_predictions held_out_predictions_kdv main_job)
declare -A commands=(
  [simulate_datasets]="build/bench/simulate_datasets"
  [etdrk4_accuracy]="build/bench/etdrk4_accuracy"
  [bounded_solve]="build/bench/bounded_solve"
  [system_solve]="build/bench/system_solve"
  [leaf_step]="build/bench/leaf_step"
  [sparse_gp_step]="build/bench/sparse_gp_step"
  [joint_step]="build/bench/joint_step"
  [pinn_step]="build/bench/pinn_step 12 4 1"
  [leaf_fit]="build/bench/leaf_fit $leaf_fit_steps"
  [predict_ensemble]="build/bench/predict_ensemble"
  [held_out_predictions]="bash bench/held_out_predictions.sh"
  [held_out_predictions_kdv]="bash bench/held_out_predictions.sh"
  [main_job]="bash bench/main_job_time.sh"
)
if [ -n "$only" ]; then
  for name in ${only//,/ }; do
    [ -n "${commands[$name]:-}" ] || { echo "error: --only: no benchmark $name (one of ${names[*]})" >&2; exit 2; }
  done
fi
selected() {  # selected NAME: whether NAME runs (--only, else every one)
  [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]
}
if [ -n "$only" ] && selected main_job; then main_job=1; fi  # --only main_job asks for it
for given in "$run_dir" "$kdv_run_dir"; do
  if [ -n "$given" ] && [ ! -f "$given/joint.ckpt" ]; then
    echo "error: $given (--run or --kdv-run): no joint.ckpt there (not a trained run folder)" >&2
    exit 2
  fi
done

missing=()
for name in "${names[@]}"; do
  case "$name" in main_job|held_out_predictions*) continue ;; esac
  selected "$name" || continue
  program="${commands[$name]%% *}"
  [ -x "$program" ] || missing+=("$program")
done
if { [ "$main_job" = 1 ] || [ -n "$run_dir$kdv_run_dir" ] || [ -f out/quickstart/joint.ckpt ]; } &&
   [ ! -x build/src/bhpm ]; then
  missing+=(build/src/bhpm)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "error: not built: ${missing[*]}" >&2
  echo "build them first: bash scripts/build.sh (bhpm, the benchmarks under build/bench/)" >&2
  exit 1
fi
python3 -c "" 2>/dev/null || { echo "error: no python3 (bench/benchmark_table.py needs it)" >&2; exit 1; }

mkdir -p "$out"
{
  echo "cpu: $(grep -m1 -E '^(model name|Model|cpu model)' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || uname -m)"
  echo "cores: $(nproc) (CPUs this process may use), $(grep -c '^processor' /proc/cpuinfo) logical CPUs"
  echo "memory: $(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
  echo "kernel: $(uname -sr)"
  commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit (with uncommitted changes)"
  fi
  echo "commit: $commit"
  echo "started: $(date '+%Y-%m-%d %H:%M:%S %z')"
  echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"
cat "$out/machine.txt"
echo "logs: $out"

failed=0
index=0
run_start="$(date +%s)"
for name in "${names[@]}"; do
  selected "$name" || continue
  index=$((index + 1))
  stem="$out/$(printf '%02d' "$index")-$name"
  command="${commands[$name]}"
  skip=""
  if [ "$name" = predict_ensemble ] || [ "$name" = held_out_predictions ]; then
    run="$run_dir"
    if [ -z "$run" ] && [ -f out/quickstart/joint.ckpt ]; then run=out/quickstart; fi
    if [ -z "$run" ]; then
      skip="no trained run: pass --run RUN_DIR, or run bash scripts/quickstart.sh first"
    else
      command="$command $run"
    fi
  fi
  if [ "$name" = held_out_predictions_kdv ]; then
    if [ -z "$kdv_run_dir" ]; then
      skip="no kdv-quick run (--kdv-run RUN_DIR)"
    else
      command="$command $kdv_run_dir --repeats 1"
    fi
  fi
  if [ "$name" = main_job ] && [ "$main_job" = 0 ]; then
    skip="not asked for (--with-main-job)"
  fi
  {
    echo "name: $name"
    echo "command: $command"
  } > "$stem.meta"
  if [ -n "$skip" ]; then
    echo "skipped: $skip" >> "$stem.meta"
    echo "== $name: skipped ($skip)"
    continue
  fi
  echo "== $name: $command"
  load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
  started="$(date '+%Y-%m-%d %H:%M:%S %z')"
  start="$(date +%s.%N)"
  status=0
  # shellcheck disable=SC2086  # the command's words are its arguments
  timeout "$limit" $command > "$stem.stdout" 2> "$stem.stderr" || status=$?
  seconds="$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
  {
    echo "started: $started"
    echo "seconds: $seconds"
    echo "exit: $status"
    echo "load_before: $load_before"
    echo "load_after: $(cut -d' ' -f1-3 /proc/loadavg)"
  } >> "$stem.meta"
  grep '^figure: ' "$stem.stdout" | sed 's/^figure: /   /' || true
  echo "   $seconds s, exit $status, load average $load_before before"
  [ "$status" -eq 0 ] || { failed=1; echo "   failed: see $stem.stderr"; }
done

echo "finished: $(date '+%Y-%m-%d %H:%M:%S %z')" >> "$out/machine.txt"
python3 bench/benchmark_table.py "$out" -o "$table"
echo "table: $table ($(($(date +%s) - run_start)) s for the benchmarks)"
exit "$failed"
}
