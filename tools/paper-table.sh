#!/usr/bin/env bash
# Reproduce the table of the 2013 KTH report for this solver: the maps of
# samples/kth100 solved within 5 / 11 / 15 s by four search variants (A*,
# best-first, and both bidirectional), next to the report's own numbers.
#
# One harness run covers all four variants (they alternate map by map, so
# machine noise hits them alike) with a 15 s kill limit; the solver is told
# 14.8 s so it gives up on its own just before. Writes
#   target/bench/paper.csv, paper-summary.txt, paper.tsv, paper.md  (scratch)
# and splices paper.md between the paper markers of BENCHMARKS.md.
#
# PAPER_JOBS sets --jobs (default 1: the counts are time-based, and parallel
# runs share caches and memory bandwidth). Extra arguments go to the harness,
# e.g. `PAPER_JOBS=2 bash tools/paper-table.sh --limit 3` for a quick check.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# shellcheck source=provenance.sh
source tools/provenance.sh

jobs="${PAPER_JOBS:-1}"
set_path=samples/kth100
set_name=kth100
limits=5,11,15
kill_limit=15
solver_limit=14.8
out=target/bench
mkdir -p "$out"

# label | solver options | the 2013 report's maps solved within 5, 11, 15 s
variants=(
  "A*|--search forward --priority astar|12|15|16"
  "best-first|--search forward --priority greedy|56|60|64"
  "bidirectional best-first|--search bidir --priority greedy|76|81|82"
  "bidirectional A*|--search bidir --priority astar|39|41|43"
)

# Build once through the wrapper, then call the binaries directly so later
# steps do not rebuild (and cannot pick up a half-edited tree mid-run).
tools/harness --help >/dev/null
target_dir="${CARGO_TARGET_DIR:-target}"
case "$target_dir" in /*) ;; *) target_dir="$root/$target_dir" ;; esac
harness="$target_dir/release/harness"
solver="$(printf '%q' "$target_dir/release/sokoban")"

run=("$set_path" --time-limit "$kill_limit" --jobs "$jobs")
for v in "${variants[@]}"; do
  IFS='|' read -r label options _ <<<"$v"
  run+=(--solver "$solver $options --time-limit $solver_limit" --label "$label")
done

echo "paper-table: commit $commit, $set_path, ${#variants[@]} variants, $jobs job(s)" >&2
rc=0
"$harness" "${run[@]}" "$@" --within "$limits" --csv "$out/paper.csv" \
  | tee "$out/paper-summary.txt" || rc=${PIPESTATUS[0]}
if [ "$rc" -eq 130 ] || [ "$rc" -eq 2 ]; then
  echo "paper-table: harness stopped (exit $rc); BENCHMARKS.md left as it was" >&2
  exit "$rc"
fi

"$harness" within "$limits" "$out/paper.csv" --tsv > "$out/paper.tsv"

# %q keeps quoted arguments copy-pasteable.
extra=""
if [ $# -gt 0 ]; then extra="$(printf ' %q' "$@")"; fi
{
  echo "Last run: commit \`$commit\`, $date, on ${cpu:-unknown CPU} ($cpus CPUs)."
  echo "Command: \`PAPER_JOBS=$jobs bash tools/paper-table.sh$extra\`; raw rows in \`$out/paper.csv\`"
  echo "(recount with \`tools/harness within $limits $out/paper.csv\`)."
  echo
  echo "Maps of \`$set_name\` solved within 5 / 11 / 15 s. The report's numbers are copied from"
  echo "it (its own program and machine), so compare the ranking and spread, not the"
  echo "absolute counts. Here each variant ran once per map with a $kill_limit s harness limit"
  echo "(\`target/release/sokoban OPTIONS --time-limit $solver_limit\`); a map counts for a limit"
  echo "when its answer replayed correctly and its wall time, process start included, is at or"
  echo "below it. Median s is over the maps this solver solved within $kill_limit s."
  echo
  echo "| variant | solver options | 2013 report (of 100): 5 / 11 / 15 s | this solver: 5 / 11 / 15 s | maps | median s |"
  echo "| --- | --- | ---: | ---: | ---: | ---: |"
  for v in "${variants[@]}"; do
    IFS='|' read -r label options r5 r11 r15 <<<"$v"
    # paper.tsv: set, solver, maps, one count per limit, median_s.
    row="$(awk -F'\t' -v set="$set_name" -v label="$label" \
      'NR > 1 && $1 == set && $2 == label { print $3 "|" $4 " / " $5 " / " $6 "|" $7; exit }' "$out/paper.tsv")"
    IFS='|' read -r maps ours median <<<"${row:-||}"
    echo "| $label | \`$options\` | $r5 / $r11 / $r15 | ${ours:--} | ${maps:--} | ${median:--} |"
  done
  if [ "$rc" -ne 0 ]; then
    echo
    echo "**Warning:** the harness reported wrong answers or crashes in this run (exit $rc);"
    echo "see \`$out/paper-summary.txt\`."
  fi
} > "$out/paper.md"

"$harness" splice BENCHMARKS.md "$out/paper.md" --marker paper
echo "paper-table: updated BENCHMARKS.md (table also in $out/paper.md)" >&2
if [ "$rc" -ne 0 ]; then
  echo "paper-table: the harness reported wrong answers or crashes (exit $rc); see above" >&2
fi
exit "$rc"
