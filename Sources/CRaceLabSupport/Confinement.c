#define _GNU_SOURCE
#include "CRaceLabConfinement.h"
#include "CRaceLabSupport.h"  // RL_LINUX_FACILITIES

// What the kernel enforces on a child that runs lab code (and so a student's exercise), set up
// by the child itself as the first thing it does, before any lab code runs and while it is the
// only thread but for ThreadSanitizer's own. Every part is optional: what the kernel does not
// offer is left out, and the returned mask says what is in force.

#if RL_LINUX_FACILITIES
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

// Layer 0 (thread facts and stand-alone facilities): calls only lower layers (CLayersTests).

// ThreadSanitizer's symbolizer runs as a process of its own, started at the first report; once
// the filter below is in force no process can be started, so it is started now.
extern int __sanitizer_symbolize_pc(void *pc, const char *format, char *output, size_t size) __attribute__((weak));

// --- seccomp -----------------------------------------------------------------------------------

#if defined(__x86_64__)
#define RL_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define RL_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#define RL_DENY(error) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((error) & SECCOMP_RET_DATA))
#define RL_ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
#define RL_LOAD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
// The low 32 bits of argument i (pids, flags and request numbers are ints).
#define RL_LOAD_ARG(i) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[i]))

typedef struct {
    struct sock_filter code[400];
    unsigned short length;
} rl_program;

static void emit(rl_program *program, struct sock_filter instruction) {
    if (program->length < sizeof program->code / sizeof program->code[0]) program->code[program->length++] = instruction;
}

/// `nr` fails with `error`.
static void deny(rl_program *program, long nr, int error) {
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1));
    emit(program, (struct sock_filter)RL_DENY(error));
}

/// `nr` is allowed only when argument `arg` is `value` (or `other`); else it fails with EPERM.
/// The accumulator holds the syscall number again afterwards on the path that goes on.
static void allow_only(rl_program *program, long nr, int arg, uint32_t value, uint32_t other) {
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 5));
    emit(program, (struct sock_filter)RL_LOAD_ARG(arg));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 1, 0));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, other, 0, 1));
    emit(program, (struct sock_filter)RL_ALLOW);
    emit(program, (struct sock_filter)RL_DENY(EPERM));
}

#if defined(RL_AUDIT_ARCH)
/// Calls that fail with EPERM, whatever their arguments.
static const long denied_calls[] = {
    SYS_execve, SYS_execveat,
#ifdef SYS_fork
    SYS_fork,
#endif
#ifdef SYS_vfork
    SYS_vfork,
#endif
    // Other processes: tracing, reading or writing their memory, comparing or signalling
    // them through a pidfd, the old thread-signal call.
    SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev, SYS_kcmp, SYS_tkill,
#ifdef SYS_pidfd_open
    SYS_pidfd_open,
#endif
#ifdef SYS_pidfd_send_signal
    SYS_pidfd_send_signal,
#endif
#ifdef SYS_pidfd_getfd
    SYS_pidfd_getfd,
#endif
    // The machine: mounts, namespaces, modules, clocks, keys, BPF, the tracer.
    SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot, SYS_unshare, SYS_setns, SYS_swapon, SYS_swapoff, SYS_reboot,
    SYS_kexec_load, SYS_init_module, SYS_finit_module, SYS_delete_module, SYS_bpf, SYS_perf_event_open, SYS_userfaultfd,
    SYS_keyctl, SYS_add_key, SYS_request_key, SYS_acct, SYS_quotactl, SYS_settimeofday, SYS_clock_settime, SYS_clock_adjtime,
    SYS_adjtimex, SYS_sethostname, SYS_setdomainname, SYS_name_to_handle_at, SYS_open_by_handle_at, SYS_fanotify_init,
#ifdef SYS_kexec_file_load
    SYS_kexec_file_load,
#endif
#ifdef SYS_open_tree
    SYS_open_tree, SYS_move_mount, SYS_fsopen, SYS_fsconfig, SYS_fsmount, SYS_fspick,
#endif
#ifdef SYS_iopl
    SYS_iopl, SYS_ioperm,
#endif
    // Leaving the process group the harness kills; owners, modes and attributes of files.
    SYS_setsid, SYS_setpgid, SYS_fchmod, SYS_fchmodat, SYS_fchown, SYS_fchownat, SYS_setxattr, SYS_lsetxattr, SYS_fsetxattr,
    SYS_removexattr, SYS_lremovexattr, SYS_fremovexattr,
#ifdef SYS_chmod
    SYS_chmod, SYS_chown, SYS_lchown,
#endif
    // No network, not even a local socket to a service of the machine.
    SYS_socket,
};

/// Another architecture's calling convention (32-bit calls on x86_64): nothing at all. Leaves
/// the call's number in the accumulator.
static void only_this_architecture(rl_program *program) {
    emit(program, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, RL_AUDIT_ARCH, 1, 0));
    emit(program, (struct sock_filter)RL_DENY(EPERM));
    emit(program, (struct sock_filter)RL_LOAD_NR);
#if defined(__x86_64__)
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1));  // x32
    emit(program, (struct sock_filter)RL_DENY(EPERM));
#endif
}

/// Threads yes, processes no: clone only with CLONE_THREAD; clone3 "does not exist", so the
/// C library falls back to clone, whose flags the filter can read.
static void threads_not_processes(rl_program *program) {
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4));
    emit(program, (struct sock_filter)RL_LOAD_ARG(0));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1));
    emit(program, (struct sock_filter)RL_ALLOW);
    emit(program, (struct sock_filter)RL_DENY(EPERM));
#ifdef SYS_clone3
    deny(program, SYS_clone3, ENOSYS);
#endif
}

/// Signals only to itself (its own threads included); resource limits only of itself; no
/// typing into a terminal. Then everything else is allowed.
static void only_itself(rl_program *program, uint32_t self) {
    allow_only(program, SYS_kill, 0, self, self);
    allow_only(program, SYS_tgkill, 0, self, self);
    allow_only(program, SYS_rt_sigqueueinfo, 0, self, self);
    allow_only(program, SYS_rt_tgsigqueueinfo, 0, self, self);
    allow_only(program, SYS_prlimit64, 0, 0, self);
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0, 4));
    emit(program, (struct sock_filter)RL_LOAD_ARG(1));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI, 0, 1));
    emit(program, (struct sock_filter)RL_DENY(EPERM));
    emit(program, (struct sock_filter)RL_LOAD_NR);
    emit(program, (struct sock_filter)RL_ALLOW);
}
#endif

static int install_seccomp(void) {
#if defined(RL_AUDIT_ARCH)
    rl_program program = {.length = 0};
    only_this_architecture(&program);
    threads_not_processes(&program);
    for (unsigned i = 0; i < sizeof denied_calls / sizeof denied_calls[0]; i++) deny(&program, denied_calls[i], EPERM);
    only_itself(&program, (uint32_t)getpid());

    if (program.length >= sizeof program.code / sizeof program.code[0]) return 0;
    struct sock_fprog filter = {.len = program.length, .filter = program.code};
    // TSYNC: every thread of the process, ThreadSanitizer's own included.
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &filter) == 0) return 1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter, 0, 0) == 0;
#else
    return 0;
#endif
}

// --- Landlock ----------------------------------------------------------------------------------
// Declared here rather than taken from <linux/landlock.h>, whose copy on older systems lacks
// the later fields; the kernel says which version it speaks and the struct size follows it.

#define RL_LANDLOCK_CREATE 444
#define RL_LANDLOCK_ADD_RULE 445
#define RL_LANDLOCK_RESTRICT 446

struct rl_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct rl_landlock_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

enum {
    RL_FS_READ_FILE = 1 << 2, RL_FS_READ_DIR = 1 << 3,
    RL_FS_WRITE_FILE = 1 << 1, RL_FS_REMOVE_DIR = 1 << 4, RL_FS_REMOVE_FILE = 1 << 5, RL_FS_MAKE_CHAR = 1 << 6,
    RL_FS_MAKE_DIR = 1 << 7, RL_FS_MAKE_REG = 1 << 8, RL_FS_MAKE_SOCK = 1 << 9, RL_FS_MAKE_FIFO = 1 << 10,
    RL_FS_MAKE_BLOCK = 1 << 11, RL_FS_MAKE_SYM = 1 << 12, RL_FS_REFER = 1 << 13, RL_FS_TRUNCATE = 1 << 14,
    RL_SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0, RL_SCOPE_SIGNAL = 1 << 1,
};

static int add_rule(int ruleset, const char *path, uint64_t access) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return -1;
    struct rl_landlock_path_beneath_attr rule = {.allowed_access = access, .parent_fd = fd};
    long status = syscall(RL_LANDLOCK_ADD_RULE, ruleset, 1 /* LANDLOCK_RULE_PATH_BENEATH */, &rule, 0);
    close(fd);
    return status == 0 ? 0 : -1;
}

/// Writes only beneath `folder` (and to /dev/null, and a thread's own name in /proc); signals
/// and abstract sockets only inside the process. Returns the RL_CONFINED_* bits it set.
/// Reads beneath the system's own folders, the program's folder and every folder a library it
/// loaded came from (the toolchain's, wherever it is installed): not the grader's workspace, the
/// kit or other students' submissions.
static void allow_reading_the_system(int ruleset, uint64_t reads) {
    static const char *system[] = {"/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/etc", "/opt", "/proc", "/sys", "/dev"};
    for (unsigned i = 0; i < sizeof system / sizeof system[0]; i++) add_rule(ruleset, system[i], reads);
    char line[4096];
    int maps = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (maps < 0) return;
    // Each mapped file's folder ("... /opt/swift/usr/lib/swift/linux/libswiftCore.so").
    char buffer[65536];
    long got = 0, length = 0;
    while ((got = read(maps, buffer + length, sizeof buffer - 1 - (size_t)length)) > 0) length += got;
    close(maps);
    buffer[length] = 0;
    char last[4096] = "";
    for (char *start = buffer; *start; ) {
        char *end = start;
        while (*end && *end != '\n') end++;
        long size = end - start < (long)sizeof line - 1 ? end - start : (long)sizeof line - 1;
        memcpy(line, start, (size_t)size);
        line[size] = 0;
        char *path = strchr(line, '/');
        if (path != NULL) {
            char *slash = strrchr(path, '/');
            if (slash != NULL && slash != path) {
                *slash = 0;
                if (strcmp(path, last) != 0) {
                    add_rule(ruleset, path, reads);
                    snprintf(last, sizeof last, "%s", path);
                }
            }
        }
        start = *end ? end + 1 : end;
    }
}

static int install_landlock(const char *folder) {
    long abi = syscall(RL_LANDLOCK_CREATE, NULL, 0, 1 /* LANDLOCK_CREATE_RULESET_VERSION */);
    if (abi < 1) return 0;
    uint64_t writes = RL_FS_WRITE_FILE | RL_FS_REMOVE_DIR | RL_FS_REMOVE_FILE | RL_FS_MAKE_CHAR | RL_FS_MAKE_DIR | RL_FS_MAKE_REG
        | RL_FS_MAKE_SOCK | RL_FS_MAKE_FIFO | RL_FS_MAKE_BLOCK | RL_FS_MAKE_SYM;
    if (abi >= 2) writes |= RL_FS_REFER;
    if (abi >= 3) writes |= RL_FS_TRUNCATE;
    uint64_t reads = RL_FS_READ_FILE | RL_FS_READ_DIR;
    struct rl_landlock_ruleset_attr attributes = {.handled_access_fs = writes | reads, .handled_access_net = 0, .scoped = 0};
    size_t size = sizeof(uint64_t);
    if (abi >= 6) {
        attributes.scoped = RL_SCOPE_ABSTRACT_UNIX_SOCKET | RL_SCOPE_SIGNAL;
        size = sizeof attributes;
    } else if (abi >= 4) {
        size = 2 * sizeof(uint64_t);
    }
    int ruleset = (int)syscall(RL_LANDLOCK_CREATE, &attributes, size, 0);
    if (ruleset < 0) return 0;
    int fine = add_rule(ruleset, folder, writes | reads) == 0;
    uint64_t file_writes = RL_FS_WRITE_FILE | (abi >= 3 ? RL_FS_TRUNCATE : 0);
    add_rule(ruleset, "/dev/null", file_writes | RL_FS_READ_FILE);
    add_rule(ruleset, "/proc/self/task", RL_FS_WRITE_FILE | reads);  // pthread_setname_np of another thread
    allow_reading_the_system(ruleset, reads);
    int bits = 0;
    if (fine && syscall(RL_LANDLOCK_RESTRICT, ruleset, 0) == 0) {
        bits = RL_CONFINED_WRITES | RL_CONFINED_READS | (abi >= 6 ? RL_CONFINED_SIGNALS : 0);
    }
    close(ruleset);
    return bits;
}

// --- the rest ----------------------------------------------------------------------------------

static int drop_capabilities(void) {
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    return syscall(SYS_capset, &header, data) == 0;
}

static void limit(int resource, rlim_t most) {
    struct rlimit now;
    if (getrlimit(resource, &now) != 0) return;
    struct rlimit lower = {.rlim_cur = now.rlim_cur < most ? now.rlim_cur : most, .rlim_max = now.rlim_max < most ? now.rlim_max : most};
    setrlimit(resource, &lower);
}

int rl_confine(const char *writable_folder) {
    int bits = 0;
    // Ahead of the grader when memory runs out (after builds of student code, which take 1000):
    // among the children, the largest goes first.
    int adjust = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (adjust >= 0) {
        if (write(adjust, "500", 3) == 3) bits |= RL_CONFINED_LIMITS;
        close(adjust);
    }
    limit(RLIMIT_CORE, 0);
    limit(RLIMIT_FSIZE, 64L << 20);  // no file beyond 64 MiB (its own traces are far smaller)
    limit(RLIMIT_NOFILE, 4096);
    limit(RLIMIT_CPU, 1800);  // a backstop; the watchdog ends a stalled child long before
    if (__sanitizer_symbolize_pc) {
        char name[256];
        __sanitizer_symbolize_pc((void *)&strerror, "%f", name, sizeof name);
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) bits |= RL_CONFINED_NO_NEW_PRIVILEGES;
    if (writable_folder != NULL) bits |= install_landlock(writable_folder);
    if (drop_capabilities()) bits |= RL_CONFINED_NO_CAPABILITIES;
    if ((bits & RL_CONFINED_NO_NEW_PRIVILEGES) && install_seccomp()) bits |= RL_CONFINED_SYSCALLS;
    return bits;
}

// --- checking it -------------------------------------------------------------------------------

int rl_confinement_escapes(int outsider, const char *outside_folder) {
    int escapes = 0;
    // A new process (the C library's fork is clone without CLONE_THREAD).
    pid_t pid = fork();
    if (pid == 0) _exit(0);
    if (pid > 0) {
        escapes |= RL_ESCAPE_PROCESS;
        waitpid(pid, NULL, 0);
    }
    // A program in place of this one.
    char *const argv[] = {"true", NULL};
    char *const envp[] = {NULL};
    if (syscall(SYS_execve, "/bin/true", argv, envp) == 0 || errno != EPERM) escapes |= RL_ESCAPE_PROGRAM;
    // A signal (0: only "may I?") to a process outside: the one that started it.
    if (outsider > 0 && kill(outsider, 0) == 0) escapes |= RL_ESCAPE_SIGNAL;
    // A file outside its folder: read one there (the parent put it in), then create one.
    if (outside_folder != NULL) {
        char secret[4096];
        snprintf(secret, sizeof secret, "%s/secret", outside_folder);
        int reader = open(secret, O_RDONLY | O_CLOEXEC);
        if (reader >= 0) {
            escapes |= RL_ESCAPE_READ;
            close(reader);
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/racelab-escape-%d", outside_folder, (int)getpid());
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            escapes |= RL_ESCAPE_WRITE;
            close(fd);
            unlink(path);
        }
    }
    // A network socket.
    int sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (sock >= 0) {
        escapes |= RL_ESCAPE_SOCKET;
        close(sock);
    }
    if (getpid() != 1) escapes |= RL_ESCAPE_PROCESS_TABLE;
    return escapes;
}

#else

int rl_confine(const char *writable_folder) {
    (void)writable_folder;
    return 0;
}

int rl_confinement_escapes(int outsider, const char *outside_folder) {
    (void)outsider;
    (void)outside_folder;
    return RL_ESCAPE_PROCESS | RL_ESCAPE_PROGRAM | RL_ESCAPE_SIGNAL | RL_ESCAPE_WRITE | RL_ESCAPE_SOCKET | RL_ESCAPE_PROCESS_TABLE
        | RL_ESCAPE_READ;
}

#endif
