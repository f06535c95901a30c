#!/usr/bin/env bash
# End-to-end check of grading, from this package as a fresh clone has it:
#
#   1. export a student kit (no Fixed*.swift, no solution catalog, plus racelab-kit.json);
#   2. a class: solved (every lab's reference fix turned into its exercise, plus a NOTES.md and a
#      README edit, ignored), copycat (a copy of solved: its grades reused), untouched, renamed
#      (list-adder's exercise factory renamed: the catalog cannot find it, so that lab does not
#      compile and scores 0; the others still count),
#      a hidden folder (.sneaky, solved), an archive layout (archive/racelab-kit/..., solved), a
#      submission whose Sources/ is a link out of it, a submission that is itself a link, and a
#      plain file; racelab grade-all grades every lab of every entry;
#   3. the attacks in scripts/attacks/ (each a list-adder exercise), graded on list-adder: every
#      one scores 0 and says why (rejected, does not compile, or caught);
#   4. the same harness with the exercise checks OFF (test only): a poisoner graded before a
#      half-fixed exercise, a load-time thief and a channel forger still score 0, and the
#      half-fixed exercise after the poisoner too;
#   5. every report rendered in every format (racelab grade --from) and checked.
#
# Usage: scripts/grading-e2e.sh [WORK_DIR]     LABS=list-adder,ui-off-main grades fewer labs in step 2.
# Exit 0 when every check holds.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d /tmp/racelab-e2e.XXXXXX)}
mkdir -p "$WORK"
RACELAB="$ROOT/.build/debug/racelab"
ATTACKS="$ROOT/scripts/attacks"
LABS_ARG=()
if [ -n "${LABS:-}" ]; then LABS_ARG=(--labs "$LABS"); fi
say() { printf '\n== %s\n' "$*"; }
started=$(date +%s)

say "build ($ROOT)"
make -C "$ROOT" build >/dev/null

say "export the student kit to $WORK/kit"
rm -rf "$WORK/kit" "$WORK/class" "$WORK/attacks" "$WORK/unchecked" "$WORK"/grades-*
(cd "$ROOT" && "$RACELAB" export "$WORK/kit")
if find "$WORK/kit/Labs" "$WORK/kit/Sources" -name 'Fixed*.swift' -o -name SolutionCatalog | grep -q .; then echo "FAIL: the kit contains reference solutions"; exit 1; fi

# A kit copy whose exercises are the reference fixes (scripts/solve-kit.sh).
solve() { "$ROOT/scripts/solve-kit.sh" "$@"; }

say "a class of submissions"
mkdir -p "$WORK/class"
for name in solved untouched renamed .sneaky linked-sources; do cp -R "$WORK/kit" "$WORK/class/$name"; done
solve "$WORK/class/solved"
echo "my notes" > "$WORK/class/solved/NOTES.md" && echo "edited" >> "$WORK/class/solved/README.md"
cp -R "$WORK/class/solved" "$WORK/class/copycat"
solve "$WORK/class/renamed"
sed -i 's/\bmakeListAdderExercise\b/makeListAdderSolution/' "$WORK/class/renamed/Labs/ListAdder/Exercise.swift"
solve "$WORK/class/.sneaky"
mkdir -p "$WORK/class/archive" && cp -R "$WORK/kit" "$WORK/class/archive/racelab-kit" && solve "$WORK/class/archive/racelab-kit"
mkdir -p "$WORK/elsewhere" && cp -R "$WORK/class/solved/Sources" "$WORK/elsewhere/Sources"
rm -rf "$WORK/class/linked-sources/Sources" && ln -s "$WORK/elsewhere/Sources" "$WORK/class/linked-sources/Sources"
ln -s "$WORK/class/solved" "$WORK/class/linked-folder"
echo "not a submission" > "$WORK/class/notes.txt"

(cd "$WORK" && "$RACELAB" grade-all class --kit kit --output grades-class --format json --seed 2026 "${LABS_ARG[@]}")
cat "$WORK/grades-class/summary.csv"

say "attacks (scripts/attacks), graded on list-adder"
mkdir -p "$WORK/attacks"
for attack in "$ATTACKS"/*.swift; do
    name=$(basename "$attack" .swift)
    case $name in poisoner|thief) continue;; esac
    cp -R "$WORK/kit" "$WORK/attacks/$name"
    cp "$attack" "$WORK/attacks/$name/Labs/ListAdder/Exercise.swift"
done
(cd "$WORK" && "$RACELAB" grade-all attacks --kit kit --output grades-attacks --format json --seed 2026 --labs list-adder)
cat "$WORK/grades-attacks/summary.csv"

say "with the exercise checks OFF (test only): a poisoner before a half-fixed exercise, a load-time thief, a channel forger"
mkdir -p "$WORK/unchecked"
for pair in 1-poisoner:poisoner 2-half-fixed:half-fixed 3-thief:thief 4-channel:channel 5-solved:; do
    name=${pair%%:*}; attack=${pair#*:}
    cp -R "$WORK/kit" "$WORK/unchecked/$name"
    if [ -n "$attack" ]; then cp "$ATTACKS/$attack.swift" "$WORK/unchecked/$name/Labs/ListAdder/Exercise.swift"; else solve "$WORK/unchecked/$name" ListAdder; fi
done
(cd "$WORK" && RACELAB_UNSAFE_SKIP_EXERCISE_CHECKS=1 "$RACELAB" grade-all unchecked --kit kit --output grades-unchecked --format json --seed 2026 --labs list-adder)
cat "$WORK/grades-unchecked/summary.csv"

say "every format"
for report in "$WORK"/grades-*/*.json; do
    for format in text junit gradescope; do
        "$RACELAB" grade --from "$report" --format "$format" --output "${report%.json}.$format" >/dev/null
    done
done

python3 - "$WORK" <<'PY'
import csv, json, os, sys, xml.etree.ElementTree as ET
work = sys.argv[1]
failures = []
def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition: failures.append(what)

def summary(name):
    with open(f"{work}/grades-{name}/summary.csv") as f:
        return {row["student"]: row for row in csv.DictReader(f)}

def report(name, student):
    stem = student[1:] if False else ("_" + student[1:] if student.startswith(".") else student)
    base = f"{work}/grades-{name}/{stem}"
    return (json.load(open(base + ".json")), json.load(open(base + ".gradescope")),
            ET.parse(base + ".junit").getroot(), open(base + ".text").read())

# The class.
rows = summary("class")
check(set(rows) == {"solved", "copycat", "untouched", "renamed", ".sneaky", "archive", "linked-sources", "linked-folder", "notes.txt"},
      f"every entry is reported, hidden ones too: {sorted(rows)}")
for student in ["solved", "copycat", ".sneaky", "archive"]:
    data, gradescope, junit, text = report("class", student)
    check(rows[student]["status"] == "graded" and data["maxScore"] > 0 and data["score"] == data["maxScore"],
          f"{student}: full marks {data['score']}/{data['maxScore']}")
    check(gradescope["score"] == data["maxScore"] and all(t["status"] == "passed" for t in gradescope["tests"]), f"{student}: gradescope all passed")
    check(int(junit.get("failures")) + int(junit.get("errors")) == 0, f"{student}: junit nothing failing")
    for lab in data["labs"]:
        check(lab["stress"]["iterationsPerRun"] > 0, f"{student}: {lab['lab']} stress {lab['stress']['runs']} x {lab['stress']['iterationsPerRun']}")
data, _, _, _ = report("class", "solved")
check(data["integrity"]["status"] == "ignored" and "NOTES.md" in data["integrity"]["message"] and "other changes ignored" in rows["solved"]["note"],
      f"solved: its NOTES.md and README edit are noted and ignored, not penalised: {data['integrity']['message'][:100]}")
# copycat, solved, .sneaky and archive hold the same exercise files: graded once, the grades reused.
reused = [s for s in ["copycat", "solved", ".sneaky", "archive"] if any("graded before in this run" in n for n in report("class", s)[0]["notes"])]
check(len(reused) >= 2, f"identical exercise files are graded once and the grades reused: {reused}")
data, gradescope, junit, text = report("class", "untouched")
check(data["score"] == 0 and all(l["status"] == "failed" for l in data["labs"]), f"untouched: 0, every lab failed")
check(int(junit.get("failures")) == int(junit.get("tests")), "untouched: junit every test failing")
data, _, _, _ = report("class", "renamed")
for lab in data["labs"]:
    if lab["lab"] == "list-adder":
        check(lab["score"] == 0 and "does not compile" in lab["message"], f"renamed: list-adder 0: {lab['message'][:100]}")
    else:
        check(lab["score"] == lab["maxScore"], f"renamed: {lab['lab']} still graded {lab['score']}/{lab['maxScore']}")
for student in ["linked-sources", "linked-folder"]:
    check(rows[student]["status"] == "rejected" and rows[student]["score"] == "0" and "link" in rows[student]["note"],
          f"{student}: rejected, says why: {rows[student]['note'][:110]}")
check(rows["notes.txt"]["status"] == "skipped", "notes.txt: skipped (not a folder)")

# The attacks: every one scores 0, and says why.
rows = summary("attacks")
expected = {
    "silgen-ignore": ("rejected", "@_silgen_name"), "tsan-options": ("rejected", "@_cdecl"), "annotate": ("rejected", "@_silgen_name"),
    "setenv": ("rejected", "setenv"), "testable": ("rejected", "@testable"), "spi": ("rejected", "@_spi"),
    "channel": ("rejected", "write(3"), "load-time": ("rejected", "@_section"), "process": ("rejected", "Process"),
    "graded-detector": ("rejected", "CommandLine"), "exit": ("rejected", "exit:"), "harness-import": ("rejected", "import RaceLabHarness"),
    "stdout-forger": ("failed", "not fixed yet"), "solutions": ("failed", "not fixed yet"), "half-fixed": ("failed", "not fixed yet"),
}
check(set(rows) == set(expected), f"every attack graded: {sorted(rows)}")
for student, (status, says) in sorted(expected.items()):
    if student not in rows: continue
    data, gradescope, junit, text = report("attacks", student)
    lab = data["labs"][0]
    check(data["score"] == 0 and gradescope["score"] == 0 and lab["status"] == status and says in lab["message"],
          f"attack {student}: {lab['status']} 0/{lab['maxScore']:g}: {lab['message'][:120]}")

# Checks off: the other defences.
rows = summary("unchecked")
for student in ["1-poisoner", "2-half-fixed", "3-thief", "4-channel"]:
    data, _, _, _ = report("unchecked", student)
    lab = data["labs"][0]
    check(lab["score"] == 0, f"checks off, {student}: 0 ({lab['status']}): {lab['message'][:110]}")
    check(any("exercise checks were OFF" in note for note in data["notes"]), f"checks off, {student}: the report says the checks were off")
for student in ["3-thief", "4-channel"]:
    data, _, _, _ = report("unchecked", student)
    check(data["labs"][0]["status"] == "tampered", f"checks off, {student}: its forged result is caught (tampered)")
data, _, _, _ = report("unchecked", "5-solved")
check(data["labs"][0]["score"] == data["labs"][0]["maxScore"], "checks off, 5-solved: full marks after the attackers")

print(f"\n{len(failures)} check(s) failed" if failures else "\nall checks passed")
sys.exit(1 if failures else 0)
PY
echo "e2e took $(( $(date +%s) - started )) s"
