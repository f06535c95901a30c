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
#   3. the attacks in scripts/attacks/ (each a list-adder exercise), graded on list-adder, and two
#      made of files (a FIFO for an exercise, a 1 TiB sparse README.md): every one scores 0 and
#      says why (rejected, does not compile, or caught), and grade-all grades them all;
#   4. the same harness with the exercise checks OFF (test only; memory safety off too): a
#      poisoner graded before a half-fixed exercise, a load-time thief, a channel forger, an
#      escape loop that would kill other students' children, a killer of the grader and an early
#      forged result still score 0; grade-all survives and grades everyone; the valid fixes
#      graded after the attackers keep full marks; nothing the attackers started outlives them;
#   5. every report rendered in every format (racelab grade --from) and checked.
#
# Usage: scripts/grading-e2e.sh [WORK_DIR]     LABS=list-adder,ui-off-main grades fewer labs in step 2.
# Exit 0 when every check holds.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d /tmp/racelab-e2e.XXXXXX)}
# A work folder the script made goes when it passes (a kit, builds and grades: ~250 MB); one
# given as $1, or one of a failed run, stays for a look.
if [ -z "${1:-}" ]; then
    trap 'code=$?; if [ "$code" = 0 ]; then rm -rf "$WORK"; else echo "(work kept in $WORK)"; fi' EXIT
fi
mkdir -p "$WORK"
RACELAB="$(cd "$ROOT" && swift build --sanitize=thread --show-bin-path)/racelab"
ATTACKS="$ROOT/scripts/attacks"
LABS_ARG=()
if [ -n "${LABS:-}" ]; then LABS_ARG=(--labs "$LABS"); fi
say() { printf "\n== %s (at %d s)\n" "$*" $(( $(date +%s) - started )); }
started=$(date +%s)

say "build ($ROOT)"
make -C "$ROOT" build >/dev/null

say "export the student kit to $WORK/kit"
rm -rf "$WORK/kit" "$WORK/class" "$WORK/attacks" "$WORK/unchecked" "$WORK/workspace" "$WORK"/grades-*
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
sed -i 's/\bpublic func makeListAdderExercise\b/func makeListAdderSolution/' "$WORK/class/renamed/Labs/ListAdder/Exercise.swift"
solve "$WORK/class/.sneaky"
mkdir -p "$WORK/class/archive" && cp -R "$WORK/kit" "$WORK/class/archive/racelab-kit" && solve "$WORK/class/archive/racelab-kit"
mkdir -p "$WORK/elsewhere" && cp -R "$WORK/class/solved/Sources" "$WORK/elsewhere/Sources"
rm -rf "$WORK/class/linked-sources/Sources" && ln -s "$WORK/elsewhere/Sources" "$WORK/class/linked-sources/Sources"
ln -s "$WORK/class/solved" "$WORK/class/linked-folder"
echo "not a submission" > "$WORK/class/notes.txt"

# One workspace for every grade-all below: the kit is built once (as an autograder's set-up
# does), then each grade-all rebuilds only what each submission's exercises change.
(cd "$WORK" && "$RACELAB" grade-all class --kit kit --workspace workspace --output grades-class --format json --seed 2026 "${LABS_ARG[@]}")
cat "$WORK/grades-class/summary.csv"

say "attacks (scripts/attacks), graded on list-adder"
mkdir -p "$WORK/attacks"
for attack in "$ATTACKS"/*.swift; do
    name=$(basename "$attack" .swift)
    case $name in poisoner|thief) continue;; esac
    cp -R "$WORK/kit" "$WORK/attacks/$name"
    cp "$attack" "$WORK/attacks/$name/Labs/ListAdder/Exercise.swift"
done
# Submissions that attack the grader through the file system rather than through code: an
# exercise that is a FIFO (an open() that never returns), a 1 TiB sparse README.md.
cp -R "$WORK/kit" "$WORK/attacks/fifo-exercise" && rm "$WORK/attacks/fifo-exercise/Labs/ListAdder/Exercise.swift" \
    && mkfifo "$WORK/attacks/fifo-exercise/Labs/ListAdder/Exercise.swift"
cp -R "$WORK/kit" "$WORK/attacks/sparse-readme" && truncate -s 1T "$WORK/attacks/sparse-readme/README.md"
(cd "$WORK" && "$RACELAB" grade-all attacks --kit kit --workspace workspace --output grades-attacks --format json --seed 2026 --labs list-adder)
cat "$WORK/grades-attacks/summary.csv"
rm -rf "$WORK/attacks/sparse-readme" "$WORK/attacks/fifo-exercise"  # (nothing else should read them)

say "with the exercise checks OFF (test only): a poisoner before a half-fixed exercise, a load-time thief, a channel forger"
mkdir -p "$WORK/unchecked"
for pair in 1-poisoner:poisoner 2-half-fixed:half-fixed 3-thief:thief 4-channel:channel 5-solved: \
            6-escape-loop:escape-loop 7-kill-grader:kill-grader 8-early-result:early-result 9-solved-last:; do
    name=${pair%%:*}; attack=${pair#*:}
    cp -R "$WORK/kit" "$WORK/unchecked/$name"
    if [ -n "$attack" ]; then cp "$ATTACKS/$attack.swift" "$WORK/unchecked/$name/Labs/ListAdder/Exercise.swift"; else solve "$WORK/unchecked/$name" ListAdder; fi
done
unchecked_status=0
(cd "$WORK" && RACELAB_UNSAFE_SKIP_EXERCISE_CHECKS=1 "$RACELAB" grade-all unchecked --kit kit --workspace workspace --output grades-unchecked --format json --seed 2026 --labs list-adder) || unchecked_status=$?
echo "$unchecked_status" > "$WORK/grades-unchecked/exit-status"
cat "$WORK/grades-unchecked/summary.csv"
# Nothing a submission started may outlive its run: the escape loop marks itself.
sleep 1
{ pgrep -f racelab-escape-loop || true; } > "$WORK/grades-unchecked/leftovers"

say "under a task limit of 1,000 and a memory limit of 6 GiB: a valid fix beside attacks on tasks, memory and output"
# The groups are made here, inside this script's own (so a container's limits still hold), and
# grade-all runs in them: its children, at their own limits (racelab policy --isolation), must
# leave the valid fix and the builds all they need.
limited_skip=""
own() { awk -F: -v c="$1" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) { print $3; exit } }' /proc/self/cgroup; }
pids_group="/sys/fs/cgroup/pids$(own pids)/racelab-e2e-$$"
memory_group="/sys/fs/cgroup/memory$(own memory)/racelab-e2e-$$"
if [ "$(id -u)" != 0 ]; then
    limited_skip="not root: no control groups can be made"
elif ! mkdir "$pids_group" "$memory_group" 2>/dev/null; then
    limited_skip="no writable cgroup v1 pids and memory hierarchies here"
fi
mkdir -p "$WORK/limited"
if [ -z "$limited_skip" ]; then
    echo 1000 > "$pids_group/pids.max"
    echo $((6 << 30)) > "$memory_group/memory.limit_in_bytes"
    cp -R "$WORK/kit" "$WORK/limited/victim-solved" && solve "$WORK/limited/victim-solved" ListAdder
    for attack in parked-threads thread-tree memory-hog stdout-flood; do  # each a valid fix, attacking
        cp -R "$WORK/limited/victim-solved" "$WORK/limited/$attack"
        "$ATTACKS/limits/add-to.sh" "$ATTACKS/limits/$attack.swift" "$WORK/limited/$attack/Labs/ListAdder/Exercise.swift"
    done
    limited_status=0
    (cd "$WORK" && sh -c 'echo $$ > "$1/cgroup.procs" && echo $$ > "$2/cgroup.procs" && shift 2 && exec "$@"' sh \
        "$pids_group" "$memory_group" "$RACELAB" grade-all limited --kit kit --workspace workspace --output grades-limited \
        --format json --seed 2026 --labs list-adder) || limited_status=$?
    echo "$limited_status" > "$WORK/grades-limited/exit-status"
    echo "peak tasks $(cat "$pids_group/pids.peak" 2>/dev/null || echo ?) of 1000, peak memory $(( $(cat "$memory_group/memory.max_usage_in_bytes") >> 20 )) MiB of 6144 (reached $(cat "$memory_group/memory.failcnt" 2>/dev/null || echo ?) time(s))" \
        | tee "$WORK/grades-limited/peaks"
    cat "$WORK/grades-limited/summary.csv"
    rmdir "$pids_group" "$memory_group" 2>/dev/null || true
else
    echo "skipped: $limited_skip" | tee "$WORK/limited/skipped"
fi

say "every format"
# Four at a time: each is a short process whose start is most of its time.
render() { "$RACELAB" grade --from "$1" --format "$2" --output "${1%.json}.$2" > /dev/null; }
export -f render && export RACELAB
for report in "$WORK"/grades-*/*.json; do
    for format in text junit gradescope; do printf '%s\0%s\0' "$report" "$format"; done
done | xargs -0 -n 2 -P 4 bash -c 'render "$0" "$1"' || { echo "FAIL: a report could not be rendered"; exit 1; }

swift "$ROOT/scripts/grading-e2e-checks.swift" "$WORK" || status=$?
echo "e2e took $(( $(date +%s) - started )) s"
exit "${status:-0}"
