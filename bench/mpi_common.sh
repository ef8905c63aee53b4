# Sourced by the MPI benches (mpi_sweep.sh, mpi_predict.sh) once they have set $root: the
# bhpm binary ($bhpm), a scratch folder ($work) removed on exit, Open MPI allowed to run as
# root, and `timed LABEL OUTPUT LOG COMMAND...`, which runs COMMAND -o OUTPUT with its
# stdout and stderr in LOG (printed, and the script ended, when it fails) and prints LABEL
# with the wall time.
bhpm="$root/build/src/bhpm"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # when run as root

timed() {
  local label="$1" output="$2" log="$3"
  shift 3
  local start end
  start=$(date +%s.%N)
  "$@" -o "$output" > "$log" 2>&1 || { cat "$log"; exit 1; }
  end=$(date +%s.%N)
  python3 -c "import sys; print(f'{sys.argv[1]:<42} {float(sys.argv[3]) - float(sys.argv[2]):7.1f} s')" \
    "$label" "$start" "$end"
}
