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
