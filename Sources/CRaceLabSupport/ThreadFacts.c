#define _GNU_SOURCE
#include "CRaceLabSupport.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if RL_LINUX_FACILITIES
#include <link.h>
#endif

#include "Invisible.h"
#include "ThreadFacts.h"

// Layer 0 (thread facts and stand-alone facilities): calls only lower layers (CLayersTests).

// Thread facts: what the clock, the thread library and the kernel (/proc) say about
// this process's threads. Questions only: nothing here changes a thread or calls another file.
//
// Read while lab threads may be held anywhere, some inside a lock of Foundation's or the C
// library's, and in signal handlers: raw system calls only (no directory stream, no allocation,
// no interceptor).

RL_INVISIBLE int64_t rl_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

RL_INVISIBLE int64_t rl_current_thread_id(void) {
#if defined(__linux__)
    return (int64_t)syscall(SYS_gettid);
#else
    uint64_t tid = 0;
    pthread_threadid_np(NULL, &tid);
    return (int64_t)tid;
#endif
}

// Noted at load time, on the main thread while it is the only one: asking the kernel for the
// thread's and the process's ids at every look cost more than the counting itself.
static pthread_t main_thread;
__attribute__((constructor)) RL_INVISIBLE static void note_main_thread(void) { main_thread = pthread_self(); }

RL_INVISIBLE int rl_on_main_thread(void) { return pthread_equal(pthread_self(), main_thread); }

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

RL_INVISIBLE int rl_thread_is_busy(int64_t tid, int pool, unsigned long long call[7]) {
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
RL_INVISIBLE int rl_thread_is_busy(int64_t tid, int pool, unsigned long long call[7]) {
    (void)tid, (void)pool;
    for (int i = 0; i < 7; i++) call[i] = 0;
    return 0;
}
#endif


RL_INVISIBLE int rl_thread_waits_untimed(int64_t tid) {
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

// How long each thread of this process has waited for a CPU, for a time limit on the lab's own
// clock (LabDeadline), read on the story's thread while lab threads may be held anywhere, some
// inside a lock of Foundation's or the C library's. So: raw system calls only (no directory
// stream, no allocation, no interceptor), as rl_read_task_file reads one thread's file.

struct rl_dirent64 {  // the kernel's linux_dirent64
    uint64_t inode;
    int64_t offset;
    unsigned short length;
    unsigned char type;
    char name[];
};

RL_INVISIBLE int rl_process_cpu_waits(int64_t *tids, int64_t *waits, int capacity) {
#if RL_LINUX_FACILITIES
    int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buffer[4096] __attribute__((aligned(8)));
    int count = 0;
    long got;
    while (count < capacity && (got = syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0) {
        for (long at = 0; at < got && count < capacity;) {
            const struct rl_dirent64 *entry = (const struct rl_dirent64 *)(buffer + at);
            at += entry->length;
            int64_t tid = 0;
            const char *c = entry->name;
            while (*c >= '0' && *c <= '9') tid = tid * 10 + (*c++ - '0');
            int64_t ran, waited;
            if (*c != 0 || tid <= 0 || rl_thread_times(tid, &ran, &waited) != 0) continue;  // ".", "..", ended
            tids[count] = tid;
            waits[count] = waited;
            count++;
        }
    }
    syscall(SYS_close, fd);
    return count > 0 ? count : -1;
#else
    (void)tids, (void)waits, (void)capacity;
    return -1;  // no /proc
#endif
}

// The CPU time one of this process's threads has used. One raw system call on the thread's own
// CPU clock (the kernel's MAKE_THREAD_CPUCLOCK), exact even while it runs: reading its state from
// /proc instead cost the preemption sender two thirds of its time (open, read, close, a path walk).
RL_INVISIBLE int64_t rl_thread_cpu_ns(int64_t tid) {
#if RL_LINUX_FACILITIES
    clockid_t clock = (clockid_t)((~(unsigned)tid << 3) | 6);  // per-thread | CPUCLOCK_SCHED
    struct timespec used;
    if (syscall(SYS_clock_gettime, clock, &used) != 0) return -1;
    return (int64_t)used.tv_sec * 1000000000 + used.tv_nsec;
#else
    (void)tid;
    return -1;
#endif
}
