#ifndef CRACELAB_SPAWN_H
#define CRACELAB_SPAWN_H

#include <stdint.h>

// Starting a child process the way the harness needs it, which Foundation's Process cannot:
// a fourth descriptor (the result channel) and a session of its own (so the watchdog can kill
// the child and everything it started, as one group).

/// What `rl_spawn` started: the child's pid and the parent's read ends of its stdout, stderr
/// and channel (fd 3 in the child). On failure pid is -1 and `error` holds the errno.
typedef struct {
    int pid;
    int stdout_fd;
    int stderr_fd;
    int channel_fd;
    int error;
} rl_spawned;

/// Start `path` with `argv` and `envp` (NULL-terminated) in `directory` (NULL: the parent's),
/// stdin from /dev/null, stdout/stderr/fd 3 to fresh pipes, `extra_fd` (when >= 0) as fd 4,
/// every other descriptor closed, in a new session (so its pid is also its process group id),
/// signals at their defaults.
rl_spawned rl_spawn(const char *path, char *const argv[], char *const envp[], const char *directory, int extra_fd);

/// A read-only in-memory file holding `bytes` (Linux memfd, sealed against any write, growth or
/// shrinking, even by root): what the harness hands a child that no one can change afterwards.
/// The descriptor is close-on-exec; -1 where the system has no sealed memfds.
int rl_sealed_memfd(const char *name, const void *bytes, long length);

/// Wait up to `timeout_ms` for any of `fds` (up to 3; -1 entries are skipped) to be readable or
/// closed. Returns a bit mask of the ready ones (bit i for fds[i]), 0 on timeout.
int rl_poll_readable(const int fds[3], int timeout_ms);

/// Become the "subreaper" of this process's descendants (Linux): a grandchild whose parent dies
/// is handed to us instead of to init, so the harness can still find and kill it. 0 on success.
int rl_become_subreaper(void);

// Process hygiene.

/// Ask the kernel to SIGKILL this process when its parent dies (Linux); no-op elsewhere.
/// Returns 0 on success.
int rl_die_with_parent(void);

#endif
