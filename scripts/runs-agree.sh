#!/usr/bin/env bash
# Two tables of `racelab run --all` (make run's and make soak's output) must agree: the same rows
# (lab, variant, mode, expectation), each met in both. A shorter run must not hide a problem
# that a longer one shows, nor lose a row.
#
#   scripts/runs-agree.sh RUN.txt SOAK.txt       exit 0 when they agree; else each difference
set -euo pipefail
[ $# -eq 2 ] && [ -f "$1" ] && [ -f "$2" ] || { echo "usage: scripts/runs-agree.sh RUN.txt SOAK.txt (two saved racelab run --all outputs)" >&2; exit 2; }
rows() {
    # A row: LAB VARIANT MODE VERDICT n/n TSAN INVARIANT CRASH HANG COMPILER EXPECTED OK.
    awk '$3 ~ /^(scripted|explore|stress)$/ && $5 ~ /^[0-9]+\/[0-9]+$/ { print $1, $2, $3, $(NF-1), $NF }' "$1" | sort
}
a=$(rows "$1"); b=$(rows "$2")
[ -n "$a" ] || { echo "runs-agree: no table rows in $1" >&2; exit 1; }
status=0
if [ "$(cut -d' ' -f1-4 <<< "$a")" != "$(cut -d' ' -f1-4 <<< "$b")" ]; then
    echo "runs-agree: the two tables do not have the same rows:" >&2
    diff <(cut -d' ' -f1-4 <<< "$a") <(cut -d' ' -f1-4 <<< "$b") >&2 || true
    status=1
fi
unmet=$( (awk -v name="$1" '$5 != "yes" { print name ": " $0 }' <<< "$a"; awk -v name="$2" '$5 != "yes" { print name ": " $0 }' <<< "$b") || true)
if [ -n "$unmet" ]; then
    echo "runs-agree: rows whose expectation is not met:" >&2
    echo "$unmet" >&2
    status=1
fi
[ "$status" = 0 ] && echo "runs-agree: $(wc -l <<< "$a") rows, the same in both, every expectation met in both"
exit "$status"
