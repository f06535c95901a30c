#define _GNU_SOURCE
#include "CRaceLabSupport.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "Invisible.h"

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
