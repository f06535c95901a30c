import RaceLabGrading
import XCTest

@testable import RaceLabHarness

/// A system without all of the grader's checks says so at the top of every run and check.
final class PlatformChecksTests: XCTestCase {
    func testLinuxHasEveryCheckAndSaysNothing() throws {
        #if os(Linux) && !RACELAB_NO_LINUX_FACILITIES
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
        let otherWidth = PlatformChecks(
            preemptionAndHolds: true, quietFromKernel: true, storyHolds: true, childConfinement: true,
            locksInLibraries: true, sameCPUCount: false)
        XCTAssertTrue(otherWidth.note?.contains("Dispatch as wide as this machine") == true, otherWidth.note ?? "nil")
        XCTAssertTrue(otherWidth.lines.contains { $0.hasPrefix("  no   every lab sees 2 CPUs") }, "\(otherWidth.lines)")
    }

    /// `racelab check`'s verdict: a PASS on a system without every check is provisional, and
    /// says which checks are missing; with every check it is the grader's, plainly.
    func testAPassIsProvisionalWhereChecksAreMissing() {
        let full = PlatformChecks(
            preemptionAndHolds: true, quietFromKernel: true, storyHolds: true, childConfinement: true,
            locksInLibraries: true, sameCPUCount: true)
        XCTAssertEqual(
            StudentFeedback.passingLine(points: "10/10", chance: "0.1%", platform: full),
            "PASSING: 10/10. An unfixed exercise would pass the stress pass with chance 0.1%.")
        let reduced = PlatformChecks(
            preemptionAndHolds: false, quietFromKernel: false, storyHolds: false, childConfinement: false,
            locksInLibraries: false)
        let line = StudentFeedback.passingLine(
            points: "10/10", chance: "0.1%", platform: reduced, wentWithout: [.preemption, .threadEndHold])
        XCTAssertTrue(line.hasPrefix("PASSING HERE, PROVISIONALLY: 10/10."), line)
        XCTAssertTrue(
            line.contains(
                "checks this lab with preemption in the stress pass, holds at a thread's end and lock-order reports"),
            line)
        XCTAssertTrue(line.contains("lock-order reports for Foundation's locks"), line)
        XCTAssertTrue(line.contains("may still fail"), line)
    }

    /// The reason is the lab's own: what its runs needed and went without here. The reduced
    /// build on Linux (TSan sees Foundation's locks there) with a lab whose check needed none of
    /// the missing ones passes plainly; one that needed a hold says so, and only that.
    func testAProvisionalPassNamesWhatThisLabsCheckWentWithout() {
        let reducedLinux = PlatformChecks(
            preemptionAndHolds: false, quietFromKernel: false, storyHolds: false, childConfinement: false,
            locksInLibraries: true)
        let needsNone = StudentFeedback.passingLine(points: "10/10", chance: "0.1%", platform: reducedLinux)
        XCTAssertTrue(needsNone.hasPrefix("PASSING HERE: 10/10. This lab's check needed none"), needsNone)
        let needsAHold = StudentFeedback.passingLine(
            points: "10/10", chance: "0.1%", platform: reducedLinux, wentWithout: [.hold])
        XCTAssertTrue(needsAHold.contains("checks this lab with holds at a chosen point, which"), needsAHold)
        XCTAssertFalse(needsAHold.contains("preemption"), needsAHold)
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
