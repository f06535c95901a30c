#include "include/CRaceLabJobs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "Invisible.h"
#include "Quiescence.h"
#include "ThreadFacts.h"
#include "ThreadTable.h"
#include "include/CRaceLabTrace.h"

// Layer 5 (the interposers, the story and the job scheduler): calls only lower layers (CLayersTests).
//
// The async pass's scheduler. Swift concurrency sends every job meant for its global executor
// (a task's next stretch, an actor's turn, a task group's child) through
// swift_task_enqueueGlobal_hook when one is set (and delayed ones through the delay and
// deadline hooks): the hooks keep each job here, and one conductor thread chooses which runs
// next, when the story waits and the lab's threads are quiet, so the jobs ready at each choice
// are the same in every run of one seed. One job runs at a time, each on the next of a few
// worker threads: jobs that run one after another on one thread would be ordered for
// ThreadSanitizer by that thread alone, and every hand-over here is relaxed atomics and raw
// futexes, which it does not see (Invisible.h). What orders two jobs for it is what the runtime
// itself says (a job's enqueue before its run) and the lab's own synchronisation.
// A job that blocks (a lock, a semaphore, a checkpoint held by the story) is left to finish by
// itself, and the next begins beside it.

#if RL_LINUX_FACILITIES
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SWIFTCALL __attribute__((swiftcall))
typedef SWIFTCALL void (*global_original)(void *job);
typedef SWIFTCALL void (*global_hook)(void *job, global_original original);
typedef SWIFTCALL void (*delay_original)(unsigned long long ns, void *job);
typedef SWIFTCALL void (*delay_hook)(unsigned long long ns, void *job, delay_original original);
typedef SWIFTCALL void (*deadline_original)(
    long long sec, long long nsec, long long tsec, long long tnsec, int clock, void *job);
typedef SWIFTCALL void (*deadline_hook)(
    long long sec, long long nsec, long long tsec, long long tnsec, int clock, void *job, deadline_original original);
// swift_job_run(Job *, SerialExecutorRef): the generic executor is { NULL, 0 }.
typedef SWIFTCALL void (*job_runner)(void *job, void *identity, uintptr_t implementation);

enum { CAPACITY = 4096, WORKERS = 8, KEYS = 1024, SIZES = 256, CHANGES = 8 };
static const int64_t settle_limit_ns = 200000000;  // a choice waits this long for quiet at most
static const int64_t blocked_after_ns = 200000000;  // a job running this long lets the next begin
static const int64_t drain_limit_ns = 100000000;  // a story's start waits this long at most for jobs left

static uint32_t lock_word;
static void *ready[CAPACITY];
static int64_t ready_seq[CAPACITY], ready_story[CAPACITY];
static int ready_count;
static void *delayed[CAPACITY];
static int64_t delayed_at[CAPACITY], delayed_story[CAPACITY];
static int delayed_count;
static int64_t next_seq;

static uint32_t changes;  // bumped by every change the conductor waits for
static job_runner run_job;
static int installed;

static void *worker_job[WORKERS];
static int64_t worker_story[WORKERS];
static uint32_t worker_word[WORKERS];
static int64_t worker_tid[WORKERS];
static int64_t worker_seq[WORKERS], worker_ready[WORKERS];  // for the trace: which job, of how many
static int workers, last_worker = -1;

// The story's choice rule and what it chose.
static uint64_t seed;
static int policy = RL_JOBS_FIFO, in_story, story_waits;
static int64_t target_choice = -1, target_alternative, change_at[CHANGES];
static int change_count;
static int64_t choices, ran, unsettled, parked, left_over, sizes[SIZES];
static int conducting;  // 1 while the conductor waits for a job it gave a worker
static int64_t drained;  // jobs left from before that ran as this story began
static uint64_t digest;
static void *keys[KEYS];
static int64_t key_priority[KEYS], keys_seen;

RL_INVISIBLE static void lock(void) {
    while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_RELAXED)) sched_yield();
    rl_memory_barrier();
}

RL_INVISIBLE static void unlock(void) {
    rl_memory_barrier();
    STORE(&lock_word, 0);
}

RL_INVISIBLE static void wake(uint32_t *word) {
    rl_memory_barrier();  // what the waiter will read, before the count it wakes on (arm64)
    ADD(word, 1);
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

RL_INVISIBLE static void sleep_on(uint32_t *word, uint32_t seen, int64_t ns) {
    struct timespec limit = {ns / 1000000000, ns % 1000000000};
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen, ns > 0 ? &limit : NULL, NULL, 0);
}

/// A job joins the ready ones (`story`: the story it was sent in, for quiet's count).
RL_INVISIBLE static void make_ready(void *job, int64_t story) {
    lock();
    if (ready_count < CAPACITY) {
        ready[ready_count] = job;
        ready_seq[ready_count] = next_seq++;
        ready_story[ready_count] = story;
        ready_count++;
        job = NULL;
    }
    unlock();
    if (job) run_job(job, NULL, 0);  // (never: 4,096 jobs ready at once) run here rather than lose it
    wake(&changes);
}

RL_INVISIBLE SWIFTCALL static void on_enqueue(void *job, global_original original) {
    (void)original;
    make_ready(job, rl_quiet_work_queued(1));
}

RL_INVISIBLE static void make_delayed(void *job, int64_t ns) {
    int64_t story = rl_quiet_work_queued(1);
    lock();
    int kept = delayed_count < CAPACITY;
    if (kept) {
        delayed[delayed_count] = job;
        delayed_at[delayed_count] = rl_monotonic_ns() + (ns > 0 ? ns : 0);
        delayed_story[delayed_count] = story;
        delayed_count++;
    }
    unlock();
    if (!kept) make_ready(job, story);
    wake(&changes);
}

RL_INVISIBLE SWIFTCALL static void on_enqueue_delayed(unsigned long long ns, void *job, delay_original original) {
    (void)original;
    make_delayed(job, (int64_t)(ns > INT64_MAX ? INT64_MAX : ns));
}

RL_INVISIBLE SWIFTCALL static void on_enqueue_deadline(
    long long sec, long long nsec, long long tsec, long long tnsec, int clock, void *job, deadline_original original) {
    (void)tsec, (void)tnsec, (void)original;
    // The runtime's clocks: 1 continuous (CLOCK_BOOTTIME on Linux), 2 suspending (CLOCK_MONOTONIC).
    struct timespec now;
    clock_gettime(clock == 2 ? CLOCK_MONOTONIC : CLOCK_BOOTTIME, &now);
    make_delayed(job, (int64_t)(sec - now.tv_sec) * 1000000000 + (nsec - now.tv_nsec));
}

/// Delayed jobs whose time has come join the ready ones; the nanoseconds to the next (or 1 ms).
RL_INVISIBLE static int64_t release_due(void) {
    int64_t now = rl_monotonic_ns(), next = 1000000;
    lock();
    for (int i = 0; i < delayed_count;) {
        if (delayed_at[i] <= now && ready_count < CAPACITY) {
            ready[ready_count] = delayed[i];
            ready_seq[ready_count] = next_seq++;
            ready_story[ready_count] = delayed_story[i];
            ready_count++;
            delayed_count--;
            delayed[i] = delayed[delayed_count];
            delayed_at[i] = delayed_at[delayed_count];
            delayed_story[i] = delayed_story[delayed_count];
        } else {
            if (delayed_at[i] - now < next) next = delayed_at[i] - now;
            i++;
        }
    }
    unlock();
    return next > 0 ? next : 1;
}

/// The priority of the task or actor `job` belongs to: seeded when first seen in the story.
RL_INVISIBLE static int64_t *priority_of(void *job) {
    uintptr_t at = ((uintptr_t)job >> 4) % KEYS;
    for (int probe = 0; probe < KEYS; probe++, at = (at + 1) % KEYS) {
        if (keys[at] == job) return &key_priority[at];
        if (keys[at] == NULL) {
            keys[at] = job;
            // Above every lowered priority (those are negative): 1 to 2^62.
            key_priority[at] = 1 + (int64_t)(rl_mix64(seed ^ (uint64_t)(++keys_seen)) >> 2);
            return &key_priority[at];
        }
    }
    return &key_priority[at];  // (a full table: a shared slot)
}

/// Which of the `count` ready jobs runs next, by the story's rule.
RL_INVISIBLE static int choose(int count) {
    if (!LOAD(&in_story)) return 0;
    int64_t choice = -1;
    if (count >= 2) {
        choice = choices++;
        if (choice < SIZES) sizes[choice] = count;
    }
    if (policy == RL_JOBS_FIFO) return 0;
    if (policy == RL_JOBS_ONE_MOVE) {
        if (choice < 0 || choice != target_choice) return 0;
        return (int)(target_alternative < count ? target_alternative : count - 1);
    }
    int best = 0;
    int64_t best_priority = INT64_MIN;
    for (int i = 0; i < count; i++) {
        int64_t priority = *priority_of(ready[i]);
        if (priority > best_priority) best = i, best_priority = priority;
    }
    for (int i = 0; i < change_count; i++)
        if (change_at[i] == ran) *priority_of(ready[best]) = -1 - i;  // below all, later ones lower
    return best;
}

/// Whether the next choice may be made: outside a story at once; in one, when the story waits
/// and the lab's threads are quiet, or after waiting `settle_limit_ns` for that.
RL_INVISIBLE static int settled(int64_t waiting_since) {
    if (!LOAD(&in_story)) return 1;
    int64_t busy = 0;
    if (LOAD(&story_waits) > 0 && rl_lab_quiet(&busy, RL_QUIET_THREADS_ONLY)) return 1;
    if (rl_monotonic_ns() - waiting_since < settle_limit_ns) return 0;
    ADD(&unsettled, 1);
    return 1;
}

/// The worker for the next job: the next in turn (made when it is not there yet), or the one
/// after it when that one is still busy with a job that blocked; -1 when every one is.
static void *work(void *argument);
RL_INVISIBLE static int next_worker(void) {
    int at = (last_worker + 1) % WORKERS;
    for (int step = 0; step < WORKERS; step++, at = (at + 1) % WORKERS) {
        if (at == workers) {
            pthread_t thread;
            if (pthread_create(&thread, NULL, work, (void *)(intptr_t)at) != 0) return -1;
            pthread_detach(thread);
            return workers++;
        }
        if (at < workers && LOAD(&worker_job[at]) == NULL) return at;
    }
    return -1;
}

RL_INVISIBLE static void note_choice(int64_t seq, int count) {
    char text[RL_TRACE_TEXT];
    const char *words = "job ";
    int length = 0;
    while (*words) text[length++] = *words++;
    char digits[24];
    int64_t value = seq;
    int n = 0;
    do digits[n++] = (char)('0' + value % 10), value /= 10; while (value > 0);
    while (n > 0) text[length++] = digits[--n];
    const char *of = " (";
    while (*of) text[length++] = *of++;
    value = count;
    do digits[n++] = (char)('0' + value % 10), value /= 10; while (value > 0);
    while (n > 0) text[length++] = digits[--n];
    const char *tail = " ready)";
    while (*tail) text[length++] = *tail++;
    text[length] = 0;
    rl_trace_note(RL_TRACE_JOB, text, seq);
}

/// Until the job given to `worker` ends, or blocks: its thread seen waiting with no time limit
/// twice in a row, or running for `blocked_after_ns`.
RL_INVISIBLE static void wait_for_job(int worker) {
    int64_t began = rl_monotonic_ns();
    int waits_seen = 0;
    while (LOAD(&worker_job[worker]) != NULL) {
        uint32_t seen = LOAD(&changes);
        if (LOAD(&worker_job[worker]) == NULL) break;
        sleep_on(&changes, seen, 500000);
        int64_t tid = LOAD(&worker_tid[worker]);
        waits_seen = tid != 0 && rl_thread_waits_untimed(tid) ? waits_seen + 1 : 0;
        if (waits_seen >= 2 || rl_monotonic_ns() - began > blocked_after_ns) {
            if (LOAD(&in_story)) ADD(&parked, 1);
            return;
        }
    }
}

/// The conductor: one job at a time, each when the story lets it be chosen.
RL_INVISIBLE static void *conduct(void *argument) {
    (void)argument;
    rl_quiet_ignore_this_thread();  // the harness's own thread: never the lab's work
    int64_t waiting_since = rl_monotonic_ns();
    for (;;) {
        uint32_t seen = LOAD(&changes);
        int64_t next_due = release_due();
        lock();
        int count = ready_count;
        unlock();
        if (count == 0) {
            sleep_on(&changes, seen, next_due);
            waiting_since = rl_monotonic_ns();
            continue;
        }
        if (!settled(waiting_since)) {
            sleep_on(&changes, seen, 1000000 < next_due ? 1000000 : next_due);
            continue;
        }
        int worker = next_worker();
        if (worker < 0) {
            sleep_on(&changes, seen, 1000000);
            continue;
        }
        lock();
        count = ready_count;
        int index = choose(count);
        void *job = ready[index];
        int64_t seq = ready_seq[index], story = ready_story[index];
        for (int i = index; i + 1 < count; i++) {  // the rest keep their order
            ready[i] = ready[i + 1];
            ready_seq[i] = ready_seq[i + 1];
            ready_story[i] = ready_story[i + 1];
        }
        ready_count--;
        worker_seq[worker] = -1;
        if (LOAD(&in_story)) {  // under the lock: a story's beginning resets them
            digest = rl_mix64(digest ^ (uint64_t)(seq + 1));
            worker_seq[worker] = seq;
            worker_ready[worker] = count;
        }
        ran++;
        if (!LOAD(&in_story)) ADD(&left_over, 1);
        STORE(&conducting, 1);  // with the job taken, under the lock: a drain sees one or the other
        unlock();
        last_worker = worker;
        worker_story[worker] = story;
        rl_memory_barrier();
        STORE(&worker_job[worker], job);
        wake(&worker_word[worker]);
        wait_for_job(worker);
        STORE(&conducting, 0);
        wake(&changes);
        waiting_since = rl_monotonic_ns();
    }
    return NULL;
}

RL_INVISIBLE static void *work(void *argument) {
    int self = (int)(intptr_t)argument;
    STORE(&worker_tid[self], rl_current_thread_id());
    for (;;) {
        uint32_t seen = LOAD(&worker_word[self]);
        rl_memory_barrier();
        void *job = LOAD(&worker_job[self]);
        if (job == NULL) {
            sleep_on(&worker_word[self], seen, 0);
            continue;
        }
        rl_memory_barrier();  // the job before what the conductor wrote with it (arm64)
        rl_quiet_work_began(1, worker_story[self]);
        if (worker_seq[self] >= 0) note_choice(worker_seq[self], (int)worker_ready[self]);  // on the lane of the thread that runs it
        run_job(job, NULL, 0);
        rl_quiet_work_ended();
        rl_memory_barrier();
        STORE(&worker_job[self], NULL);
        wake(&changes);
    }
    return NULL;
}

RL_INVISIBLE int rl_jobs_install(void) {
    if (LOAD(&installed)) return 0;
    global_hook *global = dlsym(RTLD_DEFAULT, "swift_task_enqueueGlobal_hook");
    delay_hook *delay = dlsym(RTLD_DEFAULT, "swift_task_enqueueGlobalWithDelay_hook");
    deadline_hook *deadline = dlsym(RTLD_DEFAULT, "swift_task_enqueueGlobalWithDeadline_hook");
    run_job = (job_runner)dlsym(RTLD_DEFAULT, "swift_job_run");
    if (!global || !delay || !deadline || !run_job) return -1;
    pthread_t thread;
    if (pthread_create(&thread, NULL, conduct, NULL) != 0) return -1;
    pthread_detach(thread);
    *delay = on_enqueue_delayed;
    *deadline = on_enqueue_deadline;
    *global = on_enqueue;
    STORE(&installed, 1);
    return 0;
}

/// Until the jobs left from before run out (a task that outlived its story, and the jobs it sends
/// on): outside a story they run as they came, and none of them is one of the next story's
/// choices. A job still sleeping (a delay) is not waited for, nor one that blocked; nor any
/// after `drain_limit_ns`. The count of those that ran between stories, for the pass.
RL_INVISIBLE static int64_t drain_left_over(void) {
    int64_t began = rl_monotonic_ns();
    for (;;) {
        uint32_t seen = LOAD(&changes);
        lock();
        int left = ready_count + LOAD(&conducting);
        unlock();
        if (left == 0 || rl_monotonic_ns() - began > drain_limit_ns) break;
        sleep_on(&changes, seen, 1000000);
    }
    return __atomic_exchange_n(&left_over, 0, __ATOMIC_RELAXED);
}


RL_INVISIBLE void rl_jobs_begin_story(
    uint64_t story_seed, int story_policy, int64_t choice, int64_t alternative, int depth, int64_t horizon) {
    STORE(&drained, drain_left_over());
    lock();
    seed = story_seed;
    policy = story_policy;
    target_choice = choice;
    target_alternative = alternative;
    change_count = depth - 1 < 0 ? 0 : (depth - 1 > CHANGES ? CHANGES : depth - 1);
    for (int i = 0; i < change_count; i++)
        change_at[i] = horizon > 0 ? (int64_t)(rl_mix64(story_seed + 0x9E37 * (uint64_t)(i + 1)) % (uint64_t)horizon) : 0;
    choices = ran = unsettled = parked = 0;
    digest = 0;
    for (int i = 0; i < KEYS; i++) keys[i] = NULL;
    keys_seen = 0;
    next_seq = 0;
    unlock();
    STORE(&in_story, 1);
    wake(&changes);
}

RL_INVISIBLE void rl_jobs_end_story(void) {
    // Under the lock a choice is made under: none is counted after this returns, so the
    // story's sizes and counts can be read.
    lock();
    STORE(&in_story, 0);
    unlock();
    wake(&changes);
}

RL_INVISIBLE int rl_jobs_in_story(void) { return LOAD(&installed) && LOAD(&in_story); }

RL_INVISIBLE void rl_jobs_story_waits(int delta) {
    ADD(&story_waits, delta);
    wake(&changes);
}

RL_INVISIBLE int64_t rl_jobs_choices(void) { return LOAD(&choices); }
RL_INVISIBLE int64_t rl_jobs_choice_size(int64_t index) {
    return index >= 0 && index < SIZES && index < LOAD(&choices) ? LOAD(&sizes[index]) : 0;
}
RL_INVISIBLE int64_t rl_jobs_ran(void) { return LOAD(&ran); }
RL_INVISIBLE uint64_t rl_jobs_digest(void) { return LOAD(&digest); }
RL_INVISIBLE int64_t rl_jobs_unsettled(void) { return LOAD(&unsettled); }
RL_INVISIBLE int64_t rl_jobs_parked(void) { return LOAD(&parked); }
RL_INVISIBLE int64_t rl_jobs_drained(void) { return LOAD(&drained); }

#else
int rl_jobs_install(void) { return -1; }
void rl_jobs_begin_story(uint64_t s, int p, int64_t c, int64_t a, int d, int64_t h) {
    (void)s, (void)p, (void)c, (void)a, (void)d, (void)h;
}
void rl_jobs_end_story(void) {}
int rl_jobs_in_story(void) { return 0; }
void rl_jobs_story_waits(int delta) { (void)delta; }
int64_t rl_jobs_choices(void) { return 0; }
int64_t rl_jobs_choice_size(int64_t index) {
    (void)index;
    return 0;
}
int64_t rl_jobs_ran(void) { return 0; }
uint64_t rl_jobs_digest(void) { return 0; }
int64_t rl_jobs_unsettled(void) { return 0; }
int64_t rl_jobs_parked(void) { return 0; }
int64_t rl_jobs_drained(void) { return 0; }
#endif
