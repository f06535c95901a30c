import Foundation
import RaceLabHarness

/// Builds the lab program (`racelab-child`) of a package tree with ThreadSanitizer, and tells
/// which lab's exercise a failed build is to blame on. Used by grade-all, which builds the kit
/// once and then only what each submission's exercises change.
public struct ChildBuilder: Sendable {
    public let tree: URL
    public var swift: String
    public var timeout: Double = 1800
    /// Where the tree's products are, as SwiftPM says (`swift build --show-bin-path`): the folder
    /// depends on the build system and the platform, so it is asked, never assumed.
    public let buildFolder: URL

    public init(tree: URL, swift: String = "swift") {
        self.tree = tree
        self.swift = swift
        buildFolder = Self.binFolder(of: tree, swift: swift)
    }

    /// SwiftPM's answer for `tree`; `.build/debug` (the native build system's link) if it has none.
    public static func binFolder(of tree: URL, swift: String = "swift") -> URL {
        let tool = ToolProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [swift, "build", "--sanitize=thread", "--show-bin-path"],
            directory: tree, timeout: 120, outputLimit: 1 << 16)
        let result = tool.run(tick: 0.05)
        if result.status == 0, let line = result.output.split(separator: "\n").last(where: { $0.hasPrefix("/") }) {
            return URL(fileURLWithPath: String(line))
        }
        return tree.appendingPathComponent(".build/debug")
    }

    /// The command: TSan, a fresh read of Package.swift, and undeclared imports are errors.
    public var arguments: [String] {
        [
            swift, "build", "--sanitize=thread", "--manifest-cache", "none",
            "--explicit-target-dependency-import-check", "error",
            "--product", "racelab-child"
        ]
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
    public var product: URL { buildFolder.appendingPathComponent("racelab-child") }

    /// For a student's command that is about to judge an exercise: builds when some exercise
    /// files (`changed`) are newer than the program; nil when none are. After a build that
    /// succeeded the product is marked current, since an edit that changes nothing compiles to
    /// nothing new and would otherwise look newer than the program for ever.
    public func rebuild(forChanged changed: [String]) -> Result? {
        guard !changed.isEmpty else { return nil }
        let result = build()
        if result.succeeded {
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: product.path)
        }
        return result
    }

    public func build(onTick: (Double) -> Void = { _ in }) -> Result {
        var tool = ToolProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"), arguments: arguments, directory: tree,
            timeout: timeout, outputLimit: 8 << 20)
        // It compiles code a student wrote: if memory runs out, it goes first (before anyone's run).
        tool.oomScoreAdjust = 1000
        let result = tool.run(tick: 0.2, onTick: onTick)
        return Result(status: result.status, timedOut: result.timedOut, log: result.output, seconds: result.seconds)
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
                    || line.contains("Target \(folder)Exercises ") || line.contains("\(folder)Exercises.swiftmodule")
                {
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

    /// What a student needs from a failed build's log: its error lines, each once, in order (at
    /// most `limit`); the log's last lines when it has none (a link or tool failure).
    public static func errorLines(of log: String, limit: Int = 20) -> String {
        var seen = Set<String>()
        let errors = log.split(separator: "\n").map(String.init).filter {
            $0.contains("error:") && seen.insert($0).inserted
        }
        return
            (errors.isEmpty
            ? Array(log.split(separator: "\n").map(String.init).suffix(limit)) : Array(errors.prefix(limit)))
            .joined(separator: "\n")
    }

    /// "…/Labs/ListAdder/Exercise.swift:12:5: error: x" -> "Exercise.swift:12: error: x".
    static func shortError(_ line: String) -> String {
        guard let range = line.range(of: #"[^/\s]+\.swift:\d+(:\d+)?: error: .*"#, options: .regularExpression) else {
            return line.trimmingCharacters(in: .whitespaces)
        }
        return String(line[range]).replacingOccurrences(
            of: #"(\.swift:\d+):\d+:"#, with: "$1:", options: .regularExpression)
    }
}
