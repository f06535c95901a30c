#!/usr/bin/env bash
# One GitHub Classroom grading step (.github/workflows/racelab.yml): full marks for lab $1, or
# a failed step. racelab is found where SwiftPM put it (the folder depends on the build system).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -ne 1 ]; then echo "usage: bash Grading/Classroom/grade-lab.sh LAB (racelab list shows the labs)" >&2; exit 2; fi
exec "$(swift build --sanitize=thread --show-bin-path)/racelab" grade --labs "$1" --fail-unless-full
