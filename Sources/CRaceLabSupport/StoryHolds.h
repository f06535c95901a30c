#ifndef CRACELAB_STORY_HOLDS_INTERNAL_H
#define CRACELAB_STORY_HOLDS_INTERNAL_H

// Layer 2 (StoryHolds.c): the holds that wait for the story end, and every held thread goes on.
// The story's end as a whole (these, then the blocks' releases held back) is rl_story_holds_over
// (StoryScope.c).
void rl_story_holds_end(void);

void rl_story_end_hold_here(void);

/// 1 while the end hold is armed (a story of the explore or stress pass runs).
int rl_story_end_hold_armed(void);
int rl_story_end_strong_holds(void);
void rl_story_late_start_here(void);

#endif
