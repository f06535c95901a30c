#!/usr/bin/env bash
# End-to-end check of the two course autograders, without Gradescope or GitHub:
#
#   1. Gradescope: racelab export --gradescope makes the zip; it is unpacked into a temporary
#      folder standing in for /autograder (AUTOGRADER_ROOT), setup.sh runs there (Swift is
#      already installed, so it only builds), then run_autograder grades two submissions put
#      where Gradescope puts them (/autograder/submission): a kit with every lab solved, and one
#      as handed out. Their results.json must score full marks and 0.
#   2. GitHub Classroom: a kit (racelab export) with list-adder solved; the steps of its
#      .github/workflows/racelab.yml, read back from the YAML, run as a script from the kit's
#      root (set-up, then each lab's command, scored as Classroom's command grader scores it:
#      exit 0, all the points). Only list-adder must score.
#
# Usage: scripts/autograder-e2e.sh [WORK_DIR]        Exit 0 when every check holds.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d /tmp/racelab-autograder.XXXXXX)}
# A work folder the script made goes when it passes (a kit, builds and grades: ~250 MB); one
# given as $1, or one of a failed run, stays for a look.
if [ -z "${1:-}" ]; then
    trap 'code=$?; if [ "$code" = 0 ]; then rm -rf "$WORK"; else echo "(work kept in $WORK)"; fi' EXIT
fi
RACELAB="$(cd "$ROOT" && swift build --sanitize=thread --show-bin-path)/racelab"
mkdir -p "$WORK"
say() { printf '\n== %s\n' "$*"; }
failures=0
check() { if eval "$2"; then echo "ok    $1"; else echo "FAIL  $1"; failures=$((failures + 1)); fi; }
started=$(date +%s)

say "build and export"
make -C "$ROOT" build >/dev/null
rm -rf "$WORK/autograder" "$WORK/autograder.zip" "$WORK/kit" "$WORK/classroom"
(cd "$ROOT" && "$RACELAB" export --gradescope "$WORK/autograder.zip")
(cd "$ROOT" && "$RACELAB" export "$WORK/kit")

say "Gradescope: unpack into $WORK/autograder/source, run setup.sh"
mkdir -p "$WORK/autograder/source"
unzip -q "$WORK/autograder.zip" -d "$WORK/autograder/source"
check "the zip holds setup.sh, run_autograder and the kit" \
    '[ -x "$WORK/autograder/source/setup.sh" ] && [ -x "$WORK/autograder/source/run_autograder" ] && [ -f "$WORK/autograder/source/kit/racelab-kit.json" ]'
check "the zip holds no reference solution" '! find "$WORK/autograder/source/kit/Labs" "$WORK/autograder/source/kit/Sources" -name "Fixed*.swift" -o -name SolutionCatalog | grep -q .'
t0=$(date +%s)
AUTOGRADER_ROOT="$WORK/autograder" bash "$WORK/autograder/source/setup.sh" 2>&1 | tail -n 3
echo "setup.sh took $(( $(date +%s) - t0 )) s"

grade_submission() { # name, folder
    rm -rf "$WORK/autograder/submission" "$WORK/autograder/results"
    cp -R "$2" "$WORK/autograder/submission"
    local t0; t0=$(date +%s)
    AUTOGRADER_ROOT="$WORK/autograder" "$WORK/autograder/source/run_autograder" 2>&1 | tail -n 2
    echo "run_autograder ($1) took $(( $(date +%s) - t0 )) s"
    cp "$WORK/autograder/results/results.json" "$WORK/results-$1.json"
}
score_of() { grep -o '"score" *: *[0-9.]*' "$1" | head -n 1 | grep -o '[0-9.]*$'; }
labs=$(ls -d "$ROOT"/Labs/*/ | while read -r d; do [ -f "$d/Scenario.swift" ] && echo x; done | wc -l)

cp -R "$WORK/kit" "$WORK/solved"
"$ROOT/scripts/solve-kit.sh" "$WORK/solved"
grade_submission solved "$WORK/solved"
grade_submission untouched "$WORK/kit"
echo "results.json for the solved submission (head):"
head -n 12 "$WORK/results-solved.json"
check "solved: full marks ($(score_of "$WORK/results-solved.json"))" '[ "$(score_of "$WORK/results-solved.json")" = $((labs * 10)) ]'
check "untouched: 0 ($(score_of "$WORK/results-untouched.json"))" '[ "$(score_of "$WORK/results-untouched.json")" = 0 ]'
check "every lab is a Gradescope test" '[ "$(grep -o "\"max_score\" *: *10" "$WORK/results-solved.json" | wc -l)" = "$labs" ]'

say "GitHub Classroom: the workflow's steps as a script, list-adder solved"
cp -R "$WORK/kit" "$WORK/classroom"
"$ROOT/scripts/solve-kit.sh" "$WORK/classroom" ListAdder
workflow="$WORK/classroom/.github/workflows/racelab.yml"
check "the kit ships the workflow" '[ -f "$workflow" ]'
{
    echo 'set -u'
    echo 'total=0'
    sed -n 's/^        run: \(.*\)$/\1 || exit 1/p' "$workflow"
    # One "command:" and one "max-score:" per grading step, in order.
    paste -d '|' <(sed -n 's/^          command: \(.*\)$/\1/p' "$workflow") <(sed -n 's/^          max-score: \(.*\)$/\1/p' "$workflow") |
        while IFS='|' read -r command points; do
            # The step's lab: its last word (bash Grading/Classroom/grade-lab.sh LAB).
            lab=${command##* }
            echo "if $command > /dev/null 2>&1; then echo \"classroom: $lab $points/$points\"; total=\$((total + $points)); else echo \"classroom: $lab 0/$points\"; fi"
        done
    echo 'echo "classroom: total $total"'
} > "$WORK/classroom/workflow-steps.sh"
(cd "$WORK/classroom" && bash workflow-steps.sh) | tee "$WORK/classroom.txt" | grep -v '^  ' | tail -n 18
check "classroom: list-adder scores" 'grep -q "^classroom: list-adder 10/10$" "$WORK/classroom.txt"'
check "classroom: the unsolved labs do not" '[ "$(grep -c " 0/10$" "$WORK/classroom.txt")" = $((labs - 1)) ]'
check "classroom: total 10" 'grep -q "^classroom: total 10$" "$WORK/classroom.txt"'

echo
echo "autograder e2e took $(( $(date +%s) - started )) s; $failures check(s) failed"
exit $(( failures > 0 ))
