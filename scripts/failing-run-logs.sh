#!/usr/bin/env bash
# Prints the kept standard error (TSan's reports, crash stacks) of every run a `racelab run`
# output names as failing, so a CI log can be read, not only replayed.
# Usage: scripts/failing-run-logs.sh RUN_OUTPUT LOG_FOLDER   (the folder given to --logs)
set -uo pipefail
if [ $# -ne 2 ] || [ ! -f "$1" ] || [ ! -d "$2" ]; then
    echo "usage: scripts/failing-run-logs.sh RUN_OUTPUT LOG_FOLDER (a racelab run output file and its --logs folder)" >&2
    exit 2
fi
output=$1 logs=$2
show() {
    local found=0 file
    # An explore run split into shards keeps one log a shard: <...>-<seed>-shard<N>.log.
    for file in "$logs/$1-$2-$3-$4.log" "$logs/$1-$2-$3-$4"-shard*.log; do
        [ -f "$file" ] || continue
        found=1
        echo "---- $file (last 120 lines) ----"
        tail -n 120 "$file"
    done
    [ "$found" = 1 ] || echo "---- $logs/$1-$2-$3-$4.log: no log kept ----"
}
# "FAIL deadlock fixed (stress) is NOT clean: lab deadlock, variant fixed, seed 2067.", then
# "  also seed 2068 (same command with --seed 2068): ..." for more failing runs (3 shown).
lab="" shown=0
while IFS= read -r line; do
    if [[ $line =~ ^FAIL\ [^\ ]+\ [^\ ]+\ \(([a-z]+)\).*:\ lab\ ([^,]+),\ variant\ ([^,]+),\ seed\ ([0-9]+)\. ]]; then
        mode=${BASH_REMATCH[1]} lab=${BASH_REMATCH[2]} variant=${BASH_REMATCH[3]} shown=1
        show "$lab" "$variant" "$mode" "${BASH_REMATCH[4]}"
    elif [ -n "$lab" ] && [ "$shown" -lt 3 ] && [[ $line =~ ^\ +also\ seed\ ([0-9]+)\  ]]; then
        shown=$((shown + 1))
        show "$lab" "$variant" "$mode" "${BASH_REMATCH[1]}"
    elif [[ ! $line =~ ^\ + ]]; then
        lab=""
    fi
done < "$output"
