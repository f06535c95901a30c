// `racelab stress`'s preemption, loaded into any program built with ThreadSanitizer
// (LD_PRELOAD). Nothing else of RaceLab is in that program, so this file stands alone.
//
// Where it acts. TSan's interceptors (in the program) pass every call they intercept on to the
// next definition of that function after the program's own: with this library preloaded, that is
// the one here, which may pause the calling thread a random moment before or after passing the
// call on to the C library. So a thread can be stopped at its synchronisation points (mutexes
// and read-write locks, POSIX semaphores, thread start and join, work sent to a queue): the
// places where another thread's step changes what happens next. No happens-before edge is added
// (nothing here is seen by TSan), so a race is still a race. Condition variables are not among
// them: TSan asks for glibc's versioned ones, which an unversioned stand-in here does not
// answer; the mutex a waiter takes back is.
//
// Seeded. RACELAB_STRESS_SEED gives each thread (numbered in the order it was started, TSan's
// own background thread among them) its own pace, from never pausing to pausing at every point,
// and its own sequence of choices. Threads of different paces are what many bugs need (one
// thread slow while another runs through, as a random priority does in PCT); a seed repeats
// RaceLab's choices, not the OS's own scheduling.
//
// A thread stops pausing once its pauses add up to PAUSE_BUDGET_US: the pauses alone must never
// make a run slow enough to pass for a hang.
//
// With RACELAB_STRESS_SCHEDULE=priority the same points order the threads instead of pausing
// them (PrioritySchedule.c): one thread at a time, by seeded priorities, with 1 to 4 change
// points (RACELAB_STRESS_CHANGES, else by the seed) drawn from the first RACELAB_STRESS_STEPS.
//
// Without RACELAB_STRESS_SEED it only passes calls on. RACELAB_STRESS_TALLY names a file that
// says "loaded" as the program starts and "points pauses" when it exits normally: proof that
// the library was loaded and had somewhere to act.
#define _GNU_SOURCE
#if defined(__linux__)
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// Not instrumented at all, not even function entry and atomics (which `no_sanitize` keeps): it
// runs inside TSan's interceptors, and a thread's start runs here before TSan knows the thread.
// Only the calls below are exported (RL_QUIET and RL_EXPORTED, in PrioritySchedule.h).
#include "PrioritySchedule.h"

// Built with -sanitize=thread (the package's TSan build), this file still gets a start-up call
// to TSan's `__tsan_init`. This private one answers it, so that the library also loads into
// programs without TSan (the program's children: TSan's symbolizer, a shell), where it then does
// nothing (below). In a program with TSan, TSan has started long before.
RL_QUIET void __tsan_init(void) {}

#define PAUSE_BUDGET_US 100000

static int active;
static uint64_t run_seed;
static pid_t program_pid;  // a forked copy of the program does not write the tally
static uint64_t threads_started;  // threads numbered 1, 2, ... in start order (main is 0)
static uint64_t points_seen;
static uint64_t pauses_made;
static char tally_path_text[4096];
static const char *tally_path;

// Each thread's own choices (initial-exec: a preloaded library has static TLS, and no call to
// the TLS allocator, which TSan intercepts, is made from inside an interceptor).
static __thread uint64_t choices __attribute__((tls_model("initial-exec")));
static __thread int numbered __attribute__((tls_model("initial-exec")));
static __thread uint32_t pause_in_1024 __attribute__((tls_model("initial-exec")));  // chance of a pause at a point
static __thread int64_t longest_pause_us __attribute__((tls_model("initial-exec")));
static __thread int64_t paused_us __attribute__((tls_model("initial-exec")));
// The thread's number in the priority schedule: its start order (main 0); -1 for a thread this
// library did not start, which the schedule leaves alone.
static __thread int64_t scheduled_as __attribute__((tls_model("initial-exec")));
// 1 while the thread is in the schedule's code: a signal handler that calls a wrapped function
// then (TSan delivers signals at once in a blocking call) must not take its lock again.
static __thread int in_schedule __attribute__((tls_model("initial-exec")));
static int scheduling;  // RACELAB_STRESS_SCHEDULE=priority: order, do not pause

#define mix rl_stress_mix

// The thread's pace and choices follow from the seed and its number.
RL_QUIET static void number_this_thread(uint64_t number) {
    static const uint32_t rates[] = {0, 64, 256, 1024};
    static const int64_t lengths_us[] = {20, 200, 2000};
    choices = mix(run_seed ^ mix(number + 1));
    uint64_t pace = mix(choices ^ 0x5EED);
    pause_in_1024 = rates[pace % 4];
    longest_pause_us = lengths_us[(pace >> 8) % 3];
    numbered = 1;
}

// The main thread, or one started before we were loaded: only the main thread is scheduled.
RL_QUIET static void number_unknown_thread(void) {
    number_this_thread(0);
    scheduled_as = syscall(SYS_gettid) == syscall(SYS_getpid) ? 0 : -1;
}

RL_QUIET static uint64_t draw(void) {
    if (!numbered) number_unknown_thread();
    choices = mix(choices);
    return choices;
}

// Raw system calls: the C library's sleep is intercepted by TSan.
RL_QUIET static void pause_for(int64_t us) {
    struct timespec time = {.tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000};
    syscall(SYS_nanosleep, &time, NULL);
}

// One step of the priority schedule for this thread, if it is one the schedule orders: not
// re-entered from a signal handler, and errno as the caller left it (the schedule's system
// calls set it).
RL_QUIET static void schedule_step(void (*step)(uint64_t)) {
    if (!numbered) number_unknown_thread();
    if (scheduled_as < 0 || in_schedule) return;
    int saved = errno;
    in_schedule = 1;
    step((uint64_t)scheduled_as);
    in_schedule = 0;
    errno = saved;
}

// A synchronisation point: wait for this thread's turn (the priority schedule), or maybe pause.
RL_QUIET static void point(void) {
    if (!active) return;
    __atomic_add_fetch(&points_seen, 1, __ATOMIC_RELAXED);
    if (scheduling) {
        schedule_step(rl_schedule_point);
        return;
    }
    uint64_t choice = draw();  // numbers the thread first, if it is not yet
    if ((choice & 1023) >= pause_in_1024 || paused_us >= PAUSE_BUDGET_US) return;
    __atomic_add_fetch(&pauses_made, 1, __ATOMIC_RELAXED);
    int64_t us = (int64_t)((choice >> 10) % (uint64_t)longest_pause_us);
    paused_us += us;
    int saved = errno;
    if (us == 0) {
        syscall(SYS_sched_yield);
    } else {
        pause_for(us);
    }
    errno = saved;
}

// The thread may block in the call it is about to make: in the priority schedule, another runs
// meanwhile (its next point waits for the turn again).
RL_QUIET static void may_block(void) {
    if (active && scheduling) schedule_step(rl_schedule_leave);
}

#define NEXT(name) next_##name
#define FIND(name)                                                                                 \
    do {                                                                                           \
        if (!NEXT(name)) NEXT(name) = (__typeof__(NEXT(name)))dlsym(RTLD_NEXT, #name);             \
    } while (0)

static int (*next_pthread_mutex_lock)(pthread_mutex_t *);
static int (*next_pthread_mutex_trylock)(pthread_mutex_t *);
static int (*next_pthread_mutex_unlock)(pthread_mutex_t *);
static int (*next_pthread_rwlock_rdlock)(pthread_rwlock_t *);
static int (*next_pthread_rwlock_wrlock)(pthread_rwlock_t *);
static int (*next_pthread_rwlock_tryrdlock)(pthread_rwlock_t *);
static int (*next_pthread_rwlock_trywrlock)(pthread_rwlock_t *);
static int (*next_pthread_rwlock_unlock)(pthread_rwlock_t *);
static int (*next_sem_wait)(sem_t *);
static int (*next_sem_trywait)(sem_t *);
static int (*next_sem_post)(sem_t *);
static int (*next_pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
static int (*next_pthread_join)(pthread_t, void **);
static void (*next_dispatch_async_f)(void *, void *, void (*)(void *));
static void (*next_dispatch_sync_f)(void *, void *, void (*)(void *));

// A lock: a pause before it lets another thread take it first; one after it, while held, makes
// others wait (and lets a second lock taken in another order meet this one: deadlocks show).
// In the priority schedule a lock is tried first: only a lock another thread holds blocks.
RL_EXPORTED int pthread_mutex_lock(pthread_mutex_t *mutex) {
    FIND(pthread_mutex_lock);
    FIND(pthread_mutex_trylock);
    point();
    int result = scheduling ? NEXT(pthread_mutex_trylock)(mutex) : EBUSY;
    if (result == EBUSY) {
        may_block();
        result = NEXT(pthread_mutex_lock)(mutex);
    }
    point();
    return result;
}

RL_EXPORTED int pthread_mutex_trylock(pthread_mutex_t *mutex) {
    FIND(pthread_mutex_trylock);
    point();
    return NEXT(pthread_mutex_trylock)(mutex);
}

// An unlock: a pause after it lets another thread in between two critical sections of this one.
RL_EXPORTED int pthread_mutex_unlock(pthread_mutex_t *mutex) {
    FIND(pthread_mutex_unlock);
    int result = NEXT(pthread_mutex_unlock)(mutex);
    point();
    return result;
}

RL_EXPORTED int pthread_rwlock_rdlock(pthread_rwlock_t *lock) {
    FIND(pthread_rwlock_rdlock);
    FIND(pthread_rwlock_tryrdlock);
    point();
    int result = scheduling ? NEXT(pthread_rwlock_tryrdlock)(lock) : EBUSY;
    if (result == EBUSY) {
        may_block();
        result = NEXT(pthread_rwlock_rdlock)(lock);
    }
    point();
    return result;
}

RL_EXPORTED int pthread_rwlock_wrlock(pthread_rwlock_t *lock) {
    FIND(pthread_rwlock_wrlock);
    FIND(pthread_rwlock_trywrlock);
    point();
    int result = scheduling ? NEXT(pthread_rwlock_trywrlock)(lock) : EBUSY;
    if (result == EBUSY) {
        may_block();
        result = NEXT(pthread_rwlock_wrlock)(lock);
    }
    point();
    return result;
}

RL_EXPORTED int pthread_rwlock_unlock(pthread_rwlock_t *lock) {
    FIND(pthread_rwlock_unlock);
    int result = NEXT(pthread_rwlock_unlock)(lock);
    point();
    return result;
}

RL_EXPORTED int sem_wait(sem_t *semaphore) {
    FIND(sem_wait);
    FIND(sem_trywait);
    point();
    int result = scheduling ? NEXT(sem_trywait)(semaphore) : -1;
    if (result != 0) {
        may_block();
        result = NEXT(sem_wait)(semaphore);
    }
    point();
    return result;
}

RL_EXPORTED int sem_post(sem_t *semaphore) {
    FIND(sem_post);
    int result = NEXT(sem_post)(semaphore);
    point();
    return result;
}

// A started thread learns its number (so its choices follow from the seed) before it runs.
// Numbers pass through a ring of slots, not the heap: this runs inside TSan's interceptor, and
// the ring only has to outlast the start of the threads started at once.
#define SLOTS 4096
// A slot is taken until its thread has read it (TSan's interceptor waits for the new thread to
// start, but not always for it to get here: with a TSan that is a library of its own, these
// wrappers sit in front of it instead).
static struct start_slot {
    void *(*start)(void *);
    void *argument;
    uint64_t number;
    int taken;
} slots[SLOTS];

RL_QUIET static void *numbered_start(void *slot_pointer) {
    struct start_slot *slot = slot_pointer;
    void *(*start)(void *) = slot->start;
    void *argument = slot->argument;
    uint64_t number = slot->number;
    __atomic_store_n(&slot->taken, 0, __ATOMIC_RELEASE);
    scheduled_as = (int64_t)number;  // before `numbered`: a signal in between is not thread 0
    number_this_thread(number);
    void *result = start(argument);
    may_block();  // it ends: another runs
    scheduled_as = -1;  // what runs after (thread-local destructors) is not scheduled
    return result;
}

RL_EXPORTED int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *), void *argument) {
    FIND(pthread_create);
    if (!active) return NEXT(pthread_create)(thread, attributes, start, argument);
    point();
    uint64_t number = __atomic_add_fetch(&threads_started, 1, __ATOMIC_RELAXED);
    struct start_slot *slot = &slots[number % SLOTS];
    int free_slot = 0;
    while (!__atomic_compare_exchange_n(&slot->taken, &free_slot, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        free_slot = 0;  // still taken: 4096 threads started since, and this one not yet running
        syscall(SYS_sched_yield);
    }
    slot->start = start;
    slot->argument = argument;
    slot->number = number;
    int result = NEXT(pthread_create)(thread, attributes, numbered_start, slot);
    if (result != 0) __atomic_store_n(&slot->taken, 0, __ATOMIC_RELEASE);
    return result;
}

RL_EXPORTED int pthread_join(pthread_t thread, void **result) {
    FIND(pthread_join);
    point();
    may_block();
    int status = NEXT(pthread_join)(thread, result);
    point();
    return status;
}

// Work sent to a queue (libdispatch; found only in a program that has it). TSan hands a block
// sent with dispatch_async or dispatch_sync on as a function, through these.
RL_EXPORTED void dispatch_async_f(void *queue, void *context, void (*work)(void *)) {
    FIND(dispatch_async_f);
    point();
    NEXT(dispatch_async_f)(queue, context, work);
}

RL_EXPORTED void dispatch_sync_f(void *queue, void *context, void (*work)(void *)) {
    FIND(dispatch_sync_f);
    point();
    may_block();
    NEXT(dispatch_sync_f)(queue, context, work);
    point();
}

// A decimal number from the environment; `fallback` if absent or not one.
RL_QUIET static uint64_t number_from(const char *name, uint64_t fallback) {
    const char *text = getenv(name);
    if (!text || !*text) return fallback;
    uint64_t value = 0;
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9') return fallback;
        value = value * 10 + (uint64_t)(*c - '0');
    }
    return value;
}

// The library is also loaded into whatever the program starts (its environment is inherited:
// TSan's own symbolizer, a shell): it acts only in a program that has TSan in it.
RL_QUIET static void write_text(const char *text, int length) {
    int file = (int)syscall(SYS_openat, AT_FDCWD, tally_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (file < 0) return;
    syscall(SYS_write, file, text, length);
    syscall(SYS_close, file);
}

RL_QUIET __attribute__((constructor)) static void start_stress(void) {
    if (!dlsym(RTLD_DEFAULT, "__tsan_init")) return;
    if (!getenv("RACELAB_STRESS_SEED")) return;
    // Every call's next definition found now, while one thread runs (dlsym takes the loader's
    // lock); a wrapper still looks one up itself if it is called before this.
    FIND(pthread_mutex_lock);
    FIND(pthread_mutex_trylock);
    FIND(pthread_mutex_unlock);
    FIND(pthread_rwlock_rdlock);
    FIND(pthread_rwlock_wrlock);
    FIND(pthread_rwlock_tryrdlock);
    FIND(pthread_rwlock_trywrlock);
    FIND(pthread_rwlock_unlock);
    FIND(sem_wait);
    FIND(sem_trywait);
    FIND(sem_post);
    FIND(pthread_create);
    FIND(pthread_join);
    FIND(dispatch_async_f);
    FIND(dispatch_sync_f);
    run_seed = number_from("RACELAB_STRESS_SEED", 0);
    const char *schedule = getenv("RACELAB_STRESS_SCHEDULE");
    if (schedule && schedule[0] == 'p' && schedule[1] == 'r') {  // "priority"
        scheduling = 1;
        // 1 to 4 change points, by the seed: how many preemptions a bug needs is not known.
        uint64_t changes = number_from("RACELAB_STRESS_CHANGES", 1 + mix(run_seed ^ 0xC4A2) % 4);
        rl_schedule_start(run_seed, number_from("RACELAB_STRESS_STEPS", 200), (int)changes,
            (int64_t)number_from("RACELAB_STRESS_LIMIT_MS", 3000));
        pthread_atfork(NULL, NULL, rl_schedule_forked);
    }
    const char *tally = getenv("RACELAB_STRESS_TALLY");
    if (tally) {
        size_t length = 0;
        while (tally[length] && length + 1 < sizeof tally_path_text) {
            tally_path_text[length] = tally[length];
            length++;
        }
        tally_path = tally_path_text;
        // A program this one starts (built with TSan too) keeps the pauses, not the tally.
        unsetenv("RACELAB_STRESS_TALLY");
    }
    program_pid = (pid_t)syscall(SYS_getpid);
    if (tally_path) write_text("loaded\n", 7);
    active = 1;
}

RL_QUIET __attribute__((destructor)) static void write_tally(void) {
    if (!tally_path || (pid_t)syscall(SYS_getpid) != program_pid) return;
    char text[64];
    int length = 0;
    // In the priority schedule, its hand-overs stand for the pauses.
    uint64_t values[2] = {__atomic_load_n(&points_seen, __ATOMIC_RELAXED),
        scheduling ? rl_schedule_switches() : __atomic_load_n(&pauses_made, __ATOMIC_RELAXED)};
    for (int i = 0; i < 2; i++) {
        char digits[24];
        int count = 0;
        uint64_t value = values[i];
        do {
            digits[count++] = (char)('0' + value % 10);
            value /= 10;
        } while (value);
        while (count) text[length++] = digits[--count];
        text[length++] = i == 0 ? ' ' : '\n';
    }
    write_text(text, length);
}
#endif
