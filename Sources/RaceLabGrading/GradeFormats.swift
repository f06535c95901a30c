import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// The formats `racelab grade --format` writes.
public enum GradeFormat: String, CaseIterable, Sendable {
    case text, json, junit, gradescope

    /// File extension for per-student reports (grade-all).
    public var fileExtension: String {
        switch self {
        case .text: "txt"
        case .json: "json"
        case .junit: "xml"
        case .gradescope: "results.json"
        }
    }

    public func render(_ report: GradeReport) -> String {
        switch self {
        case .text: GradeText.visible(GradeText.render(report))
        case .json: GradeJSON.render(report)
        case .junit: GradeJUnit.render(report)
        case .gradescope: GradeGradescope.render(report)
        }
    }
}

extension GradeText {
    /// `text` with every control character but line breaks and tabs shown as "^[" and the like:
    /// a report holds names and text that came from students, and a terminal would obey an
    /// escape sequence in them (clear the screen, draw a table of its own).
    static func visible(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x09: out.append(scalar)
            case 0x00..<0x20:
                out.append(contentsOf: "^".unicodeScalars)
                out.append(Unicode.Scalar(scalar.value + 0x40)!)
            case 0x7F, 0x80..<0xA0: out.append(contentsOf: String(format: "\\u{%X}", scalar.value).unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}

/// Plain text: a table, then what is wrong in each lab, then the stress plan with its numbers.
public enum GradeText {
    public static func render(_ report: GradeReport) -> String {
        var out: [String] = []
        let who = report.student.map { " for \($0)" } ?? ""
        out.append("RaceLab grade\(who): \(report.labs.count) lab(s), base seed \(report.seed), exercises only")
        out.append("Kit check: \(report.integrity.status.rawValue): \(report.integrity.message)")
        out.append("")
        // A column per pass, by its mode (a lab's passes are scripted, explore, stress).
        let modes = RunMode.allCases.filter { mode in report.labs.contains { $0.passes.contains { $0.mode == mode } } }
        let header = ["LAB"] + modes.map { $0.rawValue.uppercased() } + ["SCORE", "STATUS"]
        let rows = report.labs.map { lab -> [String] in
            let cells = modes.map { mode in
                lab.passes.first { $0.mode == mode }.map {
                    "\($0.status.rawValue.uppercased()) (\(Grader.points($0.score))/\(Grader.points($0.maxScore)))"
                } ?? "-"
            }
            return [lab.lab] + cells + [
                "\(Grader.points(lab.score))/\(Grader.points(lab.maxScore))", lab.status.rawValue
            ]
        }
        let total =
            ["TOTAL"] + modes.map { _ in "" } + ["\(Grader.points(report.score))/\(Grader.points(report.maxScore))", ""]
        out += table(header, rows + [total])
        for lab in report.labs {
            out.append("")
            out.append(lab.message)
            for pass in lab.passes where pass.status != .passed {
                out += passLines(pass).map { "  " + $0 }
            }
        }
        out.append("")
        out.append("Stress pass per lab (iterations, and the chance that an unfixed exercise passes it):")
        for lab in report.labs {
            out.append(
                "  \(lab.lab): \(lab.stress.runs) x \(lab.stress.iterationsPerRun) iterations; chance \(lab.stress.chanceText)"
            )
            out.append("    measured: \(lab.stress.basis)")
        }
        for note in report.notes { out.append("note: \(note)") }
        if let failure = report.harnessFailure { out.append("HARNESS FAILURE: \(failure)") }
        out.append(
            String(
                format: "Score %@/%@ in %.1fs.", Grader.points(report.score), Grader.points(report.maxScore),
                report.elapsedSeconds))
        return out.joined(separator: "\n")
    }

    /// A failing pass: its summary, the first problem in full, the others one line each.
    public static func passLines(_ pass: PassGrade) -> [String] {
        var lines = ["\(pass.name) (\(pass.size)): \(pass.status.rawValue.uppercased()), \(pass.summary)"]
        for (index, problem) in pass.problems.enumerated() {
            if index == 0 {
                lines.append(
                    "  lab \(problem.lab), variant \(problem.variant), seed \(problem.seed)"
                        + (problem.iteration.map { ", iteration \($0)" } ?? "") + ":")
                lines += problem.lines.map { "    " + $0 }
                lines.append("    reproduce: \(problem.reproduce)")
            } else {
                lines.append(
                    "  also seed \(problem.seed) (same command with --seed \(problem.seed)): \(problem.lines.first ?? "")"
                )
            }
        }
        return lines
    }

    static func table(_ header: [String], _ rows: [[String]]) -> [String] {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { cells in
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }
}

public enum GradeJSON {
    public static func render(_ report: GradeReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(report)) ?? Data("{}".utf8), as: UTF8.self)
    }

    public static func decode(_ text: String) -> GradeReport? {
        try? JSONDecoder().decode(GradeReport.self, from: Data(text.utf8))
    }
}

/// JUnit XML as Maven Surefire writes it (surefire-test-report-3.0.xsd): one `<testsuite>`, a
/// `<testcase>` per lab (classname `racelab.<lab>`, one verdict, as the score has), `<failure>`
/// when a pass caught a bug or the exercise was rejected, `<error>` when it could not be judged
/// or was tampered with. Each pass is told in the testcase's output.
public enum GradeJUnit {
    public static func render(_ report: GradeReport) -> String {
        let failures = report.labs.filter { [.failed, .partial, .rejected].contains($0.status) }.count
        let errors = report.labs.filter { [.error, .tampered].contains($0.status) }.count
        var out = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        out.append(
            #"<testsuite xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" "#
                + #"xsi:noNamespaceSchemaLocation="https://maven.apache.org/surefire/maven-surefire-plugin/xsd/surefire-test-report-3.0.xsd" "#
                + #"version="3.0" name="\#(attribute("racelab.grade" + (report.student.map { "." + $0 } ?? "")))" "#
                + #"time="\#(time(report.elapsedSeconds))" tests="\#(report.labs.count)" errors="\#(errors)" skipped="0" failures="\#(failures)">"#
        )
        out.append("  <properties>")
        for (name, value) in properties(report) {
            out.append(#"    <property name="\#(attribute(name))" value="\#(attribute(value))"/>"#)
        }
        out.append("  </properties>")
        for lab in report.labs { out += testcase(lab) }
        out.append("</testsuite>")
        return out.joined(separator: "\n") + "\n"
    }

    /// The suite's properties: how it was graded, then each lab's score and stress plan.
    static func properties(_ report: GradeReport) -> [(String, String)] {
        var properties: [(String, String)] = [
            ("seed", String(report.seed)), ("score", Grader.points(report.score)),
            ("max_score", Grader.points(report.maxScore)),
            ("integrity", report.integrity.status.rawValue), ("integrity.message", report.integrity.message),
            ("partial_credit", report.policy.partialCredit ? "yes" : "no")
        ]
        if let student = report.student { properties.append(("student", student)) }
        for lab in report.labs {
            properties.append(("\(lab.lab).score", "\(Grader.points(lab.score))/\(Grader.points(lab.maxScore))"))
            properties.append(("\(lab.lab).stress.iterations", "\(lab.stress.runs) x \(lab.stress.iterationsPerRun)"))
            properties.append(("\(lab.lab).stress.unfixed_pass_chance", lab.stress.chanceText))
        }
        return properties
    }

    /// One lab's `<testcase>`: its verdict (`<failure>`, `<error>` or none) and each pass told.
    static func testcase(_ lab: LabGrade) -> [String] {
        let seconds = lab.passes.map(\.elapsedSeconds).reduce(0, +)
        var out = [
            #"  <testcase name="\#(attribute(lab.lab))" classname="racelab.\#(attribute(lab.lab))" time="\#(time(seconds))">"#
        ]
        let detail = lab.passes.flatMap { pass in
            pass.status == .passed
                ? ["\(pass.name) (\(pass.size)): passed, \(pass.summary)"] : GradeText.passLines(pass)
        }.joined(separator: "\n")
        switch lab.status {
        case .passed:
            break
        case .failed, .partial:
            out.append(
                #"    <failure message="\#(attribute(lab.message))" type="racelab.detected">\#(text(detail))</failure>"#
            )
        case .rejected:
            let reasons = (lab.violations ?? []).map(\.description).joined(separator: "\n")
            out.append(
                #"    <failure message="\#(attribute(lab.message))" type="racelab.rejected">\#(text(reasons))</failure>"#
            )
        case .error, .tampered:
            let type = lab.status == .tampered ? "racelab.tampered" : "racelab.error"
            out.append(#"    <error message="\#(attribute(lab.message))" type="\#(type)">\#(text(detail))</error>"#)
        }
        let about =
            "\(lab.message)\n" + lab.passes.map { "\($0.name): \($0.size), \($0.summary)" }.joined(separator: "\n")
            + "\nstress plan: \(lab.stress.runs) x \(lab.stress.iterationsPerRun) iterations; chance an unfixed exercise passes: \(lab.stress.chanceText)"
        out.append("    <system-out>\(text(about))</system-out>")
        out.append("  </testcase>")
        return out
    }

    /// Surefire's time: seconds with at most three decimals, no grouping.
    static func time(_ seconds: Double) -> String { String(format: "%.3f", max(seconds, 0)) }

    static func text(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            default:
                // XML 1.0 forbids most control characters even as references: drop them.
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func attribute(_ value: String) -> String {
        text(value).replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\t", with: "&#9;")
            .replacingOccurrences(of: "\r", with: "&#13;")
    }
}

/// Gradescope's results.json (gradescope-autograders.readthedocs.io, "Autograder
/// Specifications"): the total `score`, and a test per lab (one verdict, as the score has) with
/// `name`, `score`, `max_score`, `status`, `output` (every pass) and `visibility`.
public enum GradeGradescope {
    struct Results: Encodable {
        struct Test: Encodable {
            let name: String
            let score: Double
            let max_score: Double
            let status: String
            let output: String
            let visibility: String
        }

        let score: Double
        let execution_time: Int
        let output: String
        let visibility: String
        let stdout_visibility: String
        let tests: [Test]
    }

    public static func render(_ report: GradeReport) -> String {
        var tests: [Results.Test] = []
        for lab in report.labs {
            var output = [lab.message, ""]
            for violation in lab.violations ?? [] { output.append("  \(violation)") }
            for pass in lab.passes {
                if pass.status == .passed {
                    output.append("\(pass.name) (\(pass.size)): passed, \(pass.summary)")
                } else {
                    output += GradeText.passLines(pass)
                }
            }
            output.append("")
            output.append(
                "Stress iterations: \(lab.stress.runs) x \(lab.stress.iterationsPerRun). Chance that an unfixed exercise passes: \(lab.stress.chanceText); measured: \(lab.stress.basis)."
            )
            tests.append(
                Results.Test(
                    name: "\(lab.lab): \(lab.title)", score: lab.score, max_score: lab.maxScore,
                    status: lab.status == .passed ? "passed" : "failed",
                    output: output.joined(separator: "\n"),
                    visibility: "visible"))
        }
        var summary = [
            "RaceLab: \(Grader.points(report.score))/\(Grader.points(report.maxScore)). Kit check: \(report.integrity.status.rawValue): \(report.integrity.message)."
        ]
        summary += report.notes
        if let failure = report.harnessFailure { summary.append("Harness failure: \(failure)") }
        let results = Results(
            score: report.score, execution_time: Int(report.elapsedSeconds.rounded()),
            output: summary.joined(separator: "\n"), visibility: "visible", stdout_visibility: "hidden",
            tests: tests)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(results)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
