#!/usr/bin/env bash
# The unseen check set: maps of public collections that no change was tuned on, one map
# per file, for judging a change against noise (docs/experiments/2026-11-27-*). The
# collections are read from a git clone (or bare mirror) of the public repository
# 607011/Retroban, where they are `puzzles/xsb/<name>.xsb`; nothing of it is committed
# here, only the names of the maps drawn (`maps.txt`).
#
# usage: tools/unseen/build.sh RETROBAN_GIT_DIR OUT_DIR
#   writes OUT_DIR/<collection>/NNN.txt, NNN the level's place in its file (001 first),
#   for every collection named in maps.txt; `sed "s|^|OUT_DIR/|" maps.txt` then lists
#   the 200 maps drawn.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -eq 2 ] || { echo "usage: $0 RETROBAN_GIT_DIR OUT_DIR" >&2; exit 2; }
git_dir="$1"
out="$2"
show() { git --git-dir "$git_dir" show "HEAD:puzzles/xsb/$1.xsb"; }
for c in $(cut -d/ -f1 "$here/maps.txt" | sort -u); do
    mkdir -p "$out/$c"
    # A level starts at its ';' title line; its solution line is left out.
    show "$c" | tr -d '\r' |
        awk -v dir="$out/$c" '/^;/ { n++; file = sprintf("%s/%03d.txt", dir, n); next }
                              n > 0 && !/^Solution/ { print > file }'
done
echo "wrote $(find "$out" -name '*.txt' | wc -l) maps under $out" >&2
