# Sourced by the bench scripts. timed LABEL OUTPUT LOG COMMAND... runs COMMAND -o OUTPUT with
# its stdout and stderr in LOG (printed, and the script ended, when it fails) and prints
# LABEL with the wall time.
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
