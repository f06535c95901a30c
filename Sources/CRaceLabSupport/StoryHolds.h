#ifndef CRACELAB_STORY_HOLDS_H
#define CRACELAB_STORY_HOLDS_H

// Layer 2 (StoryHolds.c): the holds that wait for the story end, and every held thread goes on.
// The story's end as a whole (these, then the blocks' releases held back) is rl_story_holds_over
// (StoryScope.c).
void rl_story_holds_end(void);

#endif
