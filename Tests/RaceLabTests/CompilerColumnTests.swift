import Foundation
import LabKit
import RaceLabHarness
import XCTest

@testable import CompilerCheck
@testable import RaceLabReports

/// The COMPILER column in `racelab run`'s table and in the HTML report.
final class CompilerColumnTests: XCTestCase {
    func outcome(_ lab: String, _ variant: String, _ kind: VariantKind) -> VariantOutcome {
        let plan = ScenarioPlan(lab: lab, variant: variant, mode: .scripted, iterations: 1, seed: 1)
        let child = ChildOutcome(ending: .exited(0), stderr: "", elapsedSeconds: 0.1)
        return VariantOutcome(
            lab: lab, variant: variant, kind: kind, mode: .scripted,
            runs: [VerdictBuilder.verdict(plan: plan, kind: kind, child: child, reproduce: "r")])
    }

    let rejected = CompilerCheckResult(
        lab: "list-adder", part: .broken, files: ["Labs/ListAdder/Broken.swift"], sourceDigest: "d",
        compiler: "Swift version 6.3.1 (swift-6.3.1-RELEASE)", measuredAt: "2026-11-23T00:00:00Z", status: .rejected,
        errors: 1, newWarnings: 0,
        diagnostics: [
            CompilerDiagnostic(
                severity: .error, file: "Labs/ListAdder/Broken.swift", line: 37, column: 25,
                message: "capture of 'self' with non-Sendable type 'ListAdderBroken' in a '@Sendable' closure <&>",
                group: "SendableClosureCaptures")
        ])

    var findings: [CompilerFinding] {
        [
            CompilerFinding(lab: "list-adder", part: .broken, result: rejected),
            CompilerFinding(
                lab: "list-adder", part: .fixed, result: nil,
                notMeasured: "Scenario.swift or Fixed.swift changed since it was measured")
        ]
    }

    var outcomes: [VariantOutcome] {
        [
            outcome("list-adder", "broken", .broken), outcome("list-adder", "fixed", .fixed),
            outcome("list-adder", "valid-x", .validFix)
        ]
    }

    func testTableHasTheColumnAndSaysWhatTheCompilerSaid() {
        let table = TableReporter(colour: false).render(outcomes, compiler: findings)
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines[0].contains("HANG  COMPILER      EXPECTED  OK"), lines[0])
        XCTAssertTrue(lines[1].contains(" rejected "), lines[1])
        XCTAssertTrue(lines[2].contains(" not measured "), lines[2])
        XCTAssertTrue(lines[3].contains(" - "), "a corpus fix has no compiler result: \(lines[3])")
        XCTAssertTrue(
            table.contains("COMPILER: the same code in Swift 6 language mode (racelab compiler-check, Swift 6.3.1):"),
            table)
        XCTAssertTrue(
            table.contains("  list-adder  broken        rejected, 1 error: Broken.swift:37: capture of 'self'"), table)
        XCTAssertTrue(
            table.contains(
                "  list-adder  fixed         not measured (racelab compiler-check): Scenario.swift or Fixed.swift changed since it was measured"
            ), table)
        XCTAssertFalse(
            TableReporter(colour: false).render(outcomes).contains("COMPILER"), "no findings given, no column")
    }

    func testHTMLHasTheColumnAndASectionAndSurvivesJSON() throws {
        let report = RunReport(
            command: "racelab run list-adder", seed: 1, runsPerVariant: 1, elapsedSeconds: 1,
            outcomes: outcomes, lessons: [:], compiler: findings)
        let html = HTMLReporter.render(report)
        XCTAssertTrue(html.contains("<th>compiler</th>"))
        XCTAssertTrue(
            html.contains(
                "<td title=\"rejected, 1 error: Broken.swift:37: capture of 'self' with non-Sendable type 'ListAdderBroken' in a '@Sendable' closure &lt;&amp;&gt;\">rejected</td>"
            ), html)
        XCTAssertTrue(html.contains("<h2>What the Swift 6 compiler says</h2>"))
        XCTAssertTrue(
            html.contains(
                "<td>list-adder</td><td>broken</td><td>rejected</td><td><code>Broken.swift:37</code> capture of"), html)
        XCTAssertTrue(html.contains("not measured (racelab compiler-check)"))
        let decoded = try JSONDecoder().decode(RunReport.self, from: JSONEncoder().encode(report))
        XCTAssertEqual(HTMLReporter.render(decoded), html, "racelab report renders the saved JSON the same way")

        // A report saved before the column existed still reads, without the column.
        var old = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        old["compiler"] = nil
        let oldReport = try JSONDecoder().decode(RunReport.self, from: JSONSerialization.data(withJSONObject: old))
        XCTAssertNil(oldReport.compiler)
        XCTAssertFalse(HTMLReporter.render(oldReport).contains("compiler</th>"))
    }
}
