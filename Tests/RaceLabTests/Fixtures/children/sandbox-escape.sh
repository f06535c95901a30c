#!/bin/sh
# A stand-in for a child whose lab code tries to write outside its run folder (into the folder
# above it, where other runs live). It reports an invariant failure when the write worked, a
# clean result when it was refused. The run folder (its working directory) must stay writable.
touch ./inside || { echo 'RACELAB-FAILURE {"iteration":1,"message":"could not write inside the run folder","file":"sandbox-escape.sh","line":6}' >&3; exit 0; }
if touch "../racelab-escape-$$" 2>/dev/null; then
    rm -f "../racelab-escape-$$"
    echo 'RACELAB-FAILURE {"iteration":1,"message":"wrote outside the run folder","file":"sandbox-escape.sh","line":8}' >&3
fi
# The harness announces each iteration on the channel before its result (RunStory).
echo 'RACELAB-PROGRESS {"checkpointHits":0,"iteration":1,"threads":[]}' >&3
echo 'RACELAB-RESULT {"elapsedSeconds":1,"failures":[],"iterationsRun":1,"metrics":{},"notes":[],"tsanEnabled":true,"tsanReports":0}' >&3
