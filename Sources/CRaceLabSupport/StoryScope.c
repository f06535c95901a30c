#include "CRaceLabSupport.h"

#include "DeferredReleases.h"
#include "Invisible.h"
#include "Quiescence.h"
#include "SpentTime.h"
#include "StoryHolds.h"
#include "ThreadFacts.h"

// Layer 5 (the interposers and the story): calls only lower layers (CLayersTests).

// What a story asks of several facilities at once, each asked in turn, so that none of them
// calls another's layer from below.

RL_INVISIBLE void rl_story_holds_over(void) {
    rl_story_holds_end();
    rl_release_deferred_blocks();  // the blocks' ends held back (DeferredReleases.c)
}

/// Quiet for a story: the lab's threads and work (Quiescence.c), and then the strong-reference
/// holds, which wait for a user action that cannot come while the story waits: they go on
/// (StoryHolds.c), and the lab is busy again. On the main thread, the look's time is the
/// story's (SpentTime.c).
RL_INVISIBLE static int look(int64_t *busy, int flags) {
    if (!rl_lab_quiet(busy, flags)) return 0;
    if (rl_story_end_strong_holds()) {
        *busy = -3;
        return 0;
    }
    return 1;
}

RL_INVISIBLE int rl_quiet_look(int64_t *busy, int flags) {
    if (!rl_on_main_thread()) return look(busy, flags);
    int64_t began = rl_monotonic_ns();  // the story's own looks: where its time goes (SpentTime.c)
    int quiet = look(busy, flags);
    rl_spent_add(RL_SPENT_QUIET_LOOKS, rl_monotonic_ns() - began);
    return quiet;
}
