import Foundation

/// Runs a trusted tool (`swift build`, `swiftc`; under `racelab stress`, the user's own program,
/// at their request) to its end or to a deadline: its output and
/// error merged and read while it runs (a full pipe would stop it), capped; its whole process
/// group killed at the deadline (compilers start processes of their own); tracked, so Ctrl-C
/// stops it too. Lab code never runs this way: that is `ChildRunner`'s job.
public struct ToolProcess: Sendable {
    public var executable: URL
    public var arguments: [String]
    public var directory: URL?
    /// Seconds before the tool is killed.
    public var timeout: Double
    /// Bytes of output kept.
    public var outputLimit: Int
    /// Linux: the tool's standing with the OOM killer (-1000 to 1000), set as it starts (its
    /// compilers inherit it); nil: unchanged. A build of student code is first in line.
    public var oomScoreAdjust: Int?
    /// Variables set for the tool on top of this process's environment.
    public var environment: [String: String] = [:]

    public init(executable: URL, arguments: [String], directory: URL? = nil, timeout: Double, outputLimit: Int) {
        self.executable = executable
        self.arguments = arguments
        self.directory = directory
        self.timeout = timeout
        self.outputLimit = outputLimit
    }

    public struct Result: Sendable {
        /// Exit status; -1 when the tool could not start or was killed at the deadline.
        public var status: Int32
        /// The signal that ended the tool, when one did (and not at the deadline).
        public var signal: Int32? = nil
        public var output: String
        public var timedOut: Bool
        public var seconds: Double

        public init(status: Int32, signal: Int32? = nil, output: String, timedOut: Bool, seconds: Double) {
            self.status = status
            self.signal = signal
            self.output = output
            self.timedOut = timedOut
            self.seconds = seconds
        }
    }

    /// Runs the tool; `onTick` hears the seconds so far, about every `tick` seconds.
    public func run(tick: Double = 0.02, onTick: (Double) -> Void = { _ in }) -> Result {
        let started = Date()
        // Its temporary files go into a folder of ours, removed after it (and on Ctrl-C): SwiftPM
        // leaves a `TemporaryDirectory.*` behind in TMPDIR for every build it runs.
        let scratch = try? RunFolder.privateFolder(named: "racelab-tool")
        defer {
            if let scratch {
                try? FileManager.default.removeItem(at: scratch)
                Interruption.untrack(folder: scratch)
            }
        }
        let process = makeProcess(temporaryFolder: scratch)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let collected = CappedOutput(limit: outputLimit)
        let reading = collected.read(pipe)
        var launchError: Error?
        let pid = Interruption.tracking {
            do {
                try process.run()
                return process.processIdentifier
            } catch {
                launchError = error
                return 0
            }
        }
        if let launchError {
            try? pipe.fileHandleForWriting.close()
            return Result(
                status: -1, output: "cannot run \(executable.path): \(launchError.localizedDescription)",
                timedOut: false, seconds: 0)
        }
        defer { Interruption.untrack(child: pid) }
        if let oomScoreAdjust {
            try? Data(String(oomScoreAdjust).utf8).write(to: URL(fileURLWithPath: "/proc/\(pid)/oom_score_adj"))
        }
        let timedOut = wait(for: process, pid: pid, since: started, tick: tick, onTick: onTick)
        _ = reading.wait(timeout: .now() + 10)
        let signalled = !timedOut && process.terminationReason == .uncaughtSignal
        return Result(
            status: timedOut ? -1 : process.terminationStatus, signal: signalled ? process.terminationStatus : nil,
            output: collected.text, timedOut: timedOut, seconds: Date().timeIntervalSince(started))
    }

    /// The tool, set up to run with this process's environment and `environment` on top
    /// (its temporary files in `temporaryFolder`, when there is one).
    private func makeProcess(temporaryFolder: URL?) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment.merging(self.environment) { $1 }
        if let temporaryFolder { environment["TMPDIR"] = temporaryFolder.path }
        process.environment = environment
        return process
    }

    /// Waits for the tool to end, or kills it (its whole process group) at the deadline;
    /// true when it was killed.
    private func wait(for process: Process, pid: pid_t, since started: Date, tick: Double, onTick: (Double) -> Void)
        -> Bool
    {
        var timedOut = false
        while process.isRunning {
            let elapsed = Date().timeIntervalSince(started)
            onTick(elapsed)
            if elapsed > timeout {
                timedOut = true
                kill(-pid, SIGKILL)  // Process gives the tool a process group of its own
                kill(pid, SIGKILL)
                break
            }
            usleep(useconds_t(tick * 1_000_000))
        }
        process.waitUntilExit()
        return timedOut
    }
}

/// A tool's output up to a cap: one that prints without end costs bounded memory.
private final class CappedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Reads `pipe` on a thread of its own until it closes (a full pipe would stop the tool);
    /// the semaphore is signalled then.
    func read(_ pipe: Pipe) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let handle = pipe.fileHandleForReading
            while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty { self.append(chunk) }
            done.signal()
        }
        return done
    }

    func append(_ chunk: Data) {
        lock.withLock { if data.count < limit { data.append(chunk.prefix(limit - data.count)) } }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
