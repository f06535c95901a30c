#define _GNU_SOURCE
#include "CRaceLabSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#endif

// Layer 0 (thread facts and stand-alone facilities): calls only lower layers (CLayersTests).

// A pipe whose ends are close-on-exec and numbered 10 or above, so that dup2 onto 0..3 in the
// child always copies (and clears close-on-exec) instead of being a no-op on the same number.
static int high_pipe(int ends[2]) {
    int raw[2];
    if (pipe(raw) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        ends[i] = fcntl(raw[i], F_DUPFD_CLOEXEC, 10);
        close(raw[i]);
    }
    if (ends[0] < 0 || ends[1] < 0) {
        if (ends[0] >= 0) close(ends[0]);
        if (ends[1] >= 0) close(ends[1]);
        return -1;
    }
    return 0;
}

/// The child's descriptors: /dev/null in, the three pipes' write ends out (1, 2 and the channel
/// on 3), `extra_fd` on 4 if given, nothing else. `*high`: a copy of `extra_fd` the caller
/// closes after the spawn (-1 if none).
static void plan_descriptors(posix_spawn_file_actions_t *actions, int out, int err, int chan, int extra_fd, int *high) {
    posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(actions, out, 1);
    posix_spawn_file_actions_adddup2(actions, err, 2);
    posix_spawn_file_actions_adddup2(actions, chan, 3);
    int keep = 4;
    *high = -1;
    if (extra_fd >= 0) {
        // Copied to a high number first, so the dup2 onto 4 always clears close-on-exec.
        *high = fcntl(extra_fd, F_DUPFD_CLOEXEC, 10);
        if (*high >= 0) {
            posix_spawn_file_actions_adddup2(actions, *high, 4);
            keep = 5;
        }
    }
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    posix_spawn_file_actions_addclosefrom_np(actions, keep);
#else
    (void)keep;
#endif
}

/// A session of its own (or a process group), no signal blocked, and the signals the harness
/// handles back at their defaults.
static void plan_session_and_signals(posix_spawnattr_t *attributes) {
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#if defined(POSIX_SPAWN_SETSID)
    flags |= POSIX_SPAWN_SETSID;
#else
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(attributes, 0);
#endif
#if defined(__APPLE__)
    flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;
#endif
    posix_spawnattr_setflags(attributes, flags);
    sigset_t none, defaults;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(attributes, &none);
    sigemptyset(&defaults);
    int reset[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2};
    for (unsigned i = 0; i < sizeof reset / sizeof reset[0]; i++) sigaddset(&defaults, reset[i]);
    posix_spawnattr_setsigdefault(attributes, &defaults);
}

rl_spawned rl_spawn(const char *path, char *const argv[], char *const envp[], const char *directory, int extra_fd) {
    rl_spawned result = {.pid = -1, .stdout_fd = -1, .stderr_fd = -1, .channel_fd = -1, .error = 0};
    int out[2] = {-1, -1}, err[2] = {-1, -1}, chan[2] = {-1, -1};
    if (high_pipe(out) != 0 || high_pipe(err) != 0 || high_pipe(chan) != 0) {
        result.error = errno;
        goto fail;
    }

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    int high;
    plan_descriptors(&actions, out[1], err[1], chan[1], extra_fd, &high);
    if (directory != NULL) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29)) || defined(__APPLE__)
        posix_spawn_file_actions_addchdir_np(&actions, directory);
#endif
    }
    plan_session_and_signals(&attributes);

    pid_t pid = -1;
    int status = posix_spawn(&pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (high >= 0) close(high);
    if (status != 0) {
        result.error = status;
        goto fail;
    }
#if defined(__linux__)
    // No core files from children that crash on purpose.
    struct rlimit no_core = {0, 0};
    prlimit(pid, RLIMIT_CORE, &no_core, NULL);
#endif
    close(out[1]);
    close(err[1]);
    close(chan[1]);
    result.pid = pid;
    result.stdout_fd = out[0];
    result.stderr_fd = err[0];
    result.channel_fd = chan[0];
    return result;

fail:
    for (int i = 0; i < 2; i++) {
        if (out[i] >= 0) close(out[i]);
        if (err[i] >= 0) close(err[i]);
        if (chan[i] >= 0) close(chan[i]);
    }
    return result;
}

int rl_sealed_memfd(const char *name, const void *bytes, long length) {
#if defined(__linux__) && defined(MFD_ALLOW_SEALING)
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    const char *cursor = bytes;
    long left = length;
    while (left > 0) {
        ssize_t written = write(fd, cursor, (size_t)left);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) { close(fd); return -1; }
        cursor += written;
        left -= written;
    }
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0) { close(fd); return -1; }
    return fd;
#else
    (void)name; (void)bytes; (void)length;
    return -1;
#endif
}

int rl_poll_readable(const int fds[3], int timeout_ms) {
    struct pollfd entries[3];
    int count = 0, index_of[3];
    for (int i = 0; i < 3; i++) {
        if (fds[i] < 0) continue;
        entries[count].fd = fds[i];
        entries[count].events = POLLIN;
        entries[count].revents = 0;
        index_of[count] = i;
        count++;
    }
    if (count == 0) return 0;
    int ready;
    do {
        ready = poll(entries, (nfds_t)count, timeout_ms);
    } while (ready < 0 && errno == EINTR);
    if (ready <= 0) return 0;
    int mask = 0;
    for (int i = 0; i < count; i++) {
        if (entries[i].revents != 0) mask |= 1 << index_of[i];
    }
    return mask;
}

int rl_become_subreaper(void) {
#if defined(__linux__)
    return prctl(PR_SET_CHILD_SUBREAPER, 1);
#else
    return -1;
#endif
}
