import Foundation
import LabCatalog
@_spi(LabAuthoring) import LabKit
import RaceLabHarness
import XCTest

/// Wrong fixes whose window is one exact place in the student's own code, with no checkpoint
/// in it: the stress pass holds a thread there (ThreadHold) while the other thread acts. Each
/// is caught, and a valid fix of the same lab stays clean under the same holds.
final class ThreadHoldTests: XCTestCase {
    /// Runs `variant` of `lab` (in stress unless told) and returns its output; `expect` is
    /// "DETECTED" or "CLEAN".
    private func stress(
        _ lab: String, _ variant: String, mode: String = "stress", iterations: Int, expect: String
    ) throws -> String {
        try LabsTestSupport.requireSolutions(try XCTUnwrap(testLabs.lab(lab)))  // the corpus ships with them
        let here = PlatformChecks.here
        try XCTSkipUnless(here.preemptionAndHolds && here.storyHolds, "this build has no holds (a reduced check)")
        let result = try LabsTestSupport.runRacelab([
            "run", lab, "--variant", variant, "--mode", mode,
            "--runs", "1", "--iterations", "\(iterations)", "--seed", "5"
        ])
        XCTAssertEqual(result.status, 0, "\(lab) \(variant): expected \(expect)\n\(result.stdout)\(result.stderr)")
        XCTAssertTrue(
            result.stdout.contains("\(expect) 1/1"), "\(lab) \(variant): expected \(expect)\n\(result.stdout)")
        return result.stdout
    }

    func testACancelLandingInsideStartIsCaught() throws {
        _ = try stress("async-operation", "wrong-cancel-between-check-and-start", iterations: 120, expect: "DETECTED")
        _ = try stress("async-operation", "valid-locked-enum", iterations: 20, expect: "CLEAN")
    }

    func testACheckAndARaiseLockedApartLoseAVisit() throws {
        // Visitor A held between its locked look and its locked raise; visitor B counts meanwhile.
        _ = try stress("check-then-act", "wrong-check-and-raise-locked-apart", iterations: 200, expect: "DETECTED")
        _ = try stress("check-then-act", "valid-nslock", iterations: 20, expect: "CLEAN")
    }

    /// The holds that wait for the story (StoryHolds.c): a thread that keeps the controller to its
    /// end lets go of it after the user left, every iteration; one that turns a weak reference
    /// into a strong one off main holds it while the user leaves.
    func testAThreadThatKeepsTheControllerToItsEndReleasesItOffMain() throws {
        let output = try stress(
            "priority-inversion", "wrong-decoder-thread-keeps-controller", iterations: 3, expect: "DETECTED")
        XCTAssertTrue(output.contains("released on a background thread"), output)
        _ = try stress("priority-inversion", "valid-raise-high", iterations: 20, expect: "CLEAN")
    }

    /// A block that ran off main is let go of only after the user left (LabCallInterposers.c):
    /// a completion block that holds the screen is its last owner in every iteration, and one
    /// that holds it weakly never is.
    func testABlockThatKeepsTheScreenReleasesItOffMain() throws {
        let output = try stress("completion-ui", "wrong-block-keeps-screen", iterations: 1, expect: "DETECTED")
        XCTAssertTrue(output.contains("the mail screen was released on a background thread"), output)
        _ = try stress("completion-ui", "valid-dispatch-main", iterations: 20, expect: "CLEAN")
    }

    func testAStrongReferenceTakenOffMainIsHeldWhileTheUserLeaves() throws {
        let output = try stress("off-main-dealloc", "wrong-weak-self-recaptured", iterations: 50, expect: "DETECTED")
        XCTAssertTrue(output.contains("deinit ran on a background thread"), output)
        _ = try stress("off-main-dealloc", "valid-weak-box-gcd", iterations: 20, expect: "CLEAN")
    }

    /// A late start (ScenarioRun.startingLate): mandelbrot's render asked for just before the view
    /// goes away starts after it has gone, so a global-queue block that does not ask whether the
    /// view is still there renders for nobody, every time; one that asks skips it.
    func testARenderThatStartsAfterTheViewWentAwayIsCaughtEveryTime() throws {
        let output = try stress(
            "mandelbrot", "wrong-global-queue-no-view-check", mode: "scripted", iterations: 3, expect: "DETECTED")
        XCTAssertTrue(output.contains("render(s) started after the view went away"), output)
        _ = try stress("mandelbrot", "valid-global-queue-tickets", mode: "scripted", iterations: 3, expect: "CLEAN")
    }

    func testACheckMadeOnTheWorkerIsStaleByTheTimeItsTotalLands() throws {
        _ = try stress("stale-results", "wrong-check-on-worker", iterations: 200, expect: "DETECTED")
        // The same check made on a courier (a thread the sum starts, or a block it sends to a
        // global queue): the hold follows the work there and holds it as it hands the total on.
        _ = try stress("stale-results", "wrong-check-on-courier-thread", iterations: 200, expect: "DETECTED")
        _ = try stress("stale-results", "wrong-check-on-global-queue", iterations: 200, expect: "DETECTED")
        _ = try stress("stale-results", "valid-generation-counter", iterations: 20, expect: "CLEAN")
    }
}

/// A screen's label and spinner are views: every value the label took is kept, and a spinner
/// set after its screen was dismissed is a callback reaching a dead screen.
final class ScreenViewsTests: XCTestCase {
    func testALabelKeepsEveryValueItShowed() {
        let label = ScreenLabel("total", text: "0")
        label.setText("6")
        label.setText("28")
        XCTAssertEqual(label.textsShown, ["6", "28"], "a value replaced at once was still on screen")
        XCTAssertEqual(label.text(), "28")
    }

    func testASpinnerSetAfterItsScreenWasDismissedIsAViolation() {
        _ = MainThreadChecker.shared.drain()
        let screen = TotalScreen()
        screen.recalculating.set(true)
        XCTAssertTrue(MainThreadChecker.shared.drain().isEmpty, "on main, before dismissal: fine")
        screen.close()
        screen.recalculating.set(false)
        let violations = MainThreadChecker.shared.drain().map(\.what)
        XCTAssertEqual(violations, ["recalculating flag of a dismissed screen set to false"])
    }
}
