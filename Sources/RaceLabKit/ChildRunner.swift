import Foundation

/// How to start one child process and when to give up on it.
public struct ChildRequest: Sendable {
    public var executable: URL
    public var arguments: [String]
    public var environment: [String: String]
    /// Kill the child when its progress (iteration, checkpoint hits) has not changed for this long.
    public var stallTimeout: Double
    /// After a crash marker shows on stderr, how long the child may take to die by itself.
    public var crashGrace: Double
    /// Bytes kept of each output stream; the rest is drained and dropped.
    public var outputLimit: Int
    /// When set, the key goes to the child on stdin and only result lines signed with it count
    /// (`ChannelAuthentication`); any other result line is a forgery.
    public var channelKey: [UInt8]?

    public init(executable: URL, arguments: [String], environment: [String: String],
                stallTimeout: Double = 10, crashGrace: Double = 1.5, outputLimit: Int = 4 << 20) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.stallTimeout = stallTimeout
        self.crashGrace = crashGrace
        self.outputLimit = outputLimit
    }
}

/// Everything the parent learned from one child, whatever the child did.
public struct ChildOutcome: Sendable {
    public enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// Killed by the watchdog: no progress for `stallTimeout`.
        case killedAfterStall
        /// Killed by the watchdog: it printed a crash but did not die (TSan can spin in its
        /// deadly-signal handler).
        case killedAfterCrash
        /// Could not be started at all.
        case failedToStart(String)
    }

    public var ending: Ending
    public var stderr: String
    public var stderrTruncated: Bool
    /// Lines on stdout that are not channel messages (a lab that prints), capped.
    public var otherOutput: [String]
    public var stdoutTruncated: Bool
    public var result: ScenarioOutcome?
    /// Invariant failures the child sent as it found them: all a hung or crashed child leaves.
    public var streamedFailures: [InvariantFailure] = []
    /// Channel lines that could not be decoded.
    public var malformedLines: [String]
    public var lastProgress: ChildChannel.Progress?
    public var elapsedSeconds: Double
    /// Result lines that failed authentication (the request had a key): a forged result.
    public var forgedResultLines: [String] = []
}

/// Runs one child process and survives it: crash, hang, garbage or endless output.
public enum ChildRunner {
    /// Text on stderr meaning the child is crashing (TSan's handler or Swift's runtime).
    static let crashMarkers = [
        "ThreadSanitizer:DEADLYSIGNAL", "Fatal error:", "Precondition failed:", "Assertion failed:", "ERROR: ThreadSanitizer: SEGV",
    ]

    public static func run(_ request: ChildRequest) -> ChildOutcome {
        let start = Date()
        let process = Process()
        process.executableURL = request.executable
        process.arguments = request.arguments
        process.environment = request.environment
        let stdoutPipe = Pipe(), stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let keyPipe = request.channelKey == nil ? nil : Pipe()
        if let keyPipe, let key = request.channelKey {
            // Written before the child exists: 65 bytes fit in any pipe buffer, and a child that
            // exits without reading cannot make this write raise SIGPIPE.
            try? keyPipe.fileHandleForWriting.write(contentsOf: Data((SHA256.hexString(key) + "\n").utf8))
            try? keyPipe.fileHandleForWriting.close()
        }
        process.standardInput = keyPipe ?? FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }

        let stdout = StreamCollector(limit: request.outputLimit, splitLines: true)
        let stderr = StreamCollector(limit: request.outputLimit, splitLines: false)
        do {
            try process.run()
        } catch {
            return ChildOutcome(ending: .failedToStart("\(error)"), stderr: "", stderrTruncated: false, otherOutput: [],
                                stdoutTruncated: false, result: nil, malformedLines: [], lastProgress: nil, elapsedSeconds: 0)
        }
        let readers = [
            stdout.drain(stdoutPipe.fileHandleForReading),
            stderr.drain(stderrPipe.fileHandleForReading),
        ]

        var killedFor: ChildOutcome.Ending?
        var lastSignature: String?
        var lastChange = Date()
        var crashSeenAt: Date?
        while exited.wait(timeout: .now() + 0.05) == .timedOut {
            let now = Date()
            let signature = stdout.progressSignature
            if signature != lastSignature { lastSignature = signature; lastChange = now }
            if crashSeenAt == nil, stderr.sawCrashMarker { crashSeenAt = now }
            if let crashSeenAt, now.timeIntervalSince(crashSeenAt) > request.crashGrace {
                killedFor = .killedAfterCrash
            } else if now.timeIntervalSince(lastChange) > request.stallTimeout {
                killedFor = .killedAfterStall
            }
            if killedFor != nil {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
                break
            }
        }
        for reader in readers { _ = reader.wait(timeout: .now() + 5) }

        let ending: ChildOutcome.Ending = killedFor ?? (process.terminationReason == .uncaughtSignal
            ? .signaled(process.terminationStatus) : .exited(process.terminationStatus))
        let lines = stdout.lines
        var result: ScenarioOutcome?
        var progress: ChildChannel.Progress?
        var malformed: [String] = []
        var forged: [String] = []
        var other: [String] = []
        var failures: [InvariantFailure] = []
        for line in lines {
            switch ChildChannel.decode(line) {
            case .progress(let value): progress = value
            case .failure(let value): failures.append(value)
            case .result(let value):
                if request.channelKey == nil { result = value } else { forged.append(String(line.prefix(200))) }
            case .signedResult(let value, let signature, let payload):
                if let key = request.channelKey, !ChannelAuthentication.isValid(signature: signature, of: payload, key: key) {
                    forged.append(String(line.prefix(200)))
                } else {
                    result = value
                }
            case .malformed(let text): malformed.append(String(text.prefix(200)))
            case .other(let text): if other.count < 50 { other.append(String(text.prefix(500))) }
            }
        }
        return ChildOutcome(
            ending: ending, stderr: stderr.text, stderrTruncated: stderr.truncated, otherOutput: other,
            stdoutTruncated: stdout.truncated, result: result, streamedFailures: failures, malformedLines: malformed,
            lastProgress: progress, elapsedSeconds: Date().timeIntervalSince(start), forgedResultLines: forged)
    }
}

/// Reads one pipe to its end on its own thread, keeping at most `limit` bytes.
/// (NSLock, not Synchronization.Mutex: on Linux TSan does not see Mutex as synchronisation.)
private final class StreamCollector: @unchecked Sendable {
    private struct State {
        var data = Data()
        var truncated = false
        var sawCrashMarker = false
        var pendingLine = Data()
        var lines: [String] = []
        var lastProgressLine: String?
    }

    private let limit: Int
    private let splitLines: Bool
    private let lock = NSLock()
    private var state = State()

    init(limit: Int, splitLines: Bool) {
        self.limit = limit
        self.splitLines = splitLines
    }

    func drain(_ handle: FileHandle) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let fd = handle.fileDescriptor
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                append(Data(buffer[0..<count]))
            }
            try? handle.close()
            done.signal()
        }
        return done
    }

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    private func append(_ chunk: Data) {
        withState { state in
            if !state.sawCrashMarker {
                let text = String(decoding: chunk, as: UTF8.self)
                state.sawCrashMarker = ChildRunner.crashMarkers.contains { text.contains($0) }
            }
            if splitLines {
                state.pendingLine.append(chunk)
                while let newline = state.pendingLine.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: state.pendingLine[state.pendingLine.startIndex..<newline], as: UTF8.self)
                    state.pendingLine.removeSubrange(state.pendingLine.startIndex...newline)
                    if line.hasPrefix(ChildChannel.progressTag) {
                        state.lastProgressLine = line  // only the newest heartbeat matters
                    } else if state.data.count + line.utf8.count < limit {
                        state.data.append(contentsOf: line.utf8)
                        state.lines.append(line)
                    } else {
                        state.truncated = true
                    }
                }
                if state.pendingLine.count > limit {  // one endless line: keep nothing of it
                    state.pendingLine.removeAll()
                    state.truncated = true
                }
            } else if state.data.count < limit {
                state.data.append(chunk.prefix(limit - state.data.count))
                if state.data.count >= limit { state.truncated = true }
            } else {
                state.truncated = true
            }
        }
    }

    var text: String { withState { String(decoding: $0.data, as: UTF8.self) } }
    var truncated: Bool { withState { $0.truncated } }
    var sawCrashMarker: Bool { withState { $0.sawCrashMarker } }
    var progressSignature: String? {
        withState { state in
            guard let line = state.lastProgressLine, case .progress(let progress) = ChildChannel.decode(line) else { return nil }
            return "\(progress.iteration)/\(progress.checkpointHits)"
        }
    }
    var lines: [String] {
        withState { state in
            var all = state.lines
            if let last = state.lastProgressLine { all.append(last) }
            if !state.pendingLine.isEmpty { all.append(String(decoding: state.pendingLine, as: UTF8.self)) }
            return all
        }
    }
}
