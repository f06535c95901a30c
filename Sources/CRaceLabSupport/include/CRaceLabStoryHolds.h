#ifndef CRACELAB_STORY_HOLDS_H
#define CRACELAB_STORY_HOLDS_H

#include <stddef.h>
#include <stdint.h>

// Holds that wait for the story (StoryHolds.c, StoryScope.c). Part of CRaceLabSupport.h.

/// Holds that wait for the story (StoryHolds.c), in the explore and stress passes: as a story
/// begins, rl_story_holds_begin(end hold, strong-reference hold); once it is over and the main
/// thread let go of its objects, rl_story_holds_over. The end hold: each thread the lab started
/// waits as its start routine returns (rl_story_end_hold_here) until the story is over. The
/// strong-reference hold: a lab thread that loads a strong reference to a watched controller
/// (rl_story_watch, from its init and deinit) from a weak one waits until the main thread's next
/// user action ended (rl_story_user_action_ended). Both end when the main thread waits with no
/// time limit; rl_story_end_strong_holds (a quiet look) ends the strong ones, 1 if there were any.
void rl_story_holds_begin(int end_hold, int strong_hold);
void rl_story_holds_over(void);
void rl_story_user_action_ended(void);
void rl_story_watch(intptr_t object, int alive);

/// Threads in any hold right now.
int64_t rl_story_held_now(void);

/// The late start (any pass): while armed, work sent to a queue other than main waits before it
/// begins (rl_story_late_start_here, on its pool thread) until disarmed, the story is over, or
/// the main thread waits with no time limit (it may wait for that work).
void rl_story_late_start(int armed);

#endif
