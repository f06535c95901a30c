import XCTest

@testable import RaceLabHarness

/// A system without all of the grader's checks says so at the top of every run and check.
final class PlatformChecksTests: XCTestCase {
    func testLinuxHasEveryCheckAndSaysNothing() throws {
        #if os(Linux)
            XCTAssertEqual(PlatformChecks.here.missing, [])
            XCTAssertNil(PlatformChecks.here.note)
        #else
            XCTAssertNotNil(PlatformChecks.here.note, "a reduced check must say so")
        #endif
    }

    func testAReducedCheckNamesWhatIsMissingAndWhereTheFullOneRuns() {
        let reduced = PlatformChecks(
            preemptionAndHolds: false, quietFromKernel: false, storyHolds: true, childConfinement: true)
        let note = reduced.note ?? ""
        XCTAssertTrue(note.contains("no preemption or holds"), note)
        XCTAssertTrue(note.contains("clock"), note)
        XCTAssertFalse(note.contains("thread's end"), note)
        XCTAssertTrue(note.contains("container"), note)
    }
}
