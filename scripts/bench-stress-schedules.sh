#!/usr/bin/env bash
# scripts/bench-stress-schedules.sh [RUNS] [ITERATIONS] [SEED]: how each of the stress pass's two
# ways to preempt (`racelab run --mode stress --schedule pauses|priority`) catches the wrong fixes of
# the grading corpus that the scripted pass does not (docs/how-it-works.md, "The stress pass").
#
# First every wrong fix of every lab runs its scripted story once (seed SEED); the ones it does not
# catch then run RUNS stress children of ITERATIONS iterations each way (defaults 4 and 50: what the
# grader's stress pass runs), the same seeds both ways. Printed: per fix and way, the children that
# caught it and the median iteration of the first catch; then the totals. Needs python3 (to read
# the JSON). Run on a quiet machine; it takes some 20 minutes on 2 cores.
set -euo pipefail
usage() { echo "usage: scripts/bench-stress-schedules.sh [RUNS] [ITERATIONS] [SEED]: whole numbers from 1 (defaults 4, 50, 2026)" >&2; exit 2; }
[ $# -le 3 ] || usage
runs=${1:-4}
iterations=${2:-50}
seed=${3:-2026}
for n in "$runs" "$iterations" "$seed"; do [[ $n =~ ^[1-9][0-9]*$ ]] || usage; done
command -v python3 > /dev/null || { echo "bench-stress-schedules: needs python3 to read racelab's JSON" >&2; exit 1; }
cd "$(dirname "$0")/.."
racelab="$(swift build --sanitize=thread --show-bin-path)/racelab"
[ -x "$racelab" ] || { echo "bench-stress-schedules: build RaceLab first (make build)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/racelab-bench-schedules.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Every lab's wrong fixes, as "lab variant" lines.
"$racelab" list --json > "$work/list.json"
python3 -c '
import json, sys
for lab in json.load(open(sys.argv[1])):
    for variant in lab["variants"]:
        if variant.startswith("wrong-"): print(lab["id"], variant)
' "$work/list.json" > "$work/wrong.txt"
echo "bench-stress-schedules: $(wc -l < "$work/wrong.txt") wrong fixes; their scripted stories (seed $seed)"

# The verdict rows of a `racelab run --json` output: "caught iterations" per child.
children() {
    python3 -c '
import json, sys
def walk(o):
    if isinstance(o, dict):
        if "detections" in o and "seed" in o and "kind" in o:
            print(1 if o["detections"] else 0, o.get("iterationsRun", 0))
        else:
            for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
walk(json.load(open(sys.argv[1])))
' "$1"
}

while read -r lab variant; do
    "$racelab" run "$lab" --variant "$variant" --mode scripted --runs 1 --seed "$seed" --json \
        > "$work/$lab.$variant.scripted.json" 2> /dev/null || true
    if [ "$(children "$work/$lab.$variant.scripted.json" | awk '{ s += $1 } END { print s + 0 }')" = 0 ]; then
        echo "$lab $variant" >> "$work/missed.txt"
    fi
done < "$work/wrong.txt"
touch "$work/missed.txt"
echo "bench-stress-schedules: $(wc -l < "$work/missed.txt") not caught by the scripted pass; each way $runs children of $iterations iterations"

printf '%-24s %-38s %-16s %-16s\n' LAB "WRONG FIX" "PAUSES" "PRIORITY"
declare -A caught_total=([pauses]=0 [priority]=0) fixes_caught=([pauses]=0 [priority]=0)
while read -r lab variant; do
    line=$(printf '%-24s %-38s' "$lab" "$variant")
    for way in pauses priority; do
        out="$work/$lab.$variant.$way.json"
        "$racelab" run "$lab" --variant "$variant" --mode stress --schedule "$way" --runs "$runs" \
            --iterations "$iterations" --seed "$seed" --json > "$out" 2> /dev/null || true
        summary=$(children "$out" | awk '
            $1 == 1 { caught++; first[caught] = $2 }
            END {
                n = caught + 0
                if (n == 0) { print "0 -"; exit }
                for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (first[j] < first[i]) { t = first[i]; first[i] = first[j]; first[j] = t }
                print n, first[int((n + 1) / 2)]
            }')
        read -r n median <<< "$summary"
        caught_total[$way]=$((caught_total[$way] + n))
        [ "$n" -gt 0 ] && fixes_caught[$way]=$((fixes_caught[$way] + 1))
        line+=$(printf ' %-16s' "$n/$runs (it. $median)")
    done
    echo "$line"
done < "$work/missed.txt"
fixes=$(wc -l < "$work/missed.txt")
echo "bench-stress-schedules: pauses caught $((fixes_caught[pauses])) of $fixes fixes ($((caught_total[pauses])) of $((fixes * runs)) children); priority $((fixes_caught[priority])) of $fixes (${caught_total[priority]} of $((fixes * runs)))"
