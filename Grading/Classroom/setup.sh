#!/usr/bin/env bash
# The GitHub Classroom workflow's first step (.github/workflows/racelab.yml): Swift, then the
# kit's racelab built with ThreadSanitizer. The grading steps after it run
# `racelab grade --labs LAB --fail-unless-full`, one per lab (grade-lab.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash Grading/install-swift.sh
# Hosted runners' kernels randomise mmap with more bits than ThreadSanitizer's fixed memory
# layout allows ("unexpected memory mapping"); 28 bits is what it expects.
if [ "${GITHUB_ACTIONS:-}" = true ] && [ "$(sysctl -n vm.mmap_rnd_bits 2>/dev/null || echo 28)" -gt 28 ]; then
    sudo sysctl -w vm.mmap_rnd_bits=28
fi
make build
# What isolates each run on this runner (measured; every grade report says it too).
"$(swift build --sanitize=thread --show-bin-path)/racelab" policy --isolation
