import Dispatch
import Foundation
import RaceLabHarness
import XCTest

@_spi(LabAuthoring) @testable import LabKit

/// Owns a screen and lets go of it on the main thread, with the scenario.
private final class MainThreadOwner {
    let screen: TotalScreen
    init(_ screen: TotalScreen) { self.screen = screen }
}

/// Owns a screen and hands itself to a background block, which is its last owner: the block
/// lets go only once the story has (`letGo`; on a timer alone, a main thread kept off the CPU
/// for 20 ms let go last, once, beside the grading corpus).
private final class BackgroundOwner: @unchecked Sendable {
    let screen: TotalScreen
    let letGo = DispatchSemaphore(value: 0)
    init(_ screen: TotalScreen) {
        self.screen = screen
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { [letGo] in
            letGo.wait()
            withExtendedLifetime(self) {}
        }
    }
}

/// Plays a variant as both labs' stories do: makes it, lets go of it, then tells a background
/// owner that it may let go too.
private func makeAndLetGo(_ variant: LabVariant<TotalScreen, AnyObject>) {
    let letGo: DispatchSemaphore?
    do {
        let owner = variant.make(TotalScreen())
        letGo = (owner as? BackgroundOwner)?.letGo
    }
    letGo?.signal()
}

/// Owns a screen and keeps itself alive (a leak).
private final class KeepingOwner: @unchecked Sendable {
    static let kept = NSLockedArray()
    let screen: TotalScreen
    init(_ screen: TotalScreen) {
        self.screen = screen
        Self.kept.withLock { $0.append(self) }
    }
}

private final class NSLockedArray: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [AnyObject] = []
    func withLock(_ body: (inout [AnyObject]) -> Void) { lock.withLock { body(&items) } }
}

/// A lab for these tests only: the variant decides on which thread the screen dies.
private enum ScreenReleaseLab: LabScenario {
    static let info = LabInfo(
        id: "screen-release", title: "Where a screen dies", source: "tests", bug: "a block is the screen's last owner",
        invariants: ["the screen is released on the main thread"], expectedDetectors: [.invariant])
    static var variants: [LabVariant<TotalScreen, AnyObject>] { [LabVariant(.broken) { BackgroundOwner($0) }] }
    static var solutions: [LabVariant<TotalScreen, AnyObject>] {
        [
            LabVariant(.fixed) { MainThreadOwner($0) },
            LabVariant(.fixed, name: "fixed-but-released-off-main") { BackgroundOwner($0) },
            LabVariant(.fixed, name: "fixed-keeps-its-screen") { KeepingOwner($0) }
        ]
    }
    static func play(_ variant: LabVariant<TotalScreen, AnyObject>, in run: ScenarioRun) {
        makeAndLetGo(variant)
    }
}

/// The same story in a lab that comes earlier in a learning path than the one that teaches the rule.
private enum ScreenReleaseEarlierLab: LabScenario {
    static let info = LabInfo(
        id: "screen-release-earlier", title: "Where a screen dies, before the rule is taught", source: "tests",
        bug: "a block is the screen's last owner", invariants: ["none yet"], expectedDetectors: [.invariant])
    static var variants: [LabVariant<TotalScreen, AnyObject>] { [LabVariant(.broken) { BackgroundOwner($0) }] }
    static func play(_ variant: LabVariant<TotalScreen, AnyObject>, in run: ScenarioRun) {
        makeAndLetGo(variant)
    }
}

/// A screen stands for a view, and a view must be released on the main thread: a fixed variant
/// whose screen dies elsewhere fails (the proof that the reference fixes obey the
/// off-main-dealloc lesson); any other variant gets a note.
final class ScreenLifetimeTests: XCTestCase {
    private let lab = PlayableLab(ScreenReleaseLab.self, exercise: { MainThreadOwner($0) })
        .adding(LabSolutions(ScreenReleaseLab.self, ScreenReleaseLab.solutions))

    private func run(_ variant: String) -> ScenarioOutcome {
        XCTAssertTrue(Thread.isMainThread)
        let plan = ScenarioPlan(
            lab: "screen-release", variant: variant, mode: .scripted, iterations: 2, seed: 1,
            stopAtFirstDetection: false)
        return ScenarioDriver.run(lab, plan: plan)
    }

    func testAFixedVariantWhoseScreenDiesOnABackgroundThreadFails() throws {
        try XCTSkipUnless(PlatformChecks.here.storyHolds, "this build has no holds at a thread's end")
        let outcome = run("fixed-but-released-off-main")
        XCTAssertEqual(outcome.failures.count, 2, "\(outcome.failures)")
        for failure in outcome.failures {
            XCTAssertTrue(
                failure.message.hasPrefix(
                    "UI rule broken, the total screen was released on a background thread (thread "), failure.message)
            XCTAssertEqual(
                failure.shortLocation.split(separator: ":").first, "TotalScreen.swift",
                "where the screen's lifetime is declared")
        }
    }

    /// A run records the checks it needed and this build lacks, for a PASS line to name: none
    /// with the Linux facilities; in the reduced build (what macOS gets), the stress pass's
    /// preemption and the holds at the threads' ends.
    func testARunRecordsTheChecksItWentWithout() {
        let plan = ScenarioPlan(
            lab: "screen-release", variant: "fixed", mode: .stress, iterations: 2, seed: 1, stopAtFirstDetection: false)
        let outcome = ScenarioDriver.run(lab, plan: plan)
        XCTAssertEqual(outcome.failures, [])
        let expected: [MissingCheck] = PlatformChecks.here.missing.isEmpty ? [] : [.preemption, .threadEndHold]
        XCTAssertEqual(outcome.wentWithout, expected)
    }

    func testAFixedVariantWhoseScreenDiesOnMainPasses() {
        let outcome = run("fixed")
        XCTAssertEqual(outcome.failures, [])
        XCTAssertEqual(outcome.notes, [])
    }

    func testOtherVariantsGetANoteNotAFailure() throws {
        try XCTSkipUnless(PlatformChecks.here.storyHolds, "this build has no holds at a thread's end")
        let outcome = run("broken")
        XCTAssertEqual(outcome.failures, [])
        XCTAssertEqual(
            outcome.notes,
            ["the total screen was released on a background thread (the off-main-dealloc lab) (2 iterations)"])
    }

    /// An exercise whose screen dies off main: a note before the learning path taught the rule,
    /// a failure from the teaching lab on (and in labs after it).
    func testAnExerciseIsHeldToTheRuleFromTheLabThatTeachesItOn() throws {
        try XCTSkipUnless(PlatformChecks.here.storyHolds, "this build has no holds at a thread's end")
        let path = PlayableLabRegistry(
            [
                PlayableLab(ScreenReleaseEarlierLab.self, exercise: { BackgroundOwner($0) }),
                PlayableLab(ScreenReleaseLab.self, exercise: { BackgroundOwner($0) })
            ], viewReleaseTaughtBy: "screen-release")
        XCTAssertEqual(path.labs.map(\.exerciseKeepsViewReleaseOnMain), [false, true])
        XCTAssertEqual(
            PlayableLabRegistry(path.labs.reversed().map { $0 }).adding([]).labs.map(\.exerciseKeepsViewReleaseOnMain),
            [true, false],
            "a registry made from labs keeps what their path said")

        func exercise(of lab: PlayableLab) -> ScenarioOutcome {
            ScenarioDriver.run(
                lab,
                plan: ScenarioPlan(
                    lab: lab.id, variant: "exercise", mode: .scripted, iterations: 2, seed: 1,
                    stopAtFirstDetection: false))
        }
        let earlier = exercise(of: path.labs[0])
        XCTAssertEqual(earlier.failures, [])
        XCTAssertEqual(
            earlier.notes,
            ["the total screen was released on a background thread (the off-main-dealloc lab) (2 iterations)"])
        let taught = exercise(of: path.labs[1])
        XCTAssertEqual(taught.failures.count, 2, "\(taught.failures)")
        XCTAssertTrue(
            taught.failures.allSatisfy {
                $0.message.hasSuffix("(a view must die on the main thread: the off-main-dealloc lab)")
            }, "\(taught.failures)")
        XCTAssertFalse(
            ViewReleaseRule.holds(.broken, exerciseKeepsIt: true),
            "a broken variant is judged on its own bug")
        XCTAssertTrue(
            ViewReleaseRule.holds(.validFix, exerciseKeepsIt: true), "the corpus stands for exercises")
        XCTAssertTrue(ViewReleaseRule.holds(.fixed, exerciseKeepsIt: false))
    }

    func testWithoutATeachingLabNoExerciseIsHeldToTheRule() {
        let path = PlayableLabRegistry([
            PlayableLab(ScreenReleaseEarlierLab.self, exercise: { MainThreadOwner($0) }),
            PlayableLab(ScreenReleaseLab.self, exercise: { MainThreadOwner($0) })
        ])
        XCTAssertEqual(
            path.labs.map(\.exerciseKeepsViewReleaseOnMain), [false, false], "no teacher named: never held to it")
    }

    func testAScreenStillAliveAfterTheWaitIsNotJudged() throws {
        try XCTSkipUnless(PlatformChecks.here.storyHolds, "this build has no holds at a thread's end")
        let outcome = run("fixed-keeps-its-screen")
        XCTAssertEqual(
            outcome.failures, [], "released nowhere yet: nothing to judge (a leak is the off-main-dealloc lab's check)")
        XCTAssertEqual(ScreenLifetimes.shared.drain(), [])
        KeepingOwner.kept.withLock { $0.removeAll() }
    }
}
