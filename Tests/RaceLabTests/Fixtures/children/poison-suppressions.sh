#!/bin/sh
# A stand-in for a child whose lab code tries to rewrite the TSan suppressions it was given (to
# silence TSan for the runs after it): the path TSAN_OPTIONS names, then any
# tsan-suppressions*.txt in its folder and the one above. It reports an invariant failure if any
# write got through, else a clean result; it prints the first line of its suppressions.
path=$(echo "$TSAN_OPTIONS" | tr ':' '\n' | sed -n 's/^suppressions=//p')
[ -n "$path" ] || { echo 'RACELAB-FAILURE {"iteration":1,"message":"no suppressions option","file":"poison-suppressions.sh","line":7}' >&3; exit 0; }
got_through=no
for target in "$path" ./tsan-suppressions*.txt ../*/tsan-suppressions*.txt /tmp/racelab-tsan-suppressions*.txt; do
    [ -e "$target" ] || continue
    if (printf 'race:*\n' > "$target") 2>/dev/null; then got_through="$target"; fi
done
head -n 1 "$path"
if [ "$got_through" != no ]; then
    echo "{\"iteration\":1,\"message\":\"rewrote $got_through\",\"file\":\"poison-suppressions.sh\",\"line\":13}" | sed 's/^/RACELAB-FAILURE /' >&3
fi
# The harness announces each iteration on the channel before its result (RunStory).
echo 'RACELAB-PROGRESS {"checkpointHits":0,"iteration":1,"threads":[]}' >&3
echo 'RACELAB-RESULT {"elapsedSeconds":1,"failures":[],"iterationsRun":1,"metrics":{},"notes":[],"tsanEnabled":true,"tsanReports":0}' >&3
