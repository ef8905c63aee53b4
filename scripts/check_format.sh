#!/usr/bin/env bash
# Checks that every C++ file of src/, tests/ and bench/ is formatted as .clang-format says
# (exit 1 and the files that differ, with clang-format's diagnostics, when one is not);
# with --fix, formats them in place instead. Needs clang-format (scripts/install-deps.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if ! command -v clang-format >/dev/null 2>&1; then
  echo "check_format: clang-format not found (install it: bash scripts/install-deps.sh)" >&2
  exit 1
fi
mapfile -t files < <(find src tests bench -name '*.cpp' -o -name '*.h' | sort)
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  echo "check_format: formatted ${#files[@]} files"
  exit 0
fi
unformatted=()
for file in "${files[@]}"; do
  clang-format --dry-run --Werror "$file" >/dev/null 2>&1 || unformatted+=("$file")
done
if [ ${#unformatted[@]} -gt 0 ]; then
  printf 'check_format: not formatted (bash scripts/check_format.sh --fix): %s\n' "${unformatted[@]}"
  clang-format --dry-run "${unformatted[0]}" 2>&1 | head -20
  exit 1
fi
echo "check_format: ${#files[@]} files formatted as .clang-format says"
