#!/usr/bin/env bash
# A student kit's `swift test --sanitize=thread`, as a student runs it: untouched, it has one test
# per lab and nothing else, and a lab's test fails (with `racelab check`'s feedback); with
# list-adder solved, its test passes. Usage: scripts/kit-tests-e2e.sh [WORK_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d)}
# A work folder the script made goes when it passes (a kit, builds and grades: ~250 MB); one
# given as $1, or one of a failed run, stays for a look.
if [ -z "${1:-}" ]; then
    trap 'code=$?; if [ "$code" = 0 ]; then rm -rf "$WORK"; else echo "(work kept in $WORK)"; fi' EXIT
fi
mkdir -p "$WORK"  # racelab export makes the kit's folder only, not its parents
RACELAB="$(cd "$ROOT" && swift build --sanitize=thread --show-bin-path)/racelab"
started=$(date +%s)
say() { printf '\n== %s\n' "$*"; }
fail() { echo "kit-tests-e2e: FAILED: $*" >&2; exit 1; }

say "export a kit to $WORK/kit"
rm -rf "$WORK/kit"
(cd "$ROOT" && "$RACELAB" export "$WORK/kit" > /dev/null)
[ -f "$WORK/kit/Tests/LabChecks/LabChecks.swift" ] || fail "the kit has no Tests/LabChecks/LabChecks.swift"
[ ! -e "$WORK/kit/Tests/LabsTests" ] && [ ! -e "$WORK/kit/Tests/RaceLabTests" ] || fail "the harness's own tests were shipped"
labs=$(grep -c 'func test[0-9]*_' "$WORK/kit/Tests/LabChecks/LabChecks.swift")

say "untouched kit: one test per lab, and three of them run (expect 3 failing lab tests, nothing else)"
cd "$WORK/kit"
# Every lab has its test; three run (the first lab, a thread lab, a task lab): each test is the
# same template calling racelab check, and that every unsolved exercise is caught is the harness's
# own suite's (BrokenVariantsTests with ExerciseMatchesBrokenTests).
swift build --sanitize=thread --build-tests > "$WORK/build.log" 2>&1 || { tail -20 "$WORK/build.log"; fail "the kit's tests do not build"; }
swift test list --sanitize=thread --skip-build > "$WORK/list.log" 2>&1 || fail "swift test list failed"
listed=$(grep -c '^LabChecks\.LabChecks/test[0-9]*_' "$WORK/list.log" || true)
others=$(grep -E '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/' "$WORK/list.log" | grep -cv '^LabChecks\.LabChecks/' || true)
[ "$listed" = "$labs" ] && [ "$others" = 0 ] || fail "expected $labs lab tests and nothing else listed; got $listed and $others other(s)"
sample='LabChecks.LabChecks/(test01_list_adder|test11_deadlock|test21_actor_reentrancy)$'
swift test --sanitize=thread --skip-build --disable-swift-testing --filter "$sample" > "$WORK/untouched.log" 2>&1 && fail "an untouched kit's tests passed"
failed=$(grep -cE "^Test Case '.*' failed" "$WORK/untouched.log" || true)
passed=$(grep -cE "^Test Case '.*' passed" "$WORK/untouched.log" || true)
[ "$failed" = 3 ] && [ "$passed" = 0 ] || fail "expected 3 failing lab tests and none passing; $failed failed, $passed passed"
for lab in list-adder deadlock actor-reentrancy; do
    grep -q "$lab: not fixed yet" "$WORK/untouched.log" || fail "$lab's failing test does not carry racelab check's feedback"
done
echo "  $listed lab tests, one per lab; 3 of them run and failed, each with its feedback"

say "list-adder solved: its test passes"
"$ROOT/scripts/solve-kit.sh" "$WORK/kit" ListAdder
swift test --sanitize=thread --disable-swift-testing --filter LabChecks.LabChecks/test01_list_adder > "$WORK/solved.log" 2>&1 \
    || { tail -40 "$WORK/solved.log"; fail "a solved list-adder's test failed"; }
grep -qE "^Test Case '.*test01_list_adder' passed" "$WORK/solved.log" || fail "test01_list_adder did not run"
echo "  test01_list_adder passed"
echo "kit-tests-e2e: all checks passed in $(( $(date +%s) - started )) s"
