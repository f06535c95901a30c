import RaceLabGrading
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

    /// `racelab check`'s verdict: a PASS on a system without every check is provisional, and
    /// says which checks are missing; with every check it is the grader's, plainly.
    func testAPassIsProvisionalWhereChecksAreMissing() {
        let full = PlatformChecks(
            preemptionAndHolds: true, quietFromKernel: true, storyHolds: true, childConfinement: true,
            locksInLibraries: true)
        XCTAssertEqual(
            StudentFeedback.passingLine(points: "10/10", chance: "0.1%", platform: full),
            "PASSING: 10/10. An unfixed exercise would pass the stress pass with chance 0.1%.")
        let reduced = PlatformChecks(
            preemptionAndHolds: false, quietFromKernel: false, storyHolds: false, childConfinement: false,
            locksInLibraries: false)
        let line = StudentFeedback.passingLine(points: "10/10", chance: "0.1%", platform: reduced)
        XCTAssertTrue(line.hasPrefix("PASSING HERE, PROVISIONALLY: 10/10."), line)
        XCTAssertTrue(line.contains("no preemption or holds in the stress pass"), line)
        XCTAssertTrue(line.contains("may still fail"), line)
    }

    /// On Linux the child asks TSan for lock-order reports from uninstrumented modules; on an
    /// Apple platform it keeps Apple's default (Foundation's own atomics would be false races)
    /// and the check says what it loses.
    func testTSanOptionsArePerPlatformAndAMacSaysWhatItDoesNotSee() {
        let linux = TSanEnvironment.options(symbolizer: nil, suppressionsFile: "/s", platform: .linux)
        let darwin = TSanEnvironment.options(symbolizer: nil, suppressionsFile: "/s", platform: .darwin)
        XCTAssertTrue(linux.split(separator: ":").contains("ignore_noninstrumented_modules=0"), linux)
        XCTAssertFalse(darwin.contains("ignore_noninstrumented_modules"), darwin)
        XCTAssertEqual(
            linux.split(separator: ":").filter { !$0.hasPrefix("ignore_noninstrumented_modules") },
            darwin.split(separator: ":"), "the platforms differ in that option only")
        var mac = PlatformChecks.here
        mac.locksInLibraries = false
        XCTAssertTrue(mac.note?.contains("lock-order") ?? false, mac.note ?? "no note")
        #if os(Linux)
            XCTAssertTrue(PlatformChecks.here.locksInLibraries)
        #endif
    }
}
