#!/usr/bin/env bash
# Measures `racelab explain` on hostile input: wall time and peak memory (GNU time's maximum
# resident set size) for each. The inputs are made here, from the real logs in
# Tests/RaceLabTests/Fixtures, in a temporary folder that is removed at the end.
#
#   make build && scripts/bench-explain.sh [path/to/racelab]
#
# The default racelab is the one `make build` makes (SwiftPM says where): unoptimised and built
# with ThreadSanitizer, the racelab learners run. Goal: 200 MB in under 60 s, under 500 MB.
set -eu
cd "$(dirname "$0")/.."
RACELAB=${1:-$(swift build --sanitize=thread --show-bin-path)/racelab}
FIXTURES=Tests/RaceLabTests/Fixtures
[ -x "$RACELAB" ] || { echo "bench-explain: no $RACELAB; run make build first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-explain: needs GNU time at /usr/bin/time" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Writes whole copies of SOURCE to TARGET until it holds at least BYTES.
repeat_to() {
    local source=$1 target=$2 bytes=$3
    local copies=$(( (bytes + $(stat -c %s "$source") - 1) / $(stat -c %s "$source") ))
    yes "$source" | head -n "$copies" | xargs cat > "$target"
}

# A 1 MiB line of text (no newline).
head -c 1048576 /dev/zero | tr '\0' 'x' > "$WORK/mib"

echo "making the inputs in $WORK ..."
# 1. 200 MB of real reports: six logs (16 reports of 6 kinds) repeated.
cat "$FIXTURES"/{several-reports,outside-program,lock-cycles,mutex-invalid,async-race,data-race-fd}.log > "$WORK/unit.log"
repeat_to "$WORK/unit.log" "$WORK/reports.log" $((200 * 1000 * 1000))

# 2. 1 MiB lines: 64 lines of 1 MiB, each followed by a real report; then a report whose
#    frame's symbol is 1 MiB long.
for _ in $(seq 64); do cat "$WORK/mib"; echo; cat "$FIXTURES/data-race-global.log"; done > "$WORK/long-lines.log"
{
    head -n 3 "$FIXTURES/data-race-global.log"
    printf '    #0 $s'; cat "$WORK/mib"; printf ' /work/fixtures/Sources/dataRaceGlobal/main.swift:6:13 (dataRaceGlobal+0xfc2a3)\n'
    tail -n +5 "$FIXTURES/data-race-global.log"
} >> "$WORK/long-lines.log"

# 3. A million warning headers, nothing else.
yes 'WARNING: ThreadSanitizer: data race (pid=4242)' | head -n 1000000 > "$WORK/headers.log"

# 4. 50 MB of a log printed with colour (TSAN_OPTIONS=color=always).
repeat_to "$FIXTURES/ansi-colour.log" "$WORK/ansi.log" $((50 * 1000 * 1000))

# 5. Deeply nested mangled names: Array<Array<...<Int>...>> nested 248 deep (997 characters,
#    just under the demangler's length limit) and 500,000 deep (2 MB).
nested() { printf '$s'; yes Say | head -n "$1" | tr -d '\n'; printf 'Si'; yes G | head -n "$1" | tr -d '\n'; printf 'D'; }
for depth in 248 500000; do
    head -n 3 "$FIXTURES/data-race-global.log"
    printf '    #0 '; nested "$depth"; printf ' /work/fixtures/Sources/dataRaceGlobal/main.swift:6:13 (dataRaceGlobal+0xfc2a3)\n'
    tail -n +5 "$FIXTURES/data-race-global.log"
done > "$WORK/nested.log"

# 6. The worst case for counting repeats: 20 MB of reports that all differ (in a line number),
#    so that each one is parsed and compared, none is counted by its fingerprint alone.
awk -v target=$((20 * 1000 * 1000)) '{ text = text $0 "\n" }
    END { while (size < target) { r = text; sub(/main\.swift:6:13/, "main.swift:" (1000 + n) ":13", r)
                                  printf "%s", r; size += length(r); n++ } }' \
    "$FIXTURES/data-race-global.log" > "$WORK/distinct.log"

# Runs racelab explain on one input; prints size, exit status, wall time, peak memory and the
# first line of what it said (or of its error).
measure() {
    local name=$1 size=$2; shift 2
    local out="$WORK/out" err="$WORK/err" status=0
    "$@" > "$out" 2> "$err" || status=$?
    local figures; figures=$(grep '^BENCH ' "$err" | tail -n 1)
    local said; said=$( (grep -v -e '^BENCH ' -e '^Command exited with non-zero status' "$err"; cat "$out") | head -n 1 | cut -c1-70)
    local seconds=0 kilobytes=0
    [ -n "$figures" ] && read -r _ seconds kilobytes <<< "$figures"
    printf '%-34s %9s  exit %s  %6.2f s  %5d MB  %s\n' "$name" "$size" "$status" "$seconds" $((kilobytes / 1024)) "$said"
}
timed() { /usr/bin/time -f 'BENCH %e %M' "$@"; }
size() { echo "$(( $(stat -c %s "$1") / 1000000 )) MB"; }

echo
echo "racelab: $RACELAB"
printf '%-34s %9s  %-6s  %8s  %8s  %s\n' input size status wall peak "first line of the output"
measure "200 MB of real reports" "$(size "$WORK/reports.log")" timed "$RACELAB" explain "$WORK/reports.log"
measure "1 MiB lines" "$(size "$WORK/long-lines.log")" timed "$RACELAB" explain "$WORK/long-lines.log"
measure "a million warning headers" "$(size "$WORK/headers.log")" timed "$RACELAB" explain "$WORK/headers.log"
measure "50 MB with ANSI colour codes" "$(size "$WORK/ansi.log")" timed "$RACELAB" explain "$WORK/ansi.log"
measure "deeply nested mangled names" "$(size "$WORK/nested.log")" timed "$RACELAB" explain "$WORK/nested.log"
measure "20 MB, every report different" "$(size "$WORK/distinct.log")" timed "$RACELAB" explain "$WORK/distinct.log"
measure "/dev/zero (timeout 60 s)" "endless" timeout 60 /usr/bin/time -f 'BENCH %e %M' "$RACELAB" explain /dev/zero
measure "1 GB of text, one line, on a pipe" "1074 MB" \
    bash -c "head -c 1073741824 /dev/zero | tr '\\0' a | /usr/bin/time -f 'BENCH %e %M' timeout 120 '$RACELAB' explain -"
