#!/usr/bin/env bash
# What adding a pass takes, shown on a copy of the package (a test cannot add an enum case): a
# throwaway pass is its case and its line in `RunMode.policy` (Sources/LabKit/LabModel.swift) and
# one file of its own (its ScenarioPass and its PassPolicy). Nothing else is edited. The copy must
# build, and then `racelab run` runs fixed variants in it (not broken ones: it does not demonstrate
# them), `racelab check` grades it, and `racelab run --help` describes it.
# Usage: scripts/check-new-pass.sh   (a full build of the copy: minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/new-pass
copy="$scratch/package"
say() { printf '\n== %s\n' "$*"; }
fail() { echo "check-new-pass: FAILED: $*" >&2; exit 1; }
# The copy and its build (~200 MB) go when the check passes; a failed run's stay for a look.
trap 'code=$?; if [ "$code" = 0 ]; then rm -rf "$scratch"; else echo "(the copy is kept in $scratch)"; fi' EXIT

say "a copy of the package with a throwaway pass ($copy)"
rm -rf "$copy" && mkdir -p "$copy"
git ls-files -z | xargs -0 cp --parents -t "$copy"
model="$copy/Sources/LabKit/LabModel.swift"
sed -i 's/^    case stress$/&\n    case throwaway/' "$model"
sed -i 's/^        case \.stress: StressPass\.policy$/&\n        case .throwaway: ThrowawayPass.policy/' "$model"
cat > "$copy/Sources/LabKit/ThrowawayPass.swift" <<'EOF'
/// A throwaway pass (scripts/check-new-pass.sh): the story as written, nothing armed.
struct ThrowawayPass: ScenarioPass {
    let schedule: [ScenarioRun.Exploration?]
    var holdsThreadEnds: Bool { false }

    init(iterations: Int) { schedule = Array(repeating: nil, count: max(iterations, 1)) }
}

extension ThrowawayPass {
    static let policy = PassPolicy(
        defaultIterations: 2, seedOffset: 1500, gradeRuns: 1, gradePoints: 1, isSystematic: false,
        isCalibrated: false, storyMode: .scripted, startOrder: 0, shardedStartOrder: 0, showsBroken: false,
        howItTries: "the story once more, as written", helpText: "plays the story as written (a throwaway)",
        makePass: { ThrowawayPass(iterations: $0.iterations) })
}
EOF
diff -rq Sources "$copy/Sources" | sed 's/^/  /' || true
[ "$(grep -c throwaway "$model")" = 2 ] || fail "the case or its policy line was not added"

say "build the copy"
(cd "$copy" && swift build --sanitize=thread --manifest-cache none 2>&1 | grep -E "error|Build complete" | tail -5)
racelab="$(cd "$copy" && swift build --sanitize=thread --show-bin-path)/racelab"
[ -x "$racelab" ] || fail "the copy did not build"

say "racelab run list-adder --runs 1"
(cd "$copy" && "$racelab" run list-adder --runs 1 --seed 5) > "$scratch/run.txt" 2>&1 || true
grep -E "^list-adder " "$scratch/run.txt"
grep -qE "^list-adder +fixed +throwaway +CLEAN" "$scratch/run.txt" || fail "the fixed variant was not run in the pass"
! grep -qE "^list-adder +broken +throwaway" "$scratch/run.txt" || fail "the broken variant was run in the pass"

say "racelab check list-adder (the unfixed exercise)"
(cd "$copy" && "$racelab" check list-adder --seed 5) > "$scratch/check.txt" 2>&1 || true
grep -E "pass \(" "$scratch/check.txt"
grep -q "^throwaway pass (" "$scratch/check.txt" || fail "the grade has no throwaway pass"
grep -q " 0/11: " "$scratch/check.txt" || fail "a lab's points do not count the pass's"

say "racelab run --help"
help=$("$racelab" run --help | tr -s ' \n' ' ')
grep -q -- "--mode scripted|explore|stress|throwaway\]" <<< "$help" || fail "--mode's values do not name it"
grep -q "throwaway plays the story as written" <<< "$help" || fail "--mode's help does not say what it does"
echo "check-new-pass: a new pass is its case, its policy line and one file"
