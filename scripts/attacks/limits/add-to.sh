#!/usr/bin/env bash
# scripts/attacks/limits/add-to.sh ATTACK EXERCISE: adds an attack of this folder to a solved
# exercise in place: the attack's lines after "// at the start of recalculate():" go at the start
# of the exercise's recalculate(), the rest at the end of its file.
set -euo pipefail
attack=$1 exercise=$2
grep -q 'private func recalculate() {' "$exercise" || { echo "add-to: no recalculate() in $exercise" >&2; exit 1; }
awk -v attack="$attack" '
    BEGIN {
        while ((getline line < attack) > 0) {
            if (line ~ /^\/\/ at the start of recalculate\(\):/) { calls = 1; continue }
            if (calls) body = body line "\n"; else tail = tail line "\n"
        }
    }
    { print }
    /private func recalculate\(\) \{/ { printf "%s", body }
    END { printf "\n%s", tail }
' "$exercise" > "$exercise.attacked"
mv "$exercise.attacked" "$exercise"
