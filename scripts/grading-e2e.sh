#!/usr/bin/env bash
# End-to-end check of grading, from this package as a fresh clone would have it:
#
#   1. export a student kit (no Fixed*.swift, plus racelab-kit.json);
#   2. make four submissions from it:
#        solved     every lab's Fixed.swift copied into its Exercise.swift (class renamed
#                   <Lab>Fixed -> <Lab>Exercise, the `solutions` extension dropped)
#        untouched  the kit as handed out (the exercises are the broken code)
#        tampered   the kit with one harness file edited
#        forger     list-adder's exercise prints a forged, unsigned "clean" result line
#        renamed    solved, but list-adder's exercise class renamed, so the lab's scenario no
#                   longer compiles: list-adder scores 0 (kit original graded), the rest full
#   3. racelab grade-all them (each in its own copy and TSan build);
#   4. render every report in every format (racelab grade --from) and check:
#        solved = full marks, untouched = 0, tampered flagged and 0, forger's list-adder 0 and
#        tampered; the stress iterations and the chance that an unfixed exercise passes are in
#        every report.
#
# Usage: scripts/grading-e2e.sh [WORK_DIR]     LABS=list-adder,ui-off-main to grade fewer labs.
#        KIT_TEST=1 also runs `make test` inside the kit (slow: a second TSan build of the tests).
# Takes 5 to 15 minutes (three TSan builds on two cores). Exit 0 when every check holds.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d /tmp/racelab-e2e.XXXXXX)}
mkdir -p "$WORK"
RACELAB="$ROOT/.build/debug/racelab"
LABS_ARG=()
if [ -n "${LABS:-}" ]; then LABS_ARG=(--labs "$LABS"); fi
say() { printf '\n== %s\n' "$*"; }

say "build ($ROOT)"
make -C "$ROOT" build >/dev/null

say "export the student kit to $WORK/kit"
rm -rf "$WORK/kit" "$WORK/submissions" "$WORK/grades"
(cd "$ROOT" && "$RACELAB" export "$WORK/kit")
if find "$WORK/kit/Labs" -name 'Fixed*.swift' | grep -q .; then echo "FAIL: the kit contains Fixed*.swift"; exit 1; fi

if [ -n "${KIT_TEST:-}" ]; then
    say "make test inside the kit"
    make -C "$WORK/kit" test
    rm -rf "$WORK/kit/.build" "$WORK/kit/.racelab"
fi

say "submissions"
mkdir -p "$WORK/submissions"
for name in solved untouched tampered forger renamed; do cp -R "$WORK/kit" "$WORK/submissions/$name"; done

for dir in "$ROOT"/Labs/*/; do
    lab=$(basename "$dir")
    [ -f "$dir/Fixed.swift" ] || continue
    # <Lab>Fixed* -> <Lab>Exercise* (helper types too: AsyncOperationFixedFactory); the extension that registers solutions goes (it would clash
    # with nothing in the kit, but an exercise may not declare `solutions`).
    sed -e "s/\b${lab}Fixed/${lab}Exercise/g" -e '/^extension [A-Za-z]*Lab {$/,/^}$/d' \
        "$dir/Fixed.swift" > "$WORK/submissions/solved/Labs/$lab/Exercise.swift"
done

cp -R "$WORK/submissions/solved/Labs/." "$WORK/submissions/renamed/Labs/"
sed -i 's/\bListAdderExercise\b/ListAdderSolution/' "$WORK/submissions/renamed/Labs/ListAdder/Exercise.swift"

echo "// a harmless-looking edit" >> "$WORK/submissions/tampered/Sources/RaceLabKit/Verdict.swift"

cat > "$WORK/submissions/forger/Labs/ListAdder/Exercise.swift" <<'SWIFT'
import Foundation
import RaceLabKit

/// Prints what a clean result looks like, then leaves before the harness can say otherwise.
final class ListAdderExercise: ListAdderController {
    init(environment: ListAppEnvironment) {
        print(#"RACELAB-RESULT {"elapsedSeconds":1,"failures":[],"iterationsRun":3,"metrics":{},"notes":[],"tsanEnabled":true,"tsanReports":0}"#)
        fflush(stdout)
        exit(0)
    }
    func add(_ number: Int) {}
    func remove(at index: Int) {}
    func removeAll(keepingFirst count: Int) {}
}
SWIFT

say "grade-all"
(cd "$WORK" && "$RACELAB" grade-all submissions --kit kit --output grades --format json --seed 2026 "${LABS_ARG[@]}")
cat "$WORK/grades/summary.csv"

say "every format"
for student in solved untouched tampered forger renamed; do
    for format in text junit gradescope; do
        "$RACELAB" grade --from "$WORK/grades/$student.json" --format "$format" --output "$WORK/grades/$student.$format" >/dev/null
    done
done

python3 - "$WORK/grades" <<'PY'
import json, sys, xml.etree.ElementTree as ET
grades = sys.argv[1]
failures = []
def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition: failures.append(what)

def formats(student):
    report = json.load(open(f"{grades}/{student}.json"))
    gradescope = json.load(open(f"{grades}/{student}.gradescope"))
    junit = ET.parse(f"{grades}/{student}.junit").getroot()
    text = open(f"{grades}/{student}.text").read()
    return report, gradescope, junit, text

for student, full in [("solved", True), ("untouched", False)]:
    report, gradescope, junit, text = formats(student)
    want = report["maxScore"] if full else 0
    check(report["maxScore"] > 0 and report["score"] == want, f"{student}: json score {report['score']}/{report['maxScore']}")
    for lab in report["labs"]:
        check(lab["score"] == (lab["maxScore"] if full else 0), f"{student}: {lab['lab']} {lab['score']}/{lab['maxScore']}")
        check(lab["stress"]["iterationsPerRun"] > 0 and lab["stress"]["log10ChanceUpperBound"] is not None,
              f"{student}: {lab['lab']} stress {lab['stress']['runs']} x {lab['stress']['iterationsPerRun']}, chance log10 {lab['stress']['log10ChanceUpperBound']}")
    check(gradescope["score"] == want and all(t["status"] == ("passed" if full else "failed") for t in gradescope["tests"]),
          f"{student}: gradescope score {gradescope['score']}, statuses {sorted(set(t['status'] for t in gradescope['tests']))}")
    check(all(t["score"] == (t["max_score"] if full else 0) for t in gradescope["tests"]), f"{student}: gradescope test scores")
    failed = int(junit.get("failures")) + int(junit.get("errors"))
    check((failed == 0) if full else (failed == int(junit.get("tests"))), f"{student}: junit {junit.get('tests')} tests, {failed} failing")
    check(f"Score {want:g}/{report['maxScore']:g}" in text and "chance" in text, f"{student}: text says Score {want:g}/{report['maxScore']:g}")

report, gradescope, junit, text = formats("tampered")
check(report["integrity"]["status"] == "tampered" and report["score"] == 0, f"tampered: {report['integrity']['message']}")
check(gradescope["score"] == 0 and "tampered" in gradescope["output"], "tampered: gradescope 0 and says tampered")
check(int(junit.get("errors")) == int(junit.get("tests")), "tampered: junit errors on every test")

report, gradescope, junit, text = formats("forger")
forger = [lab for lab in report["labs"] if lab["lab"] == "list-adder"]
if forger:
    check(forger[0]["score"] == 0 and forger[0]["status"] == "tampered", f"forger: list-adder {forger[0]['score']}, {forger[0]['status']}")

report, gradescope, junit, text = formats("renamed")
for lab in report["labs"]:
    if lab["lab"] == "list-adder":
        check(lab["score"] == 0 and "does not compile" in lab["message"], f"renamed: list-adder {lab['score']}: {lab['message'][:90]}")
    else:
        check(lab["score"] == lab["maxScore"], f"renamed: {lab['lab']} {lab['score']}/{lab['maxScore']} (still graded)")

summary = open(f"{grades}/summary.csv").read().splitlines()
check(summary[0].startswith("student,status,score,max_score"), "summary.csv header")
statuses = {line.split(",")[0]: line.split(",")[1] for line in summary[1:]}
check(statuses == {"forger": "graded", "renamed": "graded", "solved": "graded", "tampered": "tampered", "untouched": "graded"}, f"summary statuses {statuses}")
print(f"\n{len(failures)} check(s) failed" if failures else "\nall checks passed")
sys.exit(1 if failures else 0)
PY
