import Foundation
import RaceLabHarness

/// Builds the lab program (`racelab-child`) of a package tree with ThreadSanitizer, and tells
/// which lab's exercise a failed build is to blame on. Used by grade-all, which builds the kit
/// once and then only what each submission's exercises change.
public struct ChildBuilder: Sendable {
    public let tree: URL
    public var swift = "swift"
    public var timeout: Double = 1800

    public init(tree: URL) { self.tree = tree }

    /// The command: TSan, a fresh read of Package.swift, and undeclared imports are errors.
    public var arguments: [String] {
        [swift, "build", "--sanitize=thread", "--manifest-cache", "none", "--explicit-target-dependency-import-check", "error",
         "--product", "racelab-child"]
    }

    public struct Result: Sendable {
        public var status: Int32
        public var timedOut: Bool
        /// The build's output (stdout and stderr), capped.
        public var log: String
        public var seconds: Double
        public var succeeded: Bool { status == 0 && !timedOut }
    }

    /// The built program.
    public var product: URL { tree.appendingPathComponent(".build/debug/racelab-child") }
    public var buildFolder: URL { tree.appendingPathComponent(".build/debug") }

    public func build(onTick: (Double) -> Void = { _ in }) -> Result {
        let started = Date()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = tree
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let collected = LogCollector()
        let reading = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let handle = output.fileHandleForReading
            while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty { collected.append(chunk) }
            reading.signal()
        }
        var launchError: Error?
        let pid = Interruption.tracking {
            do { try process.run(); return process.processIdentifier } catch { launchError = error; return 0 }
        }
        if let launchError {
            try? output.fileHandleForWriting.close()
            return Result(status: -1, timedOut: false, log: "cannot run \(swift): \(launchError.localizedDescription)", seconds: 0)
        }
        defer { Interruption.untrack(child: pid) }
        var timedOut = false
        while process.isRunning {
            let elapsed = Date().timeIntervalSince(started)
            onTick(elapsed)
            if elapsed > timeout {
                timedOut = true
                kill(-process.processIdentifier, SIGKILL)  // Process gives the build a group of its own
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(200_000)
        }
        process.waitUntilExit()
        _ = reading.wait(timeout: .now() + 10)
        return Result(status: timedOut ? -1 : process.terminationStatus, timedOut: timedOut, log: collected.text,
                      seconds: Date().timeIntervalSince(started))
    }

    /// The lab folders (`Labs/<Folder>`) a failed build's log blames: compiler errors in a lab's
    /// files, undeclared imports of a lab's exercise module, link errors whose symbol is defined
    /// or referenced by a lab's object files, and errors in the catalog line that registers a lab.
    /// With each, the first error line.
    public static func blamedLabFolders(in log: String, labFolders: [String]) -> [String: String] {
        var blamed: [String: String] = [:]
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var lastError = ""
        func blame(_ folder: String, _ reason: String) {
            guard labFolders.contains(folder), blamed[folder] == nil else { return }
            blamed[folder] = String(reason.prefix(300))
        }
        for line in lines {
            let isError = line.contains("error:")
            if isError { lastError = line.trimmingCharacters(in: .whitespaces) }
            guard isError || line.hasPrefix(">>>") else { continue }
            for folder in labFolders {
                if line.contains("/Labs/\(folder)/") || line.contains("\(folder)Exercises.build/")
                    || line.contains("Target \(folder)Exercises ") || line.contains("\(folder)Exercises.swiftmodule") {
                    blame(folder, isError ? shortError(line) : shortError(lastError))
                }
            }
            if isError, line.contains("Sources/LabCatalog/LabCatalog.swift") {
                // "…/LabCatalog.swift:42:5: error: cannot find 'makeListAdderExercise'…"
                for folder in labFolders where line.contains("make\(folder)") || line.contains("\(folder)Lab") {
                    blame(folder, shortError(line))
                }
            }
        }
        return blamed
    }

    /// "…/Labs/ListAdder/Exercise.swift:12:5: error: x" -> "Exercise.swift:12: error: x".
    static func shortError(_ line: String) -> String {
        guard let range = line.range(of: #"[^/\s]+\.swift:\d+(:\d+)?: error: .*"#, options: .regularExpression) else {
            return line.trimmingCharacters(in: .whitespaces)
        }
        return String(line[range]).replacingOccurrences(of: #"(\.swift:\d+):\d+:"#, with: "$1:", options: .regularExpression)
    }
}

/// Collects a build's output up to a cap (a build that prints without end costs bounded memory).
private final class LogCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let limit = 8 << 20

    func append(_ chunk: Data) {
        lock.withLock { if data.count < limit { data.append(chunk.prefix(limit - data.count)) } }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
