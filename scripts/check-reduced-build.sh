#!/usr/bin/env bash
# The path a system without RaceLab's Linux facilities takes (macOS), built and run on Linux:
# RACELAB_WITHOUT_LINUX_FACILITIES=1 compiles out stress preemption and holds, "quiet" asked of
# the kernel, the story holds, the interposed calls and the children's confinement. Checks that
# it builds and links, that `racelab doctor` and a run say the check is reduced, and prints two
# labs' `racelab run` as that system would see them (reduced verdicts, shown, not required), and
# runs the harness's own tests there (RaceLabTests: every one passes, or skips saying which
# facility this build lacks). The same build proves the
# reference fixes and the grading corpus memory-safe Swift (RACELAB_REFERENCE_SAFETY=1: the normal
# build compiles them without warnings, which cannot go with that check).
# Usage: scripts/check-reduced-build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/reduced
say() { printf '\n== %s\n' "$*"; }
fail() { echo "check-reduced-build: FAILED: $*" >&2; exit 1; }

say "build without the Linux facilities, reference fixes and corpus as memory-safe Swift ($scratch)"
export RACELAB_WITHOUT_LINUX_FACILITIES=1 RACELAB_REFERENCE_SAFETY=1
swift build --sanitize=thread --manifest-cache none --scratch-path "$scratch" --build-tests 2>&1 | grep -E "error|Compiling|Build complete" | tail -3
racelab="$(swift build --sanitize=thread --scratch-path "$scratch" --show-bin-path)/racelab"
[ -x "$racelab" ] || fail "no $racelab"

say "racelab doctor"
"$racelab" doctor | tee "$scratch/doctor.txt"
grep -q "no   stress pass" "$scratch/doctor.txt" || fail "doctor does not say preemption is missing"
grep -q "reduced check" "$scratch/doctor.txt" || fail "doctor does not say the check is reduced"

say "racelab run list-adder,actor-reentrancy --runs 1 (the reduced verdicts of two labs)"
# Two labs, not every lab: that a run says so, and what its verdicts are, is the same for all;
# the whole table (racelab run --all --runs 1 --jobs 16) is for docs/platforms.md's figures.
status=0
: > "$scratch/run.txt"
for lab in list-adder actor-reentrancy; do
    "$racelab" run "$lab" --runs 1 >> "$scratch/run.txt" 2>&1 || status=$?
done
grep -q "this system runs a reduced check" "$scratch/run.txt" || fail "a run does not say the check is reduced"
grep -E "^[a-z-]+ +[a-z0-9-]+ +(scripted|explore|stress|async) " "$scratch/run.txt" | awk '$NF != "yes"' > "$scratch/unmet.txt" || true
echo "  rows whose expectation is not met here: $(wc -l < "$scratch/unmet.txt") (run exit $status)"
sed 's/^/    /' "$scratch/unmet.txt"
tail -1 "$scratch/run.txt"

say "the harness's own tests (RaceLabTests), without the Linux facilities"
swift test --sanitize=thread --manifest-cache none --scratch-path "$scratch" --skip-build --disable-swift-testing \
    --parallel --num-workers 4 --filter RaceLabTests --xunit-output "$scratch/tests.xml" > "$scratch/tests.txt" 2>&1 \
    || { grep -E "error:" "$scratch/tests.txt" | head -20; fail "a test of the harness failed without the Linux facilities"; }
echo "  $(grep -c "<testcase " "$scratch/tests.xml" || true) tests, none failed (a test of a facility this build lacks skips itself)"
echo "check-reduced-build: builds, links, and says it is reduced"
