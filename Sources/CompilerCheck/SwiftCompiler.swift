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
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(NotFound)
        -> SwiftCompiler
    {
        var candidates: [String] = []
        if let exec = environment["SWIFT_EXEC"], !exec.isEmpty { candidates.append(exec) }
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            candidates.append("\(folder)/swiftc")
        }
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw NotFound(
                description:
                    "swiftc not found: put the Swift toolchain's bin folder on PATH, or set SWIFT_EXEC to swiftc")
        }
        let executable = URL(fileURLWithPath: path)
        let probe = SwiftCompiler(executable: executable, version: "")
        let answer = probe.run(["--version"])
        guard answer.status == 0,
            let first = answer.output.split(separator: "\n").first(where: { $0.contains("Swift version") })
        else {
            throw NotFound(
                description: "\(path) --version failed (exit \(answer.status)): \(answer.output.prefix(200))")
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

    /// Runs swiftc with `arguments`, bounded by `timeout` (diagnostics of a whole module fit
    /// in the 4 MB kept many times over).
    public func run(_ arguments: [String]) -> Output {
        let result = ToolProcess(executable: executable, arguments: arguments, timeout: timeout, outputLimit: 4 << 20)
            .run()
        return Output(status: result.status, output: result.output, timedOut: result.timedOut)
    }
}
