import CompilerCheck
import Foundation
import LabKit
import RaceLabHarness
import RaceLabReports
import TSanReports

/// `racelab list`'s declaration.
enum ListCommand {
    static let json = Flag("json", "the labs as JSON, with what the compiler says of each")
    static let spec = CommandSpec(name: "list", summary: "the labs, their bugs and expected detectors", options: [json])
}

/// `racelab report`'s declaration.
enum ReportCommand {
    static let html = Option.text("html", "FILE", "where to write the page (needed)")
    static let spec = CommandSpec(
        name: "report", arguments: "RESULTS.json", positionals: 1...1,
        summary: "an HTML page from a saved `racelab run --json`", options: [html])
}

/// `racelab explain`'s declaration.
enum ExplainCommand {
    static let stacks = Flag(
        "stacks",
        "also show each whole call chain (TSan's runtime, the C library, Dispatch... marked), allocation and lock stacks"
    )
    static let json = Flag("json", "the parsed reports (every stack, every kind) and the text")
    static let spec = CommandSpec(
        name: "explain", arguments: "[FILE|-]", positionals: 0...1,
        summary:
            "a ThreadSanitizer log (from a lab or any program) in plain words; FILE holds the log, - or none reads standard input",
        options: [stacks, json], details: "exit status: 0 explained, 1 no report found, 2 unreadable input.")
}

/// The commands about the labs as they are: list, report (a saved run as HTML) and explain (a
/// ThreadSanitizer log in plain words). `racelab run`: RunCommand.swift.
extension RaceLabCommandLine {
    func list(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        if arguments[ListCommand.json] {
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
        guard let htmlFile = try arguments[ReportCommand.html] else {
            throw UsageError("report needs --html FILE; usage: \(ReportCommand.spec.usage)")
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
                reading: &reader, showStacks: arguments[ExplainCommand.stacks], sourceLine: SourceLineReader.lookup())
        } catch {
            throw UsageError(error.message)
        }
        print(arguments[ExplainCommand.json] ? Self.json(explanation) : explanation.text)
        return explanation.reports.isEmpty && explanation.reportCount == 0 ? 1 : 0
    }
}
