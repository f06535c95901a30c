import Foundation

/// Ctrl-C (SIGINT) or SIGTERM stops any racelab command at once: every child process group
/// still running is killed (with what it started), every private folder still there is
/// removed, and the process exits with status 130. Reports are written whole or not at all
/// (`OutputFile`), so none is left half written.
public enum Interruption {
    /// The exit status after an interruption (128 + SIGINT, as shells report it).
    public static let exitStatus: Int32 = 130

    private static let lock = NSLock()
    nonisolated(unsafe) private static var children: Set<pid_t> = []
    nonisolated(unsafe) private static var folders: Set<URL> = []
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Installs the handlers (once; later calls do nothing).
    public static func install() {
        lock.withLock {
            guard sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(
                    signal: number, queue: DispatchQueue(label: "racelab.interruption"))
                source.setEventHandler { stop(signal: number) }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Starts a child process (leader of its own group) and tracks it in one step, so an
    /// interruption cannot fall between the two: `start` returns its pid (<= 0: none started).
    public static func tracking(_ start: () -> pid_t) -> pid_t {
        lock.withLock {
            let pid = start()
            if pid > 0 { children.insert(pid) }
            return pid
        }
    }

    /// A child process (leader of its own group) to kill if the command is interrupted.
    public static func track(child pid: pid_t) { _ = lock.withLock { children.insert(pid) } }
    public static func untrack(child pid: pid_t) { _ = lock.withLock { children.remove(pid) } }

    /// Creates a folder and tracks it in one step (`create` returns it, or nil).
    public static func tracking(_ create: () -> URL?) -> URL? {
        lock.withLock {
            let url = create()
            if let url { folders.insert(url) }
            return url
        }
    }

    /// A folder to remove if the command is interrupted.
    public static func track(folder url: URL) { _ = lock.withLock { folders.insert(url) } }
    public static func untrack(folder url: URL) { _ = lock.withLock { folders.remove(url) } }

    /// Kills, removes and exits holding the lock: nothing can be started or created after the
    /// registry was read.
    static func stop(signal number: Int32) {
        lock.lock()
        let (pids, paths) = (children, folders)
        let everything = ProcessTree.snapshot()
        for pid in pids {
            ProcessTree.kill(ProcessTree.descendants(of: pid, in: everything))
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        for url in paths { try? FileManager.default.removeItem(at: url) }
        let message =
            "\nracelab: interrupted (\(number == SIGINT ? "SIGINT" : "SIGTERM")): \(pids.count) child process(es) stopped, temporary files removed\n"
        FileHandle.standardError.write(Data(message.utf8))
        exit(exitStatus)
    }
}
