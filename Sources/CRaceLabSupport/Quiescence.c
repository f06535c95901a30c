#define _GNU_SOURCE
#include "CRaceLabSupport.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
#if RL_LINUX_FACILITIES
#include <link.h>
#endif

#include "Invisible.h"

// Whether a lab has gone quiet: no work waits to be delivered to the main thread, after a delay,
// or for Dispatch's pool (a block sent to a global or concurrent queue, QueueKinds.c), and every
// thread started (a pool thread only while it runs a block) has ended or waits, with no time
// limit, for something only the lab can give it (a job, a lock, a signal). The threads are asked
// through the kernel, never a clock: a thread that has work but no CPU on a busy machine is
// runnable, so quiet can come late on a loaded machine, never early.
//
// Other work waiting in a queue is not counted: a serial queue's block gets a thread at once
// (runnable, so busy; or starting, counted as such); if it stays waiting with every thread idle,
// it waits behind work that is itself stuck (a serial queue whose block waits for a lock), or on
// a suspended queue, which only the story can change.
//
// (Long for one concept: most of it is reading a thread's state from /proc, which only this
// question needs.)
//
// Counted by LabCallInterposers.c as work is sent and threads start. Threads of the harness
// itself (heartbeats, the preemption sender) say so and are left out, and so is a thread paused
// at a scripted checkpoint while it waits for the story.

#define RL_QUIET_SLOTS 1024

// The story counted now (high 32 bits: work sent before it is not its) and the work sent in it
// to the main queue, a pool's queue or after a delay that has not begun (low 32 bits): one
// word, so a story beginning between a block's count and its story's read cannot split them.
static int64_t waiting;
static int64_t threads_starting;  // created, not yet running
static int64_t threads_alive;     // created through pthread_create and not yet ended
static int64_t slot_thread[RL_QUIET_SLOTS];  // kernel thread id, 0: free
static int slot_is_pool[RL_QUIET_SLOTS];
static int slot_is_paused[RL_QUIET_SLOTS];  // paused at a scripted checkpoint: waits for the story
static int slot_story_held[RL_QUIET_SLOTS];  // in a hold that waits for the story (StoryHolds.c)
static int slot_running[RL_QUIET_SLOTS];    // blocks this thread is running (nested: a sync inside)
static int slot_is_held[RL_QUIET_SLOTS];    // held by the harness (a preemption): busy, whatever it waits on
static pthread_key_t slot_key;

RL_INVISIBLE static void forget_slot(void *slot) {
    intptr_t index = (intptr_t)slot - 1;
    if (index >= 0 && index < RL_QUIET_SLOTS) STORE(&slot_thread[index], 0);
}

RL_INVISIBLE static void thread_ended(void *slot) {
    forget_slot(slot);
    ADD(&threads_alive, -1);
}

// Made at load time, while the process has one thread: no pthread_once, which ThreadSanitizer
// would see as an ordering between every thread that asks for its slot.
__attribute__((constructor)) RL_INVISIBLE static void make_key(void) { pthread_key_create(&slot_key, thread_ended); }

RL_INVISIBLE static intptr_t own_slot(void) { return (intptr_t)pthread_getspecific(slot_key) - 1; }

#define RL_STORY_OF(word) ((word) >> 32)
#define RL_COUNT_OF(word) ((word) & 0xFFFFFFFF)

RL_INVISIBLE void rl_quiet_begin_story(void) {
    int64_t word = LOAD(&waiting);
    while (!__atomic_compare_exchange_n(&waiting, &word, (RL_STORY_OF(word) + 1) << 32, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

RL_INVISIBLE int64_t rl_quiet_work_queued(int counted) {
    if (!counted) return RL_STORY_OF(LOAD(&waiting));
    return RL_STORY_OF(ADD(&waiting, 1));
}

RL_INVISIBLE void rl_quiet_work_began(int counted, int64_t sent_in_story) {
    intptr_t index = own_slot();
    if (index >= 0 && index < RL_QUIET_SLOTS) ADD(&slot_running[index], 1);
    if (!counted) return;
    int64_t word = LOAD(&waiting);
    while (RL_STORY_OF(word) == sent_in_story && RL_COUNT_OF(word) > 0
           && !__atomic_compare_exchange_n(&waiting, &word, word - 1, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

RL_INVISIBLE void rl_quiet_work_ended(void) {
    intptr_t index = own_slot();
    if (index >= 0 && index < RL_QUIET_SLOTS) ADD(&slot_running[index], -1);
}
static int thread_limit = 512;
static int thread_limit_ends_process;

void rl_thread_limit_set(int limit, int ends_process) {
    STORE(&thread_limit, limit);
    STORE(&thread_limit_ends_process, ends_process);
}
int rl_thread_limit(void) { return LOAD(&thread_limit); }
int rl_thread_limit_ends_process(void) { return LOAD(&thread_limit_ends_process); }

RL_INVISIBLE int rl_quiet_thread_starting(void) {
    // A cap on threads: thousands of them would use up the machine's process ids, which every
    // other student's run and the grader itself need. Far above any lab's.
    if (ADD(&threads_alive, 1) > rl_thread_limit()) {
        ADD(&threads_alive, -1);
        return 0;
    }
    ADD(&threads_starting, 1);
    return 1;
}

RL_INVISIBLE void rl_quiet_thread_not_started(void) {
    ADD(&threads_starting, -1);
    ADD(&threads_alive, -1);
}

RL_INVISIBLE void rl_quiet_thread_began(int is_pool) {
    int64_t tid = rl_current_thread_id();
    pthread_setspecific(slot_key, (void *)(intptr_t)(RL_QUIET_SLOTS + 1));  // no slot: still counted alive
    for (intptr_t index = 0; index < RL_QUIET_SLOTS; index++) {
        int64_t expected = 0;
        if (__atomic_compare_exchange_n(&slot_thread[index], &expected, tid, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            STORE(&slot_is_pool[index], is_pool);
            STORE(&slot_is_paused[index], 0);
            STORE(&slot_story_held[index], 0);
            STORE(&slot_running[index], 0);
            STORE(&slot_is_held[index], 0);
            pthread_setspecific(slot_key, (void *)(index + 1));
            break;
        }
    }
    // Counted as starting until now, so that no look sees neither the creation nor the thread.
    ADD(&threads_starting, -1);
}

RL_INVISIBLE void rl_quiet_ignore_this_thread(void) {
    void *slot = pthread_getspecific(slot_key);
    if (slot == NULL) return;
    forget_slot(slot);  // still alive: counted until it ends (its key is kept for that)
    pthread_setspecific(slot_key, (void *)(intptr_t)(RL_QUIET_SLOTS + 1));
}

RL_INVISIBLE void rl_quiet_unpause_all(void) {
    for (int index = 0; index < RL_QUIET_SLOTS; index++) {
        if (LOAD(&slot_is_paused[index])) STORE(&slot_is_paused[index], 0);
    }
}

RL_INVISIBLE int rl_quiet_any_paused(void) {
    for (int index = 0; index < RL_QUIET_SLOTS; index++) {
        if (LOAD(&slot_thread[index]) != 0 && LOAD(&slot_is_paused[index])) return 1;
    }
    return 0;
}

RL_INVISIBLE void rl_quiet_held(int held) {
    intptr_t index = own_slot();
    if (index >= 0 && index < RL_QUIET_SLOTS) STORE(&slot_is_held[index], held);
}

RL_INVISIBLE void rl_quiet_story_held(int held) {
    intptr_t index = own_slot();
    if (index >= 0 && index < RL_QUIET_SLOTS) STORE(&slot_story_held[index], held);
}

RL_INVISIBLE void rl_quiet_paused(int paused) {
    intptr_t index = own_slot();
    if (index >= 0 && index < RL_QUIET_SLOTS) STORE(&slot_is_paused[index], paused);
}

RL_INVISIBLE long rl_read_task_file(int64_t tid, const char *name, char *text, long size) {
#if RL_LINUX_FACILITIES
    char path[96];
    int length = 0;
    char digits[24];
    int n = 0;
    for (int64_t left = tid; n == 0 || left > 0; left /= 10) digits[n++] = (char)('0' + left % 10);
    for (const char *c = "/proc/self/task/"; *c; c++) path[length++] = *c;
    while (n > 0) path[length++] = digits[--n];
    path[length++] = '/';
    for (const char *c = name; *c && length < (int)sizeof path - 1; c++) path[length++] = *c;
    path[length] = 0;
    int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    long got = syscall(SYS_read, fd, text, size - 1);
    syscall(SYS_close, fd);
    if (got < 0) return -1;
    text[got] = 0;
    return got;
#else
    (void)tid, (void)name, (void)text, (void)size;
    return -1;  // no /proc
#endif
}

/// /proc/self/task/TID/schedstat: ns on a CPU, ns waiting on a run queue, times it got a CPU.
RL_INVISIBLE static int read_schedstat(int64_t tid, int64_t fields[3]) {
    char text[96];
    if (tid <= 0 || rl_read_task_file(tid, "schedstat", text, sizeof text) <= 0) return -1;
    const char *c = text;
    for (int i = 0; i < 3; i++) {
        fields[i] = 0;
        while (*c == ' ') c++;
        if (*c < '0' || *c > '9') return -1;
        while (*c >= '0' && *c <= '9') fields[i] = fields[i] * 10 + (*c++ - '0');
    }
    return 0;
}

RL_INVISIBLE int rl_thread_schedstat(int64_t tid, int64_t *ran_ns, int64_t *waited_ns, int64_t *turns) {
    int64_t fields[3];
    if (read_schedstat(tid, fields) != 0) return -1;
    *ran_ns = fields[0];
    *waited_ns = fields[1];
    *turns = fields[2];
    return 0;
}

RL_INVISIBLE int rl_thread_times(int64_t tid, int64_t *ran_ns, int64_t *waited_ns) {
    int64_t turns;
    return rl_thread_schedstat(tid, ran_ns, waited_ns, &turns);
}

RL_INVISIBLE int64_t rl_thread_turns(int64_t tid) {
    int64_t fields[3];
    return read_schedstat(tid, fields) == 0 ? fields[2] : -1;
}

RL_INVISIBLE char rl_task_state_letter(int64_t tid) {
    char text[512];
    if (rl_read_task_file(tid, "stat", text, sizeof text) <= 0) return 0;
    const char *state = NULL;
    for (const char *c = text; *c; c++) if (*c == ')') state = c;
    if (state == NULL || state[1] != ' ') return 'R';
    return state[2] == 'Z' || state[2] == 'X' ? 0 : state[2];
}

#if RL_LINUX_FACILITIES
// "202 0x7f.. 0x189 0x0 0x7f.." -> the numbers (the call's number, then its arguments).
RL_INVISIBLE static int parse_numbers(const char *text, unsigned long long *out, int capacity) {
    int count = 0;
    const char *c = text;
    while (*c && count < capacity) {
        while (*c == ' ') c++;
        if (!*c || *c == '\n') break;
        int hex = c[0] == '0' && c[1] == 'x';
        if (hex) c += 2;
        unsigned long long value = 0;
        while ((*c >= '0' && *c <= '9') || (hex && ((*c >= 'a' && *c <= 'f') || (*c >= 'A' && *c <= 'F')))) {
            int digit = *c <= '9' ? *c - '0' : (*c | 0x20) - 'a' + 10;
            value = value * (hex ? 16 : 10) + (unsigned long long)digit;
            c++;
        }
        out[count++] = value;
        while (*c && *c != ' ') c++;
    }
    return count;
}

/// 1 when thread `tid` has something to do: it runs or can run, sleeps for a while and goes on
/// by itself (a sleep, a wait with a time limit), or is in any other system call (memory, files,
/// a pipe: work under way). 0 when it has ended, or waits with no time limit for something only
/// another thread of the lab can give it (a lock, a condition, an event). `pool`: a dispatch pool thread
/// not running a block the harness saw sent (libraries send some themselves: OperationQueue,
/// Swift's tasks); idle, such a thread waits for work with a time limit, so any wait counts.
enum { RL_TASK_GONE, RL_TASK_AWAKE, RL_TASK_IN_CALL };

/// Whether `pc` lies in this program's own code (not a shared library's). ThreadSanitizer's
/// runtime is linked into the program, and it alone makes system calls from there (Swift code
/// makes none; the harness's C calls libc's `syscall`): a futex wait from there is the runtime's
/// own lock, held for a moment by another thread (a report being written, a thread being
/// registered), not a wait for the lab. The first loaded object dl_iterate_phdr lists is the
/// program.
static uintptr_t program_code_start, program_code_end;  // [start, end): found once

RL_INVISIBLE static int find_program_code(struct dl_phdr_info *info, size_t size, void *unused) {
    (void)size, (void)unused;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (program_code_start == 0 || start < program_code_start) program_code_start = start;
        if (start + segment->p_memsz > program_code_end) program_code_end = start + segment->p_memsz;
    }
    return 1;  // the program only
}

RL_INVISIBLE static int in_program_code(unsigned long long pc) {
    static int found;
    if (!__atomic_load_n(&found, __ATOMIC_ACQUIRE)) {
        dl_iterate_phdr(find_program_code, NULL);
        __atomic_store_n(&found, 1, __ATOMIC_RELEASE);
    }
    return pc >= program_code_start && pc < program_code_end;
}

/// What thread `tid` is doing, from /proc: gone (ended, or a zombie), awake (running, runnable,
/// on its way in the kernel, waiting for a lock of ThreadSanitizer's runtime, or asleep outside
/// any system call we can read), or asleep in a system call, whose number and arguments are then
/// in `call`.
RL_INVISIBLE static int task_state(int64_t tid, unsigned long long call[7]) {
    char letter = rl_task_state_letter(tid);
    if (letter == 0) return RL_TASK_GONE;
    if (letter != 'S') return RL_TASK_AWAKE;  // R: running or runnable; D: in the kernel on its way
    char text[512];
    if (rl_read_task_file(tid, "syscall", text, sizeof text) <= 0) return RL_TASK_AWAKE;
    // "running", or "-1 ..." (blocked outside any system call): awake.
    // The call's number, its 6 arguments, the stack pointer and the program counter.
    unsigned long long numbers[9] = {0};
    if (text[0] < '0' || text[0] > '9' || parse_numbers(text, numbers, 9) < 9) return RL_TASK_AWAKE;
    if ((long)numbers[0] == SYS_futex && in_program_code(numbers[8])) return RL_TASK_AWAKE;
    for (int i = 0; i < 7; i++) call[i] = numbers[i];
    return RL_TASK_IN_CALL;
}

RL_INVISIBLE static int thread_is_busy(int64_t tid, int pool, unsigned long long call[7]) {
    for (int i = 0; i < 7; i++) call[i] = 0;
    int state = task_state(tid, call);
    if (state != RL_TASK_IN_CALL) return state == RL_TASK_AWAKE;
    switch ((long)call[0]) {
    case SYS_futex:
        return !pool && call[4] != 0;  // a time limit: it goes on by itself
#ifdef SYS_epoll_wait
    case SYS_epoll_wait:
#endif
    case SYS_epoll_pwait:
        return !pool && (int)call[4] != -1;
#ifdef SYS_poll
    case SYS_poll:
        return !pool && (int)call[3] != -1;
#endif
    case SYS_ppoll:
        return !pool && call[3] != 0;
    case SYS_pselect6:
        return !pool && call[5] != 0;
#ifdef SYS_select
    case SYS_select:
        return !pool && call[5] != 0;
#endif
    // (Not a read: a thread that reads a pipe waits for another process, such as ThreadSanitizer's
    // symbolizer while it writes a report, which is work under way.)
    case SYS_wait4:
    case SYS_waitid:
#ifdef SYS_pause
    case SYS_pause:
#endif
    case SYS_rt_sigsuspend:
        return 0;
    case SYS_rt_sigtimedwait:
        return call[3] != 0;
    default:
        return 1;  // a sleep, or work in the kernel (memory, files)
    }
}

#else
// No /proc: a thread's wait cannot be told from its work. A clock stands in (see rl_quiet_look).
RL_INVISIBLE static int thread_is_busy(int64_t tid, int pool, unsigned long long call[7]) {
    (void)tid, (void)pool;
    for (int i = 0; i < 7; i++) call[i] = 0;
    return 0;
}
#endif

RL_INVISIBLE int rl_quiet_is_lab_thread(int pool) {
    intptr_t index = own_slot();
    return index >= 0 && index < RL_QUIET_SLOTS && (pool || !LOAD(&slot_is_pool[index]));
}

RL_INVISIBLE int rl_quiet_waits_untimed(int64_t tid) {
#if RL_LINUX_FACILITIES
    // Only a futex: a run loop's poll (ppoll, epoll) shows no time limit although a timer
    // descriptor in its set wakes it (Foundation's run loop on Linux).
    unsigned long long call[7] = {0};
    return task_state(tid, call) == RL_TASK_IN_CALL && (long)call[0] == SYS_futex && call[4] == 0;
#else
    (void)tid;
    return 0;
#endif
}

/// No main-queue or delayed work waits to begin, and no thread is being started.
RL_INVISIBLE static int nothing_pending(int64_t *busy, int flags) {
    if (LOAD(&threads_starting) > 0) {
        *busy = -2;
        return 0;
    }
    if (!(flags & RL_QUIET_THREADS_ONLY) && RL_COUNT_OF(LOAD(&waiting)) > 0) {
        *busy = -1;
        return 0;
    }
    return 1;
}

/// One pass over the lab's threads: 1 if each has ended or waits for the lab. The first pass
/// notes each thread and the call it waits in (number and arguments; zero: ended); the second
/// requires the same thread in the same call. (A signal that wakes a waiting thread for a
/// moment, a preemption's, leaves it in the same call: still waiting.)
RL_INVISIBLE static int threads_wait(
    int64_t *busy, int flags, int64_t *seen, unsigned long long (*calls)[7], int second) {
    for (int index = 0; index < RL_QUIET_SLOTS; index++) {
        int64_t tid = LOAD(&slot_thread[index]);
        if (tid == 0 || LOAD(&slot_is_paused[index]) || LOAD(&slot_story_held[index])) tid = 0;
        int held = tid != 0 && LOAD(&slot_is_held[index]);
        if (held && (flags & RL_QUIET_BUT_HELD)) tid = 0;
        if (!second) seen[index] = tid;
        if (tid == 0) {
            if (second && seen[index] != 0) {  // ended, or held or paused since: it ran
                *busy = seen[index];
                return 0;
            }
            continue;
        }
        int pool = LOAD(&slot_is_pool[index]) && LOAD(&slot_running[index]) == 0;
        unsigned long long call[7];
        int moved = 0;
        if (held || thread_is_busy(tid, pool, call)) moved = 1;
        else if (!second) for (int i = 0; i < 7; i++) calls[index][i] = call[i];
        else if (seen[index] != tid) moved = 1;
        else for (int i = 0; i < 7; i++) moved |= calls[index][i] != call[i];
        if (moved) {
            *busy = tid;
            return 0;
        }
    }
    return 1;
}

RL_INVISIBLE static int look(int64_t *busy, int flags) {
    if (!nothing_pending(busy, flags)) return 0;
#if !RL_LINUX_FACILITIES
    // Without /proc, quiet is a clock's guess: no checkpoint hit for 300 ms (a thread that works
    // between checkpoints for longer looks quiet). Said to the user (PlatformChecks).
    if (rl_monotonic_ns() - rl_checkpoint_last_activity_ns() < 300000000) {
        *busy = -4;
        return 0;
    }
#endif
    // Threads are read one after another, so one pass is no snapshot: a thread seen waiting may
    // be woken by one read later, which then ends or waits. A second pass must find every
    // thread still waiting in the very call the first saw: one that was woken meanwhile has
    // ended, runs, or waits somewhere else by then.
    int64_t seen[RL_QUIET_SLOTS];
    unsigned long long calls[RL_QUIET_SLOTS][7];
    if (!threads_wait(busy, flags, seen, calls, 0) || !threads_wait(busy, flags, seen, calls, 1)) return 0;
    if (!nothing_pending(busy, flags)) return 0;
    // Quiet but for threads that hold a strong reference until the user's next action: the
    // story waits, so no action is coming. They go on (StoryHolds.c), and are busy again.
    if (rl_story_end_strong_holds()) {
        *busy = -3;
        return 0;
    }
    *busy = 0;
    return 1;
}

RL_INVISIBLE int rl_quiet_look(int64_t *busy, int flags) {
    if (!rl_on_main_thread()) return look(busy, flags);
    int64_t began = rl_monotonic_ns();  // the story's own looks: where its time goes (SpentTime.c)
    int quiet = look(busy, flags);
    rl_spent_add(RL_SPENT_QUIET_LOOKS, rl_monotonic_ns() - began);
    return quiet;
}

RL_INVISIBLE int64_t rl_quiet_queued_work(void) { return RL_COUNT_OF(LOAD(&waiting)); }
