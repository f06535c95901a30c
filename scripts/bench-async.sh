#!/usr/bin/env bash
# For each lab of Swift tasks, its broken variant three ways, as a table (markdown):
#   plain: the same story with nothing of RaceLab's armed (`racelab run --plain`), one iteration a
#          run: how often a plain test of that code shows anything at all;
#   async: the async pass (its jobs ordered by seed), every run: caught in how many, at which
#          iteration at most (the survey is iteration 1);
#   scripted: the lab's story, the bad interleaving forced: caught in how many runs.
# Usage: scripts/bench-async.sh [PLAIN_RUNS] [RUNS] [SEED]   (make build first)
set -euo pipefail
cd "$(dirname "$0")/.."
plain_runs=${1:-40} runs=${2:-10} seed=${3:-2026}
racelab="$(swift build --sanitize=thread --show-bin-path)/racelab"
labs="actor-reentrancy continuation-misuse unchecked-sendable task-lifetime cooperative-cancellation"
# Detected runs of one row of a `racelab run --json`, and the latest iteration a run caught it at.
count() {
    python3 -c '
import json, sys
runs = json.load(sys.stdin)["outcomes"][0]["runs"]
caught = [min(d["iteration"] or 1 for d in r["detections"]) for r in runs if r["detections"]]
print(len(caught), len(runs), max(caught) if caught else "-")'
}
echo "| lab | plain runs that show anything | async pass: runs caught (latest iteration) | scripted: runs caught |"
echo "|---|---|---|---|"
for lab in $labs; do
    read -r pn pt _ < <("$racelab" run "$lab" --variant broken --mode async --plain --iterations 1 --runs "$plain_runs" --seed "$seed" --json 2>/dev/null | count)
    read -r an at ai < <("$racelab" run "$lab" --variant broken --mode async --runs "$runs" --seed "$seed" --json 2>/dev/null | count)
    read -r sn st _ < <("$racelab" run "$lab" --variant broken --mode scripted --runs "$runs" --seed "$seed" --json 2>/dev/null | count)
    echo "| $lab | $pn of $pt | $an of $at (iteration $ai at most) | $sn of $st |"
done
echo
echo "(scripts/bench-async.sh $plain_runs $runs $seed, $(date -u +%Y-%m-%d))"
