#!/usr/bin/env bash
# scripts/test-stability.sh [RUNS] [LOAD]: is `make test` stable under load?
#
# Runs `make test` RUNS times in a row (default 10) beside LOAD busy loops (default 3: bash
# subshells that only count, standing in for other work on the machine), records each run's
# result, duration and failing tests, and prints a summary table at the end.
# Exit status: 0 when every run passed, 1 when any failed, 2 bad usage.
#
# The tests are built first, without load, so that every run times the same thing.
# Every run's whole output is kept in a folder (printed at the end). The busy loops are
# killed when the script ends, however it ends (a trap); if the script itself is killed with
# SIGKILL, each loop sees within a fraction of a second that its parent is gone and ends (the
# test run then under way is not stopped: no trap runs on SIGKILL).
#
# TEST_COMMAND (default "make test") replaces the command run each time, to try this script
# on something small, e.g. TEST_COMMAND='swift test --filter ArgumentParserTests' (it then
# builds nothing first).
set -u

usage() {
    echo "usage: scripts/test-stability.sh [RUNS] [LOAD]: RUNS a whole number from 1 (default 10), LOAD busy loops from 0 to 64 (default 3)" >&2
    exit 2
}
[ $# -le 2 ] || usage
RUNS=${1:-10}
LOAD=${2:-3}
[[ $RUNS =~ ^[0-9]+$ ]] && [ "$((10#$RUNS))" -ge 1 ] || usage
[[ $LOAD =~ ^[0-9]+$ ]] && [ "$((10#$LOAD))" -le 64 ] || usage
RUNS=$((10#$RUNS))
LOAD=$((10#$LOAD))

cd "$(dirname "$0")/.." || exit 1
TEST_COMMAND=${TEST_COMMAND:-make test}
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/racelab-test-stability.XXXXXX") || exit 1

# Job control: each background job (a busy loop, a test run) is a process group of its own, so
# a run can be stopped whole (make, swift test and its test processes) from the trap.
set -m
loops=()
test_pid=""
stop_all() {
    if [ -n "$test_pid" ]; then
        kill -TERM -- "-$test_pid" 2>/dev/null
        wait "$test_pid" 2>/dev/null
        test_pid=""
    fi
    if [ ${#loops[@]} -gt 0 ]; then
        kill "${loops[@]}" 2>/dev/null
        wait "${loops[@]}" 2>/dev/null
    fi
    loops=()
}
trap stop_all EXIT
trap 'stop_all; echo "test-stability: interrupted; logs in $LOGS" >&2; exit 130' INT
trap 'stop_all; echo "test-stability: terminated; logs in $LOGS" >&2; exit 143' TERM

# Milliseconds since the epoch, and milliseconds as seconds with one decimal.
now_ms() { local t; t=$(date +%s%N); echo $((t / 1000000)); }
seconds() { printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100)); }

# The tests a log says failed: "Test Case 'Suite.test' failed", and tests that started but
# never ended (their process crashed or was killed), marked so.
failing_tests() {
    local log=$1 ended
    ended=$(grep -oE "Test Case '[^']+' (passed|failed)" "$log" | sed -E "s/^Test Case '([^']+)' .*/\1/" | sort -u)
    {
        grep -oE "Test Case '[^']+' failed" "$log" | sed -E "s/^Test Case '([^']+)' failed/\1/"
        grep -oE "Test Case '[^']+' started" "$log" | sed -E "s/^Test Case '([^']+)' started/\1/" | sort -u \
            | while read -r name; do grep -qxF "$name" <<<"$ended" || echo "$name(did-not-finish)"; done
    } | sort -u | paste -sd' ' -
}

if [ "$TEST_COMMAND" = "make test" ]; then
    echo "test-stability: building the tests first (no load, not timed)"
    SANITIZE=$(sed -n 's/^SANITIZE = //p' Makefile)
    # shellcheck disable=SC2086 # the Makefile's flags, one word each
    if ! ${SWIFT:-swift} build $SANITIZE --build-tests > "$LOGS/build.log" 2>&1; then
        echo "test-stability: the build failed; see $LOGS/build.log" >&2
        exit 1
    fi
fi

for ((i = 0; i < LOAD; i++)); do
    # Only builtins: counting, and now and then a check that this script is still its parent
    # (read from /proc: a script killed but not yet reaped would still answer kill -0).
    ( while read -r _ _ _ ppid _ < /proc/self/stat && [ "$ppid" = "$$" ]; do for ((n = 0; n < 20000; n++)); do :; done; done ) &
    loops+=($!)
done
echo "${loops[*]}" > "$LOGS/busy-loops.pids"
echo "test-stability: $RUNS run(s) of '$TEST_COMMAND' beside $LOAD busy loop(s) (bash counting loops) on $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') core(s); logs in $LOGS"

results=() durations=() failures=() passed=0
for ((run = 1; run <= RUNS; run++)); do
    log="$LOGS/run-$run.log"
    start=$(now_ms)
    # In the background and waited for, so that a signal to this script is handled at once.
    bash -c "$TEST_COMMAND" > "$log" 2>&1 < /dev/null &
    test_pid=$!
    if wait "$test_pid"; then result=PASS; else result=FAIL; fi
    test_pid=""
    elapsed=$(($(now_ms) - start))
    names=""
    if [ "$result" = PASS ]; then
        passed=$((passed + 1))
    else
        names=$(failing_tests "$log")
        names=${names:-(no-test-named)}
    fi
    results+=("$result") durations+=("$elapsed") failures+=("${names:--}")
    echo "run $run/$RUNS: $result in $(seconds "$elapsed") s${names:+: $names}"
done
stop_all

echo
echo "test-stability: '$TEST_COMMAND' beside $LOAD busy loop(s), $RUNS run(s) in a row"
printf '%-5s %-7s %9s  %s\n' RUN RESULT SECONDS "FAILING TESTS"
for ((i = 0; i < RUNS; i++)); do
    printf '%-5s %-7s %9s  %s\n' "$((i + 1))" "${results[i]}" "$(seconds "${durations[i]}")" "${failures[i]}"
done
sorted=$(printf '%s\n' "${durations[@]}" | sort -n)
min=$(head -1 <<<"$sorted") max=$(tail -1 <<<"$sorted") median=$(sed -n "$(((RUNS + 1) / 2))p" <<<"$sorted")
echo
echo "passed $passed of $RUNS; seconds min $(seconds "$min"), median $(seconds "$median"), max $(seconds "$max")"
flaky=$(printf '%s\n' "${failures[@]}" | tr ' ' '\n' | grep -v '^-$' | grep -v '^$' | sort | uniq -c | sort -rn)
if [ -n "$flaky" ]; then
    echo "failing tests (runs failed in: test):"
    sed 's/^ */  /' <<<"$flaky"
fi
echo "logs: $LOGS"
[ "$passed" -eq "$RUNS" ]
