#define _GNU_SOURCE
#include "CRaceLabSupport.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "Invisible.h"

// Layer 0 (thread facts and stand-alone facilities): calls only lower layers (CLayersTests).

// How many CPUs a lab sees: the same number on every machine, when the harness says so
// (RACELAB_LAB_CPUS in a child's environment). Dispatch sizes itself by it: how many threads
// concurrentPerform uses, and how many blocked blocks a concurrent queue may hold before the next
// one waits for the pool to grow (Linux adds a thread about once a second then). Left to the
// machine, a story that is certain on the 2 CPUs it was written on is not on 1 or on 64, and the
// same code would get a different verdict on a bigger grader. Only the count is changed: what
// the threads may really run on is untouched (nothing in a lab sets an affinity).
// Where TSan's interceptors are (the lab child's build): ours replace their weak definitions
// and pass the call on to them, as LabCallInterposers.c does.
#if RL_LINUX_FACILITIES && defined(__has_feature)
#if __has_feature(thread_sanitizer)
extern int __interceptor_pthread_getaffinity_np(pthread_t thread, size_t size, cpu_set_t *set);
extern int __interceptor_sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set);
extern long __sysconf(int name);

// TSan's own start-up asks sysconf before TSan can run any instrumented code (even a function
// entry): these carry no instrumentation at all.
#define RL_UNINSTRUMENTED __attribute__((disable_sanitizer_instrumentation))

/// The count asked for, 1 to 1024; 0 when none is (the machine's own).
RL_UNINSTRUMENTED int rl_lab_cpus(void) {
    const char *text = getenv("RACELAB_LAB_CPUS");
    if (text == NULL) return 0;
    char *end = NULL;
    long count = strtol(text, &end, 10);
    return end != text && *end == '\0' && count >= 1 && count <= 1024 ? (int)count : 0;
}

RL_INVISIBLE static void first_cpus(size_t size, cpu_set_t *set, int count) {
    CPU_ZERO_S(size, set);
    for (int cpu = 0; cpu < count; cpu++) CPU_SET_S(cpu, size, set);
}

RL_UNINSTRUMENTED long sysconf(int name) {
    int count = (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF) ? rl_lab_cpus() : 0;
    return count > 0 ? count : __sysconf(name);
}

RL_INVISIBLE int pthread_getaffinity_np(pthread_t thread, size_t size, cpu_set_t *set) {
    int result = __interceptor_pthread_getaffinity_np(thread, size, set);
    int count = rl_lab_cpus();
    if (result == 0 && count > 0 && (size_t)count <= size * 8) first_cpus(size, set, count);
    return result;
}

RL_INVISIBLE int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set) {
    int result = __interceptor_sched_getaffinity(pid, size, set);
    int count = rl_lab_cpus();
    if (result == 0 && count > 0 && (size_t)count <= size * 8) first_cpus(size, set, count);
    return result;
}
#define RL_LAB_CPUS_INTERPOSED 1
#endif
#endif

#ifndef RL_LAB_CPUS_INTERPOSED
RL_INVISIBLE int rl_lab_cpus(void) { return 0; }  // the machine's own count, always
#endif

#if RL_LINUX_FACILITIES
#include <sys/syscall.h>
#endif

// The CPUs this process may really run on (`taskset`, a cpuset): the system call itself, so
// neither the count above nor anything else in the process can change the answer.
RL_INVISIBLE int rl_usable_cpus(void) {
#if RL_LINUX_FACILITIES
    cpu_set_t set;
    CPU_ZERO(&set);
    long written = syscall(SYS_sched_getaffinity, 0, sizeof set, &set);
    if (written > 0) {
        int count = CPU_COUNT(&set);
        if (count > 0) return count;
    }
#endif
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
}
