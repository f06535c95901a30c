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
            "  \(rl_tsan_enabled() != 0 ? "yes" : "no ")  ThreadSanitizer built in\(rl_tsan_enabled() != 0 ? "" : " (make build builds with it)")"
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

    // MARK: run

    /// `--jobs N` (children at once), else `RACELAB_JOBS`, else four times the cores.
    func jobs(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        try arguments.int("jobs", in: 1...64) ?? ChildPool.defaultJobs(environment: environment)
    }

    func lab(_ id: String) throws(UsageError) -> Lab {
        guard let lab = try registry.lab(id) else {
            throw UsageError("unknown lab '\(id)'; valid: \(try registry.ids.joined(separator: ", "))")
        }
        return lab
    }

    /// Which variants `--variant` names in `lab`.
    func variants(_ selector: String?, in lab: Lab) throws(UsageError) -> [Lab.Variant] {
        switch selector {
        case nil: return lab.variants.filter { $0.kind == .broken || $0.kind == .fixed }
        case "all": return lab.variants.filter { !$0.kind.isCorpus }
        case "corpus":
            let matching = lab.variants.filter(\.kind.isCorpus)
            guard !matching.isEmpty else { throw UsageError("lab '\(lab.id)' has no grading corpus in this build") }
            return matching
        case let name?:
            if let kind = VariantKind(rawValue: name) {
                let matching = lab.variants.filter { $0.kind == kind }
                guard !matching.isEmpty else {
                    throw UsageError("lab '\(lab.id)' has no \(name) variant in this build")
                }
                return matching
            }
            guard let variant = lab.variant(named: name) else {
                let kinds = VariantKind.allCases.map(\.rawValue)
                let valid = kinds + ["all", "corpus"] + lab.variants.map(\.name).filter { !kinds.contains($0) }
                throw UsageError(
                    "unknown variant '\(name)' for lab '\(lab.id)'; valid: \(valid.joined(separator: ", "))")
            }
            return [variant]
        }
    }

    func run(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let labs: [Lab]
        if arguments.has("all") {
            guard arguments.positionals.isEmpty else { throw UsageError("give a lab or --all, not both") }
            labs = try registry.labs
        } else {
            guard let id = arguments.positionals.first else {
                throw UsageError("which lab? give one of \(try registry.ids.joined(separator: ", ")), or --all")
            }
            labs = [try lab(id)]
        }
        let mode = try arguments.choice("mode", from: RunMode.allCases.map(\.rawValue)).flatMap(RunMode.init(rawValue:))
        let variantSelector = arguments.string("variant")
        var plan: [(Lab, Lab.Variant, RunMode)] = []
        for lab in labs {
            let chosen = try variants(variantSelector, in: lab)
            if chosen.contains(where: { $0.kind == .exercise }), let failed = rebuildIfExerciseChanged(lab) {
                return failed
            }
            for variant in chosen {
                for variantMode in mode.map({ [$0] }) ?? LabRunner.defaultModes(for: variant.kind) {
                    plan.append((lab, variant, variantMode))
                }
            }
        }
        var settings = RunSettings(
            executable: childProgram,
            iterations: try arguments.int("iterations", in: 1...1_000_000),
            runs: try arguments.int("runs", in: 1...10_000) ?? 1,
            seed: try arguments.uint64("seed") ?? UInt64.random(in: 1...999_999),
            stallTimeout: try arguments.double("timeout", in: 1...3600),
            programName: CommandLine.arguments.first ?? "racelab")
        settings.point = try arguments.string("point").map { text throws(UsageError) in
            guard let point = ExplorationPoint(text) else {
                throw UsageError("--point must be PAUSE:HIT (two whole numbers from 1), not '\(text)'")
            }
            guard mode == .explore else {
                throw UsageError("--point replays one exploration point: give it with --mode explore")
            }
            return point
        }
        let htmlFile = arguments.string("html")
        if let htmlFile, let problem = OutputFile.problem(writing: htmlFile) {
            throw UsageError("cannot write the HTML report: \(problem)")
        }
        settings.trace = arguments.has("trace") || htmlFile != nil

        try requireTSan()

        let progress = ProgressLine(enabled: isatty(2) != 0)
        let started = Date()
        settings.jobs = try jobs(arguments)
        if let logs = arguments.string("logs") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: logs, isDirectory: &isDirectory), isDirectory.boolValue,
                access(logs, W_OK) == 0
            else {
                throw UsageError(
                    "--logs keeps each child's standard error in a folder: '\(logs)' is not a folder you can write")
            }
            settings.logFolder = URL(fileURLWithPath: logs)
        }
        let rows = LabRunner.rows(plan, settings: settings)
        let jobs = settings.jobs
        let outcomes = LabRunner.run(rows, jobs: jobs) { done, total in
            progress.show("\(done)/\(total) runs finished (\(jobs) at a time)")
        }
        progress.clear()
        let allMet = outcomes.allSatisfy(\.met)
        let command = CommandLine.arguments.joined(separator: " ")
        let report = RunReport(
            command: command, seed: settings.seed, runsPerVariant: settings.runs,
            elapsedSeconds: Date().timeIntervalSince(started), outcomes: outcomes,
            lessons: Dictionary(uniqueKeysWithValues: labs.map { ($0.id, $0.info.lessonFile.path) }),
            compiler: compilerFindings(labs))
        if arguments.has("json") {
            print(Self.json(report))
        } else {
            let colour = isatty(1) != 0 && environment["NO_COLOR"] == nil
            print(
                "RaceLab: \(labs.count) lab(s), \(settings.runs) run(s) per variant and mode, base seed \(settings.seed), ThreadSanitizer on\n"
            )
            if let note = PlatformChecks.here.note { print(note + "\n") }
            print(TableReporter(colour: colour).render(outcomes, compiler: report.compiler))
            if arguments.has("trace") { print("\n" + SwimlaneRenderer.render(outcomes)) }
            let failed = outcomes.filter { !$0.met }.count
            print(
                String(
                    format: "%@ in %.1fs.", failed == 0 ? "All expectations met" : "\(failed) expectation(s) NOT met",
                    report.elapsedSeconds))
        }
        if let htmlFile { try writeHTML(report, to: htmlFile) }
        return allMet ? 0 : 1
    }

    // MARK: report

    func report(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let path = arguments.positionals[0]
        guard let htmlFile = arguments.string("html") else {
            throw UsageError("report needs --html FILE; usage: \(Self.reportSpec.usage)")
        }
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

/// A one-line progress display on a terminal's stderr; silent when stderr is not a terminal.
/// Children report from several threads: one line at a time.
final class ProgressLine: @unchecked Sendable {
    let enabled: Bool
    private let lock = NSLock()
    /// The first word of the last phase printed for each prefix (without a terminal).
    private var printed: [String: String] = [:]
    init(enabled: Bool) { self.enabled = enabled }

    func show(_ text: String) {
        guard enabled else { return }
        lock.withLock { FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8)) }
    }

    func clear() {
        guard enabled else { return }
        lock.withLock { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    /// A line that stays (the live line, if any, is drawn again under it by the next `show`).
    func line(_ text: String) {
        lock.withLock { FileHandle.standardError.write(Data(((enabled ? "\r\u{1B}[K" : "") + text + "\n").utf8)) }
    }

    /// "PREFIX: PHASE": live, or without a terminal one line each time the phase's first two
    /// words change (so a log shows "building the kit..." and "calibrating list-adder..." once
    /// each, not every tick of a clock or every run).
    func phase(_ prefix: String, _ phase: String) {
        if enabled { return show("\(prefix): \(phase)") }
        let word = phase.split(separator: " ").prefix(2).joined(separator: " ")
        let isNew = lock.withLock {
            defer { printed[prefix] = word }
            return printed[prefix] != word
        }
        if isNew { line("\(prefix): \(phase)...") }
    }
}

/// One line on standard error.
func stderrLine(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
