#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

// Layer 0 (thread facts and stand-alone facilities): calls only lower layers (CLayersTests).

// Swift's Synchronization.Mutex on Linux is a priority-inheritance futex. When it is contended,
// the kernel hands the lock from one thread to the next, and its slow paths (in the
// uninstrumented libswiftSynchronization.so) take it with atomics that ThreadSanitizer never
// sees. TSan then misses the ordering every lock gives and reports races inside withLock: a
// correct fix looks wrong. MutexVisibility.S puts trampolines in front of the three slow paths
// that tell TSan what really happened (acquire after taking the lock, release before giving it
// up), on the lock's own address. Nothing is hidden: an access outside the lock is still a race.

#if defined(__linux__)
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));
#else
// Apple's linker refuses weak references no linked library defines (a build without TSan); and
// there Mutex is an os_unfair_lock, which TSan sees: the trampolines are not needed.
#define __tsan_acquire ((void (*)(void *))NULL)
#define __tsan_release ((void (*)(void *))NULL)
#endif

// The library's own slow paths, found behind the trampolines (NULL on a toolchain without them;
// then nothing calls the trampolines either).
void *rl_real_lock_slow;
void *rl_real_unlock_slow;
void *rl_real_try_lock_slow;

__attribute__((no_sanitize("thread"))) void rl_tsan_acquire(void *address) {
    if (__tsan_acquire != NULL) __tsan_acquire(address);
}

__attribute__((no_sanitize("thread"))) void rl_tsan_release(void *address) {
    if (__tsan_release != NULL) __tsan_release(address);
}

int rl_mutex_visibility_installed(void) {
    return rl_real_lock_slow != NULL && rl_real_unlock_slow != NULL && rl_real_try_lock_slow != NULL;
}

__attribute__((constructor)) static void rl_find_mutex_slow_paths(void) {
#if defined(__linux__)
    rl_real_lock_slow = dlsym(RTLD_NEXT, "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF");
    rl_real_unlock_slow = dlsym(RTLD_NEXT, "$s15Synchronization12_MutexHandleV11_unlockSlowyyF");
    rl_real_try_lock_slow = dlsym(RTLD_NEXT, "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF");
#endif
}
