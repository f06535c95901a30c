#ifndef CRACELAB_CONFINEMENT_H
#define CRACELAB_CONFINEMENT_H

// The kernel's part of isolating a child that runs lab code (Linux; elsewhere nothing).

/// What `rl_confine` put in force, as bits.
enum {
    /// No program it could start would gain privileges (a precondition of the filter).
    RL_CONFINED_NO_NEW_PRIVILEGES = 1 << 0,
    /// A seccomp filter: threads but no new processes or programs; signals, resource limits
    /// and tracing only of itself; no mounts, namespaces, modules, sockets or file modes.
    RL_CONFINED_SYSCALLS = 1 << 1,
    /// Landlock: it writes, creates and removes files only beneath its own folder.
    RL_CONFINED_WRITES = 1 << 2,
    /// Landlock (ABI 6): it signals and reaches abstract sockets only inside itself.
    RL_CONFINED_SIGNALS = 1 << 3,
    /// No capabilities left, even when it runs as root.
    RL_CONFINED_NO_CAPABILITIES = 1 << 4,
    /// Resource limits (file size, descriptors, CPU time) and first in line for the OOM killer.
    RL_CONFINED_LIMITS = 1 << 5,
    /// Landlock: it reads only the system's folders, its program's and its libraries' folders
    /// and its own: not the grader's workspace, the kit, or other students' submissions.
    RL_CONFINED_READS = 1 << 6,
};

/// Confine the calling process, for good: call it first, while no lab code has run and no
/// thread of the program's own exists. `writable_folder` (its private run folder) is the one
/// place it may still write. ThreadSanitizer's symbolizer is started first, since afterwards no
/// process can be. Returns the RL_CONFINED_* bits in force.
int rl_confine(const char *writable_folder);

/// What a confined process could still do, as bits (what `rl_confinement_escapes` found).
enum {
    /// Start a process.
    RL_ESCAPE_PROCESS = 1 << 0,
    /// Replace its program (execve).
    RL_ESCAPE_PROGRAM = 1 << 1,
    /// Signal a process outside itself (`outsider`).
    RL_ESCAPE_SIGNAL = 1 << 2,
    /// Create a file outside its folder (in `outside_folder`).
    RL_ESCAPE_WRITE = 1 << 3,
    /// Open a network socket.
    RL_ESCAPE_SOCKET = 1 << 4,
    /// See the machine's process table (it is not the first process of a PID namespace).
    RL_ESCAPE_PROCESS_TABLE = 1 << 5,
    /// Read a file outside the system's folders and its own (`outside_folder`/secret).
    RL_ESCAPE_READ = 1 << 6,
};

/// Tries each escape for real, from inside a confined child (`racelab-child probe`): what the
/// grader reports as the protection in force is what the kernel actually refused.
int rl_confinement_escapes(int outsider, const char *outside_folder);

#endif
