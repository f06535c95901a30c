#!/usr/bin/env bash
# Speed of the everyday commands, serial (one child at a time: --jobs 1, RACELAB_JOBS=1) and
# parallel (the default: RACELAB_JOBS, else four times the cores), side by side in one table:
#
#   make run                 racelab run --all --runs 2 (the Makefile's RUNS)
#   make test                swift test --sanitize=thread (after a build, so the tests alone)
#   racelab check            each lab's check on a kit whose exercises are the reference fixes
#   racelab grade-all        a class of SUBMISSIONS kits, each solving a different set of labs
#                            with files of its own (no two students share a solved file, so
#                            every lab they touched is built and run); the serial baseline
#                            grades the first SERIAL_SUBMISSIONS of them
#
#   scripts/bench-speed.sh [WORK_DIR]      SUBMISSIONS=20 SERIAL_SUBMISSIONS=3 by default
#   ONLY=run,test,check,grade              the figures to measure (default: all)
#   SERIAL_TEST=0                          skip the serial test run (its figure shows "-")
#
# It takes long (the serial runs are the slow part: about an hour on 2 cores). Run it on an
# otherwise idle machine; the figures are wall-clock seconds from `date`.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d /tmp/racelab-bench.XXXXXX)}
SUBMISSIONS=${SUBMISSIONS:-20}
SERIAL_SUBMISSIONS=${SERIAL_SUBMISSIONS:-3}
RACELAB="$(cd "$ROOT" && swift build --sanitize=thread --show-bin-path)/racelab"
mkdir -p "$WORK"
cd "$ROOT"
now() { date +%s.%N; }
say() { printf '\n== %s\n' "$*" >&2; }
results="$WORK/results.txt"
: > "$results"
# figure, serial seconds, parallel seconds, goal (seconds or -), unit note
record() { echo "$1|$2|$3|$4|$5" >> "$results"; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

ONLY=${ONLY:-run,test,check,grade}
wants() { case ",$ONLY," in *",$1,"*) return 0;; *) return 1;; esac; }

say "build"
make build >/dev/null
jobs=${RACELAB_JOBS:-$(( $(nproc) * 4 ))}
say "machine: $(nproc) cores, parallel runs use --jobs $jobs"

if wants run; then
say "make run, serial then parallel"
# An expectation that fails is reported in the figure's name, not a reason to stop the benchmark.
t0=$(now); "$RACELAB" run --all --runs 2 --jobs 1 > "$WORK/run-serial.txt" || true; t1=$(now)
"$RACELAB" run --all --runs 2 > "$WORK/run-parallel.txt" || true; t2=$(now)
unmet=""
for f in "$WORK/run-serial.txt" "$WORK/run-parallel.txt"; do grep -q "^All expectations met" "$f" || unmet="; NOT all met: $(basename "$f")"; done
record "make run (run --all --runs 2)$unmet" "$(seconds "$t0" "$t1")" "$(seconds "$t1" "$t2")" 60 "whole command"
fi

if wants test; then
say "make test, serial then parallel (built first)"
swift build --build-tests --sanitize=thread --manifest-cache none --explicit-target-dependency-import-check error >/dev/null
serial="-"
if [ "${SERIAL_TEST:-1}" != 0 ]; then
    t0=$(now); RACELAB_JOBS=1 swift test --sanitize=thread --manifest-cache none --explicit-target-dependency-import-check error \
        --disable-swift-testing > "$WORK/test-serial.txt" 2>&1 || true; t1=$(now)
    serial=$(seconds "$t0" "$t1")
fi
# A failing test is a figure too: the run is timed and its failures counted, not hidden.
# The README's command: each test in a process of its own, twice the cores at a time.
t1=$(now); make test > "$WORK/test-parallel.txt" 2>&1 || true; t2=$(now)
failed=$(grep -c ': error: ' "$WORK/test-parallel.txt" || true)
record "make test (tests, built; $failed failing assertion(s))" "$serial" "$(seconds "$t1" "$t2")" 120 "whole command"
fi

if wants check || wants grade; then
say "a kit whose exercises are the reference fixes, for racelab check"
rm -rf "$WORK/kit" "$WORK/solved"
"$RACELAB" export "$WORK/kit" >/dev/null
cp -R "$WORK/kit" "$WORK/solved"
scripts/solve-kit.sh "$WORK/solved"
make -C "$WORK/solved" build >/dev/null
fi
if wants check; then
worst_serial=0; worst_parallel=0; worst_lab=""; not_passing=""
for lab in $("$RACELAB" list --json | sed -n 's/^    "id" : "\([^"]*\)".*/\1/p'); do
    # A check that fails is reported below, not a reason to stop the benchmark.
    t0=$(now); (cd "$WORK/solved" && "$(swift build --sanitize=thread --show-bin-path)/racelab" check "$lab" --seed 7 --jobs 1 > "$WORK/check-$lab-serial.txt") || true; t1=$(now)
    (cd "$WORK/solved" && "$(swift build --sanitize=thread --show-bin-path)/racelab" check "$lab" --seed 7 > "$WORK/check-$lab-parallel.txt") || true; t2=$(now)
    s=$(seconds "$t0" "$t1"); p=$(seconds "$t1" "$t2")
    grep -q "^PASSING" "$WORK/check-$lab-parallel.txt" || { echo "bench: $lab's reference fix does not pass racelab check" >&2; not_passing="$not_passing $lab"; }
    echo "check $lab: serial $s s, parallel $p s" >&2
    if awk -v a="$p" -v b="$worst_parallel" 'BEGIN { exit !(a > b) }'; then worst_parallel=$p; worst_serial=$s; worst_lab=$lab; fi
done
record "racelab check, slowest lab ($worst_lab)${not_passing:+; NOT PASSING:$not_passing}" "$worst_serial" "$worst_parallel" 5 "one fixed exercise"
fi
if wants grade; then

say "a class of $SUBMISSIONS submissions"
rm -rf "$WORK/class" "$WORK/serial-class"
mkdir -p "$WORK/class" "$WORK/serial-class"
folders=($(ls "$ROOT/Labs" | while read -r lab; do [ -f "$ROOT/Labs/$lab/Fixed.swift" ] && echo "$lab"; done))
for i in $(seq 1 "$SUBMISSIONS"); do
    name=$(printf 'student-%02d' "$i")
    cp -R "$WORK/kit" "$WORK/class/$name"
    # Student i solves about two labs in three, a different set each, in files of their own.
    chosen=()
    for index in "${!folders[@]}"; do
        if [ $(( (index * 7 + i * 5) % 3 )) -ne 0 ]; then chosen+=("${folders[$index]}"); fi
    done
    MARK="// $name" scripts/solve-kit.sh "$WORK/class/$name" "${chosen[@]}"
    if [ "$i" -le "$SERIAL_SUBMISSIONS" ]; then cp -R "$WORK/class/$name" "$WORK/serial-class/$name"; fi
done
# The kit is built once into a kept workspace (as an autograder's set-up does), then each
# grade-all rebuilds only what each submission's exercises change.
rm -rf "$WORK/workspace"
t0=$(now); "$RACELAB" grade-all --prepare --kit "$WORK/kit" --workspace "$WORK/workspace" 2> "$WORK/prepare.log"; t1=$(now)
record "grade-all --prepare (the kit built once)" "-" "$(seconds "$t0" "$t1")" 600 "once per class"
t0=$(now); "$RACELAB" grade-all "$WORK/serial-class" --kit "$WORK/kit" --workspace "$WORK/workspace" --output "$WORK/grades-serial" \
    --seed 11 --jobs 1 2> "$WORK/grade-all-serial.log"; t1=$(now)
"$RACELAB" grade-all "$WORK/class" --kit "$WORK/kit" --workspace "$WORK/workspace" --output "$WORK/grades-parallel" --seed 11 \
    2> "$WORK/grade-all-parallel.log"; t2=$(now)
per_serial=$(awk -v a="$t0" -v b="$t1" -v n="$SERIAL_SUBMISSIONS" 'BEGIN { printf "%.1f", (b - a) / n }')
per_parallel=$(awk -v a="$t1" -v b="$t2" -v n="$SUBMISSIONS" 'BEGIN { printf "%.1f", (b - a) / n }')
record "grade-all, per submission ($SERIAL_SUBMISSIONS serial, $SUBMISSIONS parallel)" "$per_serial" "$per_parallel" 30 "after --prepare"
graded=$(grep -c ',graded,' "$WORK/grades-parallel/summary.csv" || true)
echo "grade-all: $graded of $SUBMISSIONS graded; summary $WORK/grades-parallel/summary.csv" >&2
fi

echo
echo "RaceLab speed, $(nproc) cores, parallel = --jobs $jobs ($(date -u +%Y-%m-%d))"
printf '%-58s %10s %10s %7s %8s %s\n' "figure" "serial s" "parallel s" "ratio" "goal s" "met"
while IFS='|' read -r figure serial parallel goal note; do
    ratio=$(awk -v s="$serial" -v p="$parallel" 'BEGIN { if (s == "-") print "-"; else printf "%.1fx", s / p }')
    met=$(awk -v p="$parallel" -v g="$goal" 'BEGIN { print (p < g ? "yes" : "NO") }')
    printf '%-58s %10s %10s %7s %8s %s\n' "$figure" "$serial" "$parallel" "$ratio" "< $goal" "$met"
done < "$results"
echo "(outputs in $WORK)"
