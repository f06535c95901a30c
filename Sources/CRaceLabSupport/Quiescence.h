#ifndef CRACELAB_QUIESCENCE_INTERNAL_H
#define CRACELAB_QUIESCENCE_INTERNAL_H

#include <stdint.h>

// Layer 4 (Quiescence.c): whether the lab is quiet, a question over the thread table and the
// kernel's facts, with no side effect. rl_quiet_look (StoryScope.c) asks it for a story.

/// 1 when quiet (flags and `busy` as for rl_quiet_look); else 0, `busy` saying why.
int rl_lab_quiet(int64_t *busy, int flags);

#endif
