#ifndef CRACELAB_SUPPORT_H
#define CRACELAB_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

// The Linux facilities: stress preemption and holds, "quiet" asked of the kernel, the holds that
// wait for the story, the calls interposed in front of ThreadSanitizer's, the children's
// confinement. RL_NO_LINUX_FACILITIES builds without them on Linux too: the path a system
// without them takes (macOS), built and run by CI (scripts/check-reduced-build.sh).
#if defined(__linux__) && !defined(RL_NO_LINUX_FACILITIES)
#define RL_LINUX_FACILITIES 1
#else
#define RL_LINUX_FACILITIES 0
#endif

// What Swift sees of the C layer, one header a concept. The C files' own plumbing is in the
// headers beside them, outside this module's map.
#include "CRaceLabCheckpoints.h"
#include "CRaceLabThreadFacts.h"
#include "CRaceLabMainThread.h"
#include "CRaceLabHolds.h"
#include "CRaceLabQuiet.h"
#include "CRaceLabCPUs.h"
#include "CRaceLabStoryHolds.h"
#include "CRaceLabSpentTime.h"
#include "CRaceLabThreadSanitizer.h"
#include "CRaceLabSHA256.h"
#include "CRaceLabTrace.h"
#include "CRaceLabJobs.h"
#include "CRaceLabSpawn.h"
#include "CRaceLabConfinement.h"

#endif
