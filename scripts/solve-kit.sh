#!/usr/bin/env bash
# Turns a student kit's exercises into the package's reference fixes: <Lab>Fixed* becomes
# <Lab>Exercise*, the extension that registers solutions is dropped, the kit's own factory
# function is kept. For tests and benchmarks of grading (a "solved" submission).
#
#   scripts/solve-kit.sh KIT [LabFolder ...]     (default: every lab with a Fixed.swift)
#   MARK="// student 7" scripts/solve-kit.sh KIT  appends MARK, so the files differ by student
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
target=$1; shift
for dir in "$ROOT"/Labs/*/; do
    lab=$(basename "$dir")
    [ -f "$dir/Fixed.swift" ] || continue
    if [ $# -gt 0 ] && [[ ! " $* " == *" $lab "* ]]; then continue; fi
    exercise="$target/Labs/$lab/Exercise.swift"
    factory=$(sed -n '/^\/\/\/ How the harness makes your exercise/,$p' "$exercise")
    { sed -e "s/\b${lab}Fixed/${lab}Exercise/g" -e '/^extension [A-Za-z]*Lab {$/,/^}$/d' "$dir/Fixed.swift"; echo; echo "$factory"
      if [ -n "${MARK:-}" ]; then echo "$MARK"; fi; } > "$exercise.new"
    mv "$exercise.new" "$exercise"
done
