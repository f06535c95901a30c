#!/usr/bin/env bash
# scripts/bench-stress.sh SCTBENCH [RUNS] [SERIES]: how soon `racelab stress` shows the bugs of a
# public benchmark's small C programs, each of its two schedules alone, and as many plain runs
# (docs/your-code.md, "On a public benchmark").
#
# SCTBENCH is a checkout of https://github.com/mc-imperial/sctbench (Thomson, Donaldson and
# Betts' benchmark of buggy pthread programs). The programs used are the 23 of its
# concurrent-software-benchmarks and inspect sets whose sources are complete there (the
# dining-philosopher, bluetooth and token-ring ones need a header the repository lacks), each
# with the arguments the benchmark runs it with; and, as a control, that set's 18 correct
# (_ok) programs, where no way may show a bug (20 runs a series: some take a second a run). Each is built here with the toolchain's
# clang and ThreadSanitizer into a temporary folder (removed at the end); nothing of the
# benchmark is kept. Then `racelab bench stress` runs each list: SERIES series (default 3) of
# up to RUNS runs (default 100) each way, base seed 2026.
set -euo pipefail
usage() { echo "usage: scripts/bench-stress.sh SCTBENCH [RUNS] [SERIES]: SCTBENCH a checkout of github.com/mc-imperial/sctbench, RUNS from 1 (default 100), SERIES from 1 (default 3)" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 3 ] || usage
bench=$1
runs=${2:-100}
series=${3:-3}
[[ $runs =~ ^[1-9][0-9]*$ ]] && [[ $series =~ ^[1-9][0-9]*$ ]] || usage
cs="$bench/benchmarks/concurrent-software-benchmarks"
[ -d "$cs" ] || { echo "bench-stress: $bench is not a checkout of sctbench (no benchmarks/concurrent-software-benchmarks)" >&2; exit 2; }
cd "$(dirname "$0")/.."

racelab="$(swift build --sanitize=thread --show-bin-path)/racelab"
[ -x "$racelab" ] || { echo "bench-stress: build RaceLab first (make build)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/racelab-bench-stress.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The Swift toolchain's ThreadSanitizer runtime also intercepts libdispatch: link it when there.
toolchain_lib="$(dirname "$(dirname "$(command -v swift)")")/lib/swift/linux"
link=()
if [ -e "$toolchain_lib/libdispatch.so" ]; then
    link=(-L"$toolchain_lib" -ldispatch -lBlocksRuntime -Wl,-rpath,"$toolchain_lib")
fi
# The programs are old C: what clang now calls an error, gcc of their day let pass.
old_c=(-Wno-unknown-warning-option -Wno-error=implicit-function-declaration
    -Wno-error=incompatible-function-pointer-types -Wno-error=int-conversion -Wno-error=return-mismatch -w)

build() {  # build NAME SOURCE ARGS...: compile, then add "NAME BINARY ARGS" to the current list
    local name=$1 source=$2
    shift 2
    clang -fsanitize=thread -g -O1 -pthread "${old_c[@]}" "$source" -o "$work/bin/$name" "${link[@]}" \
        || { echo "bench-stress: $source did not build" >&2; exit 1; }
    echo "$name $work/bin/$name $*" >> "$list"
}

mkdir -p "$work/bin"
list="$work/buggy.txt"
for name in account_bad arithmetic_prog_bad carter01_bad circular_buffer_bad deadlock01_bad fsbench_bad \
    lazy01_bad phase01_bad queue_bad reorder_3_bad reorder_4_bad reorder_5_bad reorder_10_bad reorder_20_bad \
    stack_bad sync01_bad sync02_bad twostage_bad twostage_100_bad wronglock_bad wronglock_3_bad; do
    build "CS.$name" "$cs/$name.c"
done
build inspect.ctrace-test "$bench/benchmarks/inspect_examples/ctrace-test.c" 2
build inspect.qsort_mt "$bench/benchmarks/inspect_benchmarks/qsort_mt.c" -n 32 -f 4 -h 2 -v
list="$work/correct.txt"
for name in account_ok arithmetic_prog_ok circular_buffer_ok fanger01_ok fsbench_ok indexer_ok lazy01_ok \
    micro_2_ok micro_3_ok micro_10_ok phase01_ok queue_ok stack_ok stateful01_ok stateful06_ok stateful20_ok \
    sync01_ok sync02_ok; do
    build "CS.$name" "$cs/$name.c"
done

# Reports are counted here, not explained: without symbolizing them a run that reports takes
# 0.1 s, not 0.7 s.
export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS }symbolize=0"

echo "== the buggy programs"
"$racelab" bench stress "$work/buggy.txt" --runs "$runs" --seeds "$series" --seed 2026
echo
echo "== the correct programs (a control: no bug may show either way)"
"$racelab" bench stress "$work/correct.txt" --runs 20 --seeds "$series" --seed 2026
