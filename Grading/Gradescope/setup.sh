#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image (the zip is unpacked
# into /autograder/source). It installs Swift, builds the kit's racelab, and builds the kit into
# a workspace that every submission then rebuilds only its exercises in.
# AUTOGRADER_ROOT stands in for /autograder (RaceLab's own test runs it in a temporary folder).
set -euo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
kit="$root/source/kit"
bash "$kit/Grading/install-swift.sh"
cd "$kit"
make build
racelab="$(swift build --sanitize=thread --show-bin-path)/racelab"
"$racelab" grade-all --prepare --kit "$kit" --workspace "$root/racelab-workspace"
# What isolates each run of a submission in this image (measured; printed in the build log).
"$racelab" policy --isolation
