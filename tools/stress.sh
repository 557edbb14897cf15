#!/usr/bin/env bash
# make stress: the release solver on huge maps and on maps at each size limit, each run
# under a 1 GiB address-space limit (ulimit -v) with a short time limit. Every run must
# end with an exit code the map allows (0 or 1 for a map within the limits, 2 for one
# beyond), within the time limit + 0.5 s, without a crash; every answer is replayed by
# the harness's simulator (tools/src/harness/sim.rs, via `harness one`). A map left
# unsolved is reported, not counted as a failure. Prints a summary; exits 1 on a failure.
#
# Not part of `make test`: it takes about half a minute and measures wall time, so run it
# on a quiet machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cargo build --release --quiet --bin sokoban --bin harness
target_dir="${CARGO_TARGET_DIR:-target}"
case "$target_dir" in
  /*) ;;
  *) target_dir="$root/$target_dir" ;;
esac
solver="$target_dir/release/sokoban"
harness="$target_dir/release/harness"
memory_kb=1048576
slack=0.5

dir="$(mktemp -d "${TMPDIR:-/tmp}/sokoban-stress.XXXXXX")"
trap 'rm -rf "$dir"' EXIT

# ---------------------------------------------------------------- the maps

# A w by h grid of floor ('border' walls it in), then cells set by "row col char"
# lines on stdin, e.g. "1 1 @".
grid() {
  awk -v w="$1" -v h="$2" -v border="${3:-1}" '
    { cell[$1 "," $2] = $3 }
    END {
      for (r = 0; r < h; r++) {
        row = ""
        for (c = 0; c < w; c++) {
          ch = " "
          if (border && (r == 0 || c == 0 || r == h - 1 || c == w - 1)) ch = "#"
          if ((r "," c) in cell) ch = cell[r "," c]
          row = row ch
        }
        print row
      }
    }'
}

# Pad a file with empty lines (ignored after the map) to exactly `bytes` bytes.
pad_to() {
  local file="$1" bytes="$2" size
  size=$(wc -c < "$file" | tr -d ' ')
  head -c $((bytes - size)) /dev/zero | tr '\0' '\n' >> "$file"
}

# 256x256, walls around, 500 boxes on a lattice; goals next to them, or all far away in
# the bottom right corner.
open_map() {
  awk -v far="$1" 'BEGIN {
    print 1, 1, "@"; k = 0
    for (r = 4; r < 252 && k < 500; r += 6) for (c = 4; c < 252 && k < 500; c += 6) {
      print r, c, "$"; k++
      if (!far) print r + 2, c + 1, "."
    }
    for (k = 0; far && k < 500; k++) print 253 - 2 * int(k / 25), 253 - 2 * (k % 25), "."
  }' | grid 256 256
}

# A 3-wide corridor winding through `runs` runs 254 cells long. With "push", the box
# starts beside the player and its goal is the corridor's far end (~8,000 pushes for 31
# runs); with "walk", box and goal wait at that end (~8,000 steps, one push).
serpentine() {
  awk -v runs="$1" -v mode="$2" 'BEGIN {
    h = 4 * runs + 1
    for (k = 0; k + 1 < runs; k++) {
      r = 4 + 4 * k
      for (c = 1; c < 255; c++) {
        gap = (k % 2 == 0) ? (c >= 252) : (c <= 3)
        if (!gap) print r, c, "#"
      }
    }
    last = 4 * (runs - 1) + 2
    end = ((runs - 1) % 2 == 0) ? 254 : 1
    step = ((runs - 1) % 2 == 0) ? -1 : 1
    print 2, 1, "@"
    if (mode == "push") { print 2, 2, "$"; print last, end, "." }
    else { print last, end + 2 * step, "$"; print last, end + step, "." }
    print "h", h
  }' > "$dir/serpentine.cells"
  local h
  h=$(awk '$1 == "h" { print $2 }' "$dir/serpentine.cells")
  grep -v '^h ' "$dir/serpentine.cells" | grid 256 "$h"
}

# 499 boxes on goals on a lattice and one box next to its goal.
nearly_done() {
  awk 'BEGIN {
    print 1, 1, "@"; k = 0
    for (i = 0; i < 25; i++) for (j = 0; j < 20; j++) {
      r = 2 + 2 * i; c = 2 + 2 * j
      if (++k < 500) print r, c, "*"; else { print r, c, "$"; print r, c + 1, "." }
    }
  }' | grid 45 53
}

# One box left of its goal in a map `w` wide (border walls).
wide() { echo "1 1 @
1 2 \$
1 3 ." | grid "$1" 3; }
tall() { echo "1 1 @
1 2 \$
1 3 ." | grid 5 "$1"; }

# `n` boxes in rows, each with its goal below it (120x40, walls around).
boxes() {
  awk -v n="$1" 'BEGIN {
    print 1, 1, "@"; k = 0
    for (r = 3; r < 37 && k < n; r += 3) for (c = 2; c < 118 && k < n; c++) { print r, c, "$"; print r + 1, c, "."; k++ }
  }' | grid 120 40
}

# 256x256 without walls around: with "wall", one wall in the bottom right corner makes
# 65,535 open cells, the most accepted; without it all 65,536 are open.
area() {
  { echo "0 0 @"; echo "0 1 \$"; echo "0 2 ."
    if [ "$1" = wall ]; then echo "255 255 #"; else echo "255 254 \$"; echo "255 255 ."; fi
  } | grid 256 256 0
}

# Every limit at once: 256x256, one wall, 500 boxes, padded to 1 MiB.
everything() {
  awk 'BEGIN {
    print 0, 0, "@"; print 255, 255, "#"; k = 0
    for (r = 4; r < 252 && k < 500; r += 6) for (c = 4; c < 252 && k < 500; c += 6) {
      print r, c, "$"; print r + 2, c + 1, "."; k++
    }
  }' | grid 256 256 0
}

mkdir -p "$dir/maps"
m="$dir/maps"
open_map 0 > "$m/open-256x256-500-boxes.txt"
open_map 1 > "$m/open-256x256-500-boxes-goals-far.txt"
serpentine 31 push > "$m/serpentine-3-wide-8000-pushes.txt"
serpentine 31 walk > "$m/serpentine-3-wide-8000-steps.txt"
nearly_done > "$m/499-boxes-on-goals-1-off.txt"
wide 256 > "$m/limit-256-columns.txt"
wide 257 > "$m/over-257-columns.txt"
tall 256 > "$m/limit-256-rows.txt"
tall 257 > "$m/over-257-rows.txt"
boxes 500 > "$m/limit-500-boxes.txt"
boxes 501 > "$m/over-501-boxes.txt"
wide 5 > "$m/limit-1-MiB-input.txt"
pad_to "$m/limit-1-MiB-input.txt" 1048576
wide 5 > "$m/over-1-MiB-input.txt"
pad_to "$m/over-1-MiB-input.txt" 1048577
area wall > "$m/limit-65535-open-cells.txt"
area open > "$m/over-65536-open-cells.txt"
everything > "$m/limit-everything-at-once.txt"
pad_to "$m/limit-everything-at-once.txt" 1048576

# The largest maps run a second time with a shorter limit.
largest="open-256x256-500-boxes open-256x256-500-boxes-goals-far limit-65535-open-cells limit-everything-at-once"

# ---------------------------------------------------------------- the runs

failures=0 solved=0 unsolved=0 refused=0 runs=0
report="$dir/report.txt"
printf '%-40s %5s %6s %4s %-8s %7s %8s %6s  %s\n' map "-t" memory exit status wall_s peak_MB moves verdict > "$report"

run() { # map-file seconds [memory-MB]
  local file="$1" t="$2" mb="${3:-700}" name line status code wall peak moves detail verdict allowed
  name="$(basename "$file" .txt)"
  case "$name" in over-*) allowed="2" ;; *) allowed="0 1" ;; esac
  # The harness kills at t + 2 s, so an overrun is measured rather than cut short.
  line=$("$harness" one "$file" --time-limit "$(awk -v t="$t" 'BEGIN { print t + 2 }')" \
    --solver "ulimit -v $memory_kb; exec '$solver' -t $t --memory $mb")
  # Tabs are blanks to `read`, which would merge the empty fields of an unsolved run.
  IFS=$'\x1f' read -r status code wall peak moves _ detail <<< "${line//$'\t'/$'\x1f'}"
  verdict=ok
  case "$status" in
    solved) solved=$((solved + 1)) ;;
    unsolved) unsolved=$((unsolved + 1)); verdict="unsolved: ${detail#sokoban: }" ;;
    bad-exit) if [ "$code" = 2 ]; then refused=$((refused + 1)); verdict="refused: ${detail#exit 2: sokoban: }"; fi ;;
  esac
  if [[ " $allowed " != *" $code "* ]]; then
    verdict="FAIL: exit $code, wanted ${allowed// / or }: $detail"
  elif [ "$status" = wrong ]; then
    verdict="FAIL: wrong answer: $detail"
  elif awk -v w="$wall" -v t="$t" -v s="$slack" 'BEGIN { exit !(w > t + s) }'; then
    verdict="FAIL: ran ${wall} s, over ${t} s + ${slack} s"
  elif [ "$peak" -gt $(( (mb + 64) * 1024 )) ]; then
    # The level's tables and the searches' all come out of --memory.
    verdict="FAIL: peak memory ${peak} KB, over $mb MB + 64 MB"
  fi
  case "$verdict" in FAIL*) failures=$((failures + 1)) ;; esac
  runs=$((runs + 1))
  printf '%-40s %5s %6s %4s %-8s %7.2f %8.1f %6s  %s\n' "$name" "$t" "$mb" "$code" "$status" "$wall" \
    "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')" "${moves:--}" "$verdict" >> "$report"
  echo "stress: $name -t $t --memory $mb: $status, exit $code, ${wall} s" >&2
}

for file in "$m"/*.txt; do
  run "$file" 2
done
for name in $largest; do
  run "$m/$name.txt" 0.5
done
# Less memory than the tables of the largest map need, then a little more.
for mb in 100 200; do
  run "$m/open-256x256-500-boxes.txt" 2 "$mb"
done

echo
cat "$report"
echo
echo "stress: $runs runs under ulimit -v $memory_kb: $solved solved (answers replayed), $unsolved unsolved" \
  "(reported, not failures), $refused refused beyond a limit, $failures failed"
[ "$failures" -eq 0 ]
