import CRaceLabSupport
import CompilerCheck
import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness
import RaceLabReports
import TSanReports

/// The `racelab` commands. `main.swift` only hands over the arguments.
///
/// racelab links no lab code: the labs run in `racelab-child` (built beside it), which also
/// tells racelab which labs there are (`registry`, asked once, when a command needs it).
public struct RaceLabCommandLine {
    /// The lab program: the labs, their exercises and reference fixes, run one variant a process.
    let childProgram: URL
    let environment: [String: String]
    private let catalog = CatalogCache()

    public init(
        childProgram: URL = ChildCatalog.programBeside(Self.executableURL),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.childProgram = childProgram
        self.environment = environment
    }

    /// The labs `childProgram` knows.
    var registry: LabRegistry {
        get throws(UsageError) {
            if let known = catalog.registry { return known }
            do {
                let loaded = try ChildCatalog.load(from: childProgram)
                catalog.registry = loaded
                return loaded
            } catch {
                throw UsageError(error.description)
            }
        }
    }

    /// `racelab` alone or `racelab help`: every command in one line, by section.
    static var overview: String {
        var lines = ["racelab: run thread-safety labs under ThreadSanitizer and judge each variant."]
        for section in Command.Section.allCases {
            lines += ["", "\(section.rawValue):"]
            for command in commands where command.section == section {
                let head =
                    "  racelab \(command.spec.name)"
                    + (command.spec.arguments.isEmpty ? "" : " \(command.spec.arguments)")
                let column = 36
                if head.count + 2 > column { lines.append(head) }
                lines += TextWrapper.wrap(
                    command.spec.summary, width: 100,
                    indent: head.count + 2 > column
                        ? String(repeating: " ", count: column)
                        : head.padding(toLength: column, withPad: " ", startingAt: 0),
                    continuation: String(repeating: " ", count: column), breakLongWords: false)
            }
        }
        lines += ["", "racelab help COMMAND (or racelab COMMAND --help): its options and exit status."]
        return lines.joined(separator: "\n")
    }

    /// Runs a command; returns the exit status (0, 1 or 2).
    public func main(_ arguments: [String]) -> Int32 {
        do throws(UsageError) {
            guard let name = arguments.first else {
                print(Self.overview)
                return 0
            }
            let rest = Array(arguments.dropFirst())
            if ["help", "--help", "-h"].contains(name) {
                print(try Self.help(rest))
                return 0
            }
            let command = try Self.command(named: name)
            if rest.contains("--help") || rest.contains("-h") {
                print(command.spec.help)
                return 0
            }
            return try command.run(self, ParsedArguments(rest, spec: command.spec))
        } catch {
            FileHandle.standardError.write(Data("racelab: \(error.message)\n".utf8))
            return 2
        }
    }

    static func command(named name: String) throws(UsageError) -> Command {
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            throw UsageError(
                "unknown command '\(name)'; valid: \(commands.map(\.spec.name).joined(separator: ", ")), help")
        }
        return command
    }

    /// `racelab help [COMMAND]`.
    static func help(_ arguments: [String]) throws(UsageError) -> String {
        guard let name = arguments.first else { return overview }
        guard arguments.count == 1 else {
            throw UsageError("help takes one command name at most (got '\(arguments.joined(separator: " "))')")
        }
        return try command(named: name).spec.help
    }

    // MARK: policy

    func policy(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        if arguments.has("markdown") && arguments.has("isolation") {
            throw UsageError("policy takes --markdown or --isolation, not both")
        }
        if arguments.has("markdown") {
            print(ExercisePolicy.markdownTable)
        } else if arguments.has("isolation") {
            print("racelab: on this machine, " + ChildIsolation.probe(executable: childProgram).summary)
        } else {
            for rule in ExercisePolicy.rules {
                print("\(rule.id) (\(rule.check.rawValue)): \(rule.construct)\n  \(rule.why)")
            }
            print("\nOn this machine: " + ChildIsolation.probe(executable: childProgram).summary)
        }
        return 0
    }

    // MARK: doctor

    /// What this machine can check, beside what the grader checks.
    func doctor(_ arguments: ParsedArguments) -> Int32 {
        let checks = PlatformChecks.here
        print("racelab doctor: this machine's checks (the grader runs on Linux and has them all)")
        print(
            "  \(rl_tsan_enabled() != 0 ? "yes" : "no ")  ThreadSanitizer built in\(rl_tsan_enabled() != 0 ? "" : ": " + HarnessProblem.tsanAdvice)"
        )
        for line in checks.lines { print(line) }
        print("  isolation: " + ChildIsolation.probe(executable: childProgram).summary)
        if let note = checks.note {
            print(note)
        } else {
            print("Every check the grader makes runs here: a PASS here is the grader's PASS.")
        }
        return rl_tsan_enabled() != 0 ? 0 : 1
    }

    // MARK: list

    func list(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        if arguments.has("json") {
            struct Entry: Codable {
                let id, title, source, bug: String
                let variants: [String]
                let invariants: [String]
                let expectedDetectors: [Detector]
                /// Swift 6 language mode on the lab's broken code, exercise and fixes.
                let compiler: [CompilerFinding]
            }
            let labs = try registry.labs
            let findings = compilerFindings(labs)
            let entries = labs.map { lab in
                Entry(
                    id: lab.id, title: lab.info.title, source: lab.info.source, bug: lab.info.bug,
                    variants: lab.variants.map(\.name), invariants: lab.info.invariants,
                    expectedDetectors: lab.info.expectedDetectors,
                    compiler: findings.filter { $0.lab == lab.id })
            }
            print(Self.json(entries))
            return 0
        }
        let labs = try registry.labs
        let findings = compilerFindings(labs)
        for lab in labs {
            print("\(lab.id): \(lab.info.title)")
            print("  bug:       \(lab.info.bug)")
            print("  variants:  \(lab.variants.map(\.name).joined(separator: ", "))")
            print("  caught by: \(lab.info.expectedDetectors.map(\.rawValue).joined(separator: ", "))")
            for (index, finding) in findings.filter({ $0.lab == lab.id }).enumerated() {
                print("  \(index == 0 ? "compiler: " : "          ") \(finding.part.rawValue): \(finding.detail)")
                if let note = finding.result?.scenarioNote { print("             (\(note))") }
            }
            print("  from:      \(lab.info.source)")
        }
        return 0
    }

    // MARK: report

    func report(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let path = arguments.positionals[0]
        guard let htmlFile = arguments.string("html") else {
            throw UsageError("report needs --html FILE; usage: \(Self.reportSpec.usage)")
        }
        try checkOutput(file: htmlFile, option: "--html", what: "the HTML report")
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw UsageError("cannot read '\(path)': give the file written by racelab run --json")
        }
        guard let report = try? JSONDecoder().decode(RunReport.self, from: data) else {
            throw UsageError("'\(path)' is not the JSON of racelab run --json")
        }
        try writeHTML(report, to: htmlFile)
        return 0
    }

    func writeHTML(_ report: RunReport, to path: String) throws(UsageError) {
        do {
            try OutputFile.write(HTMLReporter.render(report, sourceLine: SourceLineReader.lookup()), to: path)
        } catch {
            throw UsageError("cannot write the HTML report to '\(path)': \(error.localizedDescription)")
        }
        FileHandle.standardError.write(Data("racelab: HTML report written to \(path)\n".utf8))
    }

    // MARK: explain

    func explain(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let path = arguments.positionals.first ?? "-"
        if path == "-", isatty(0) != 0 {
            FileHandle.standardError.write(
                Data("racelab: reading a ThreadSanitizer log from standard input (end it with Ctrl-D)\n".utf8))
        }
        // Read as a stream, whatever its size (a pipe works too: explain <(swift run 2>&1)).
        let explanation: TSanExplanation
        do throws(LogReadError) {
            let source = try FileDescriptorSource(path: path)
            defer { source.close() }
            var reader = LogLineReader(source)
            explanation = try TSanExplainer.explain(
                reading: &reader, showStacks: arguments.has("stacks"), sourceLine: SourceLineReader.lookup())
        } catch {
            throw UsageError(error.message)
        }
        print(arguments.has("json") ? Self.json(explanation) : explanation.text)
        return explanation.reports.isEmpty && explanation.reportCount == 0 ? 1 : 0
    }

    // MARK: helpers

    /// This program's own binary (racelab-child is built beside it).
    public static var executableURL: URL {
        #if os(Linux)
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
            Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        #endif
    }

    static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}

/// The labs, once asked of the child program (a class: commands share one answer).
final class CatalogCache: @unchecked Sendable {
    var registry: LabRegistry?
}
