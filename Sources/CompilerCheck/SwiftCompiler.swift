import Foundation
import RaceLabHarness

/// The `swiftc` a check runs: found through `SWIFT_EXEC` (as SwiftPM honours it) or PATH.
public struct SwiftCompiler: Sendable {
    public let executable: URL
    /// swiftc's own first line of `--version`, e.g. "Swift version 6.3.1 (swift-6.3.1-RELEASE)".
    public let version: String
    /// Seconds one compilation may take before it is killed.
    public var timeout: Double = 120

    public init(executable: URL, version: String) {
        self.executable = executable
        self.version = version
    }

    public struct NotFound: Error, CustomStringConvertible {
        public let description: String
    }

    /// The compiler on this machine; `NotFound` says how to provide one.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(NotFound) -> SwiftCompiler {
        var candidates: [String] = []
        if let exec = environment["SWIFT_EXEC"], !exec.isEmpty { candidates.append(exec) }
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            candidates.append("\(folder)/swiftc")
        }
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw NotFound(description: "swiftc not found: put the Swift toolchain's bin folder on PATH, or set SWIFT_EXEC to swiftc")
        }
        let executable = URL(fileURLWithPath: path)
        let probe = SwiftCompiler(executable: executable, version: "")
        let answer = probe.run(["--version"])
        guard answer.status == 0, let first = answer.output.split(separator: "\n").first(where: { $0.contains("Swift version") }) else {
            throw NotFound(description: "\(path) --version failed (exit \(answer.status)): \(answer.output.prefix(200))")
        }
        return SwiftCompiler(executable: executable, version: first.trimmingCharacters(in: .whitespaces))
    }

    public struct Output: Sendable {
        /// Exit status; -1 when swiftc could not start or was killed for taking too long.
        public var status: Int32
        /// Standard output and error together (diagnostics go to standard error), capped.
        public var output: String
        public var timedOut: Bool
    }

    /// Runs swiftc with `arguments`, bounded by `timeout`.
    public func run(_ arguments: [String]) -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let collected = CompilerOutput()
        let reading = DispatchSemaphore(value: 0)
        // Read while it runs: a full pipe would stop swiftc.
        Thread.detachNewThread {
            let handle = pipe.fileHandleForReading
            while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty { collected.append(chunk) }
            reading.signal()
        }
        var launchError: Error?
        let pid = Interruption.tracking {
            do { try process.run(); return process.processIdentifier } catch { launchError = error; return 0 }
        }
        if let launchError {
            try? pipe.fileHandleForWriting.close()
            return Output(status: -1, output: "cannot run \(executable.path): \(launchError.localizedDescription)", timedOut: false)
        }
        defer { Interruption.untrack(child: pid) }
        let started = Date()
        var timedOut = false
        while process.isRunning {
            if Date().timeIntervalSince(started) > timeout {
                timedOut = true
                kill(-pid, SIGKILL)  // swiftc starts frontend processes: the whole group
                kill(pid, SIGKILL)
                break
            }
            usleep(20_000)
        }
        process.waitUntilExit()
        _ = reading.wait(timeout: .now() + 10)
        return Output(status: timedOut ? -1 : process.terminationStatus, output: collected.text, timedOut: timedOut)
    }
}

/// A compilation's output up to a cap (diagnostics of a whole module fit many times over).
private final class CompilerOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let limit = 4 << 20

    func append(_ chunk: Data) {
        lock.withLock { if data.count < limit { data.append(chunk.prefix(limit - data.count)) } }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
