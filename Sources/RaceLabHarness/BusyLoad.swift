import CRaceLabSupport
import Foundation

/// Busy loops beside the grader, for measuring whether a verdict depends on load
/// (`racelab bench corpus --load N`): "another class grading beside you".
///
/// Each loop is a process of its own (`/bin/sh`, an arithmetic loop: no I/O, no sleeping), in a
/// session of its own, as the lab children are. Threads inside racelab would be less honest: with
/// the kernel's autogroup scheduling (on by default on desktop Linux) every thread of racelab's
/// session shares that session's one slice of the CPU, so N busy threads would weigh about as
/// much as one; another class's grader is other processes in other sessions.
///
/// They are killed by `stop()`, on Ctrl-C or SIGTERM (`Interruption` tracks them), and if racelab
/// dies any other way (SIGKILL) each loop notices within a fraction of a second that its parent
/// is gone and ends.
public final class BusyLoad: @unchecked Sendable {
    /// The loop: about 20,000 additions between checks that racelab ($1) is still its parent
    /// (read from /proc by the shell itself: a racelab killed but not yet reaped would still
    /// answer `kill -0`).
    public static let script =
        "while read -r _ _ _ ppid _ < /proc/self/stat && [ \"$ppid\" = \"$1\" ]; do i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; done"
    public static let shell = "/bin/sh"

    public let count: Int
    private let lock = NSLock()
    private var pids: [pid_t] = []

    /// Starts `count` busy loops (0: none). Throws a one-line reason when one cannot be started
    /// (those already started are stopped).
    public init(count: Int) throws(UsageError) {
        self.count = count
        let parent = String(getpid())
        for _ in 0..<count {
            var spawned = rl_spawned()
            let pid = Interruption.tracking {
                spawned = ChildRunner.withCStrings([Self.shell, "-c", Self.script, "racelab-load", parent]) { argv in
                    ChildRunner.withCStrings(["PATH=/usr/bin:/bin"]) { envp in rl_spawn(Self.shell, argv, envp, nil, -1)
                    }
                }
                return pid_t(spawned.pid)
            }
            guard pid > 0 else {
                stop()
                throw UsageError(
                    "cannot start the busy loops for --load: \(Self.shell): \(String(cString: strerror(spawned.error)))"
                )
            }
            // The loop writes nothing: its pipes are not needed.
            for fd in [spawned.stdout_fd, spawned.stderr_fd, spawned.channel_fd] where fd >= 0 { close(fd) }
            lock.withLock { pids.append(pid) }
        }
    }

    /// The loops' process ids (for tests and messages).
    public var processes: [pid_t] { lock.withLock { pids } }

    /// One unit of load, for reports.
    public static let unit =
        "one busy loop = one \(shell) arithmetic-loop process (no I/O, no sleep) in a session of its own"

    /// What the load is, for the output: "3 busy-loop processes (/bin/sh, each in a session of its own) on 2 cores".
    public static func describe(_ count: Int, cores: Int = ChildPool.usableCPUs) -> String {
        count == 0
            ? "no load (nothing started beside the grader) on \(cores) core(s)"
            : "\(count) busy-loop process(es) beside the grader (\(shell) arithmetic loops, each in a session of its own) on \(cores) core(s)"
    }

    /// Kills and reaps every loop (again: nothing).
    public func stop() {
        let stopping = lock.withLock { () -> [pid_t] in
            defer { pids = [] }
            return pids
        }
        for pid in stopping {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            Interruption.untrack(child: pid)
        }
    }

    deinit { stop() }
}
