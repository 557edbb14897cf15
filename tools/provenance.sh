# Sourced by the benchmark scripts: where a run comes from, taken before the script writes
# anything. A previous run's BENCHMARKS.md or bench/ changes do not make the code dirty.
# Sets: commit, date, cpu, cpus.
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git status --porcelain -- . ':!bench' ':!BENCHMARKS.md' 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
date="$(date -u '+%Y-%m-%d %H:%M UTC')"
cpu="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//' || true)"
cpus="$(nproc 2>/dev/null || echo '?')"
