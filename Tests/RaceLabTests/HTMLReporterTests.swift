import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

final class HTMLReporterTests: XCTestCase {
    func testSelfContainedPageWithTableReportsAndTimeline() throws {
        let log = try Fixture.text("list-adder-broken.log")
        let plan = ScenarioPlan(lab: "list-adder", variant: "broken", mode: .scripted, iterations: 1, seed: 42)
        let child = ChildOutcome(ending: .signaled(4), stderr: log, elapsedSeconds: 0.2)
        var run = VerdictBuilder.verdict(
            plan: plan, kind: .broken, child: child, reproduce: "racelab run list-adder --seed 42 <x>")
        run.trace = Trace(
            iteration: 1,
            events: [
                TraceEvent(
                    kind: .action, milliseconds: 0.4, threadID: 1, isMainThread: true, text: "adds <2> & more", hit: 0),
                TraceEvent(
                    kind: .checkpoint, milliseconds: 1, threadID: 7, isMainThread: false, text: "adder.step", hit: 1)
            ], overflowed: false)
        let outcome = VariantOutcome(lab: "list-adder", variant: "broken", kind: .broken, mode: .scripted, runs: [run])
        let report = RunReport(
            command: "racelab run list-adder", seed: 42, runsPerVariant: 1, elapsedSeconds: 1,
            outcomes: [outcome], lessons: ["list-adder": "/tmp/Labs/ListAdder/README.md"])
        let html = HTMLReporter.render(report)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.contains("<svg"))
        XCTAssertTrue(html.contains("user: adds &lt;2&gt; &amp; more"), "text is escaped")
        XCTAssertTrue(html.contains("<code>racelab run list-adder --seed 42 &lt;x&gt;</code>"))
        XCTAssertTrue(html.contains("href=\"file:///tmp/Labs/ListAdder/README.md\""), "links to the lesson")
        XCTAssertTrue(html.contains("TSan: Swift access race"))
        XCTAssertTrue(html.contains("Broken.swift:37"))
        XCTAssertTrue(html.contains("<pre class=explain>"), "each report is explained in plain words")
        XCTAssertTrue(html.contains("Usual cures"))
        XCTAssertFalse(html.contains("<script"), "no scripts")
        XCTAssertNil(html.range(of: #"(src|href)="https?:"#, options: .regularExpression), "no external assets")
        let decoded = try JSONDecoder().decode(RunReport.self, from: JSONEncoder().encode(report))
        XCTAssertEqual(HTMLReporter.render(decoded), html, "racelab report renders the saved JSON the same way")
    }
}
