#ifndef CRACELAB_DEFERRED_RELEASES_INTERNAL_H
#define CRACELAB_DEFERRED_RELEASES_INTERNAL_H

// Layer 3 (DeferredReleases.c), for the interposers: 1 when the release of `block`, which has
// just run off the main thread during a story, is held back until the story is over (then the
// caller must not release it); 0 when the caller releases it now.
int rl_defer_release(void *block);

/// The releases of blocks that ran off the main thread during the story, deferred until it is
/// over (LabCallInterposers.c): handed to the harness's releaser thread now (rl_story_holds_over
/// calls it).
void rl_release_deferred_blocks(void);

#endif
