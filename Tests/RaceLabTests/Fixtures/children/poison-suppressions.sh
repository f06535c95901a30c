#!/bin/sh
# A stand-in for a child whose lab code rewrites the TSan suppressions file it was given (to
# silence TSan for the runs after it), then reports a clean result on the channel.
# The file is the only one named tsan-suppressions.txt in the child's working directory.
[ "$(head -c 9 tsan-suppressions.txt)" = "# racelab" ] || { echo "no suppressions file in $(pwd)" >&2; exit 3; }
printf 'race:*\n' > tsan-suppressions.txt
echo 'RACELAB-RESULT {"elapsedSeconds":1,"failures":[],"iterationsRun":1,"metrics":{},"notes":[],"tsanEnabled":true,"tsanReports":0}' >&3
