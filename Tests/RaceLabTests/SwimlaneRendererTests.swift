import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

final class SwimlaneRendererTests: XCTestCase {
    func event(_ kind: TraceEvent.Kind, _ ms: Double, _ thread: Int64, _ text: String, hit: Int = 0) -> TraceEvent {
        TraceEvent(kind: kind, milliseconds: ms, threadID: thread, isMainThread: thread == 1, text: text, hit: hit)
    }

    func verdict(reports: [TSanReport] = []) -> RunVerdict {
        RunVerdict(
            lab: "l", variant: "broken", kind: .broken, mode: .scripted, seed: 1, iterationsRequested: 1,
            iterationsRun: 1,
            detections: [Detection(detector: .crash, iteration: 1, seconds: 0.1, summary: "died on SIGILL")],
            reports: reports, failures: [], hangPositions: [], harnessError: nil, notes: [], metrics: [:],
            elapsedSeconds: 0.1, reproduce: "r", trace: nil)
    }

    func testThreadsSideBySideInTimeOrderWithinEightyColumns() throws {
        let trace = Trace(
            iteration: 1,
            events: [
                event(.checkpoint, 0.5, 22, "adder.step", hit: 1),
                event(.action, 0.1, 1, "adds 2"),
                event(.pause, 0.6, 22, "held here", hit: 1),
                event(.action, 0.9, 1, "deletes all but one, a rather long description that must be cut"),
                event(.report, 1.2, 1, "TSan report"),
                event(.checkpoint, 1.5, 33, "adder.step", hit: 2)
            ], overflowed: false)
        let log = try Fixture.text("list-adder-broken.log")
        var run = verdict(reports: TSanReportParser.parse(log))
        run.trace = trace
        let text = SwimlaneRenderer.render(trace, run: run)
        let lines = text.split(separator: "\n")
        XCTAssertTrue(lines.allSatisfy { $0.count <= 80 }, text)
        XCTAssertTrue(lines[0].contains("main"))
        let body = lines.filter {
            $0.contains(">>") || $0.contains("||") || $0.contains("!!") || $0.contains("adder.step")
        }
        XCTAssertEqual(body.first.map(String.init)?.contains(">> adds 2"), true, "sorted by time")
        let worker = try XCTUnwrap(lines.first { $0.contains("adder.step #1") })
        let main = try XCTUnwrap(lines.first { $0.contains(">> adds 2") })
        XCTAssertGreaterThan(
            worker.range(of: "adder")!.lowerBound.utf16Offset(in: worker),
            main.range(of: ">>")!.lowerBound.utf16Offset(in: main), "workers sit right of main")
        XCTAssertTrue(text.contains("!! race"))
        XCTAssertTrue(text.contains("crashed: died on SIGILL"))
        XCTAssertTrue(text.contains("race: Swift access race"))
    }

    func testLongTracesKeepTheStoryAroundTheFirstProblem() {
        var events = (0..<500).map { event(.checkpoint, Double($0), 22, "step", hit: $0) }
        events.insert(event(.failure, 400.5, 1, "the total went back"), at: 401)
        let trace = Trace(iteration: 3, events: events, overflowed: false)
        let text = SwimlaneRenderer.render(trace, run: verdict())
        XCTAssertTrue(text.contains("XX the total went back"))
        XCTAssertTrue(text.contains("earlier events not shown"))
        XCTAssertLessThan(text.split(separator: "\n").count, 70)
    }
}
