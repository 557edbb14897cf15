#!/usr/bin/env bash
# Full benchmark: the harness over every level set in samples/ (called by
# `make bench`). Writes
#   target/bench/results.csv, summary.txt, table.md, compare.txt  (scratch)
#   bench/results.csv, bench/cactus.svg                           (commit-able baseline)
# and refreshes the table between the bench markers in BENCHMARKS.md.
#
# Extra harness options go on the command line or in BENCH_ARGS, e.g.
#   bash tools/bench.sh --jobs 2        BENCH_ARGS='--time-limit 5' make bench
# The run compares itself against the previous bench/results.csv (if any)
# before replacing it, so a regression shows up right away.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# shellcheck source=provenance.sh
source tools/provenance.sh

sets=()
for s in samples/*; do
  case "$s" in
    *.md) ;;
    *) if [ -d "$s" ] || [[ "$s" =~ \.(xsb|sok|slc|txt)$ ]]; then sets+=("$s"); fi ;;
  esac
done
if [ ${#sets[@]} -eq 0 ]; then
  echo "bench: no level sets in samples/" >&2
  exit 2
fi

# shellcheck disable=SC2206  # BENCH_ARGS is meant to be word-split
extra=(${BENCH_ARGS:-} "$@")
out=target/bench
mkdir -p "$out" bench

# Build once through the wrapper (it also prints --help cheaply), then call
# the binary directly so later steps do not rebuild.
tools/harness --help >/dev/null
target_dir="${CARGO_TARGET_DIR:-target}"
case "$target_dir" in /*) ;; *) target_dir="$root/$target_dir" ;; esac
harness="$target_dir/release/harness"

echo "bench: commit $commit, ${#sets[@]} sets: ${sets[*]}" >&2
rc=0
"$harness" "${sets[@]}" "${extra[@]}" \
  --csv "$out/results.csv" --markdown "$out/table.md" --plot "$out/cactus.svg" \
  --title "Sokoban solver, commit $commit ($date)" | tee "$out/summary.txt" || rc=${PIPESTATUS[0]}
if [ "$rc" -eq 130 ] || [ "$rc" -eq 2 ]; then
  echo "bench: harness stopped (exit $rc); BENCHMARKS.md and bench/ left as they were" >&2
  exit "$rc"
fi

if [ -f bench/results.csv ]; then
  echo >&2
  echo "bench: compared with the previous bench/results.csv (full list in $out/compare.txt):" >&2
  "$harness" --compare bench/results.csv "$out/results.csv" > "$out/compare.txt" || true
  grep -E '^(solved on|maps only|gained|lost|  [+-] |total on)' "$out/compare.txt" >&2 || true
fi
cp "$out/results.csv" bench/results.csv
cp "$out/cactus.svg" bench/cactus.svg

{
  echo "Last run: commit \`$commit\`, $date, on ${cpu:-unknown CPU} ($cpus CPUs)."
  # %q keeps quoted arguments (a --solver with spaces) copy-pasteable.
  args=""
  if [ ${#extra[@]} -gt 0 ]; then args="$(printf ' %q' "${extra[@]}")"; fi
  echo "Command: \`bash tools/bench.sh$args\`; raw rows in [bench/results.csv](bench/results.csv)."
  echo
  cat "$out/table.md"
  echo
  echo "![cactus plot: maps solved within each time limit](bench/cactus.svg)"
} > "$out/summary.md"
"$harness" splice BENCHMARKS.md "$out/summary.md"
echo "bench: updated BENCHMARKS.md, bench/results.csv, bench/cactus.svg" >&2
if [ "$rc" -ne 0 ]; then
  echo "bench: the harness reported wrong answers or crashes (exit $rc); see above" >&2
fi
exit "$rc"
