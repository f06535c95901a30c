import CRaceLabSupport
import Foundation
import RaceLabHarness
import Synchronization
import XCTest

@_spi(LabAuthoring) @testable import LabKit

/// Where an object was let go of last: on the main thread or not (set by its deinit).
private final class ReleaseProbe: @unchecked Sendable {
    static let releasedOnMain = Atomic<Int>(0)  // 0: alive; 1: on main; 2: elsewhere
    deinit { Self.releasedOnMain.store(Thread.isMainThread ? 1 : 2, ordering: .sequentiallyConsistent) }
}

/// A flag one thread sets and another reads.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

private final class ProbeController: ScreenController, @unchecked Sendable {
    init() { super.init(screenName: "story-holds probe") }
}

/// The holds that wait for the story (StoryHolds.c), in this process: a thread the story started
/// waits at its end until the story is over; one that loads a strong reference to a controller
/// waits with it until the main thread's next user action ended. The waits below are caps: what
/// is asserted holds in every interleaving.
final class StoryHoldsTests: XCTestCase {
    override func tearDown() {
        rl_story_holds_over()
        super.tearDown()
    }

    private func waitFor(_ what: String, _ condition: () -> Bool) throws {
        let end = Date(timeIntervalSinceNow: 30)
        while !condition() {
            guard Date() < end else {
                XCTFail("not within 30 s: \(what)")
                throw CancellationError()
            }
            usleep(1_000)  // a timed wait: the holds go on meanwhile
        }
    }

    func testAThreadKeepsWhatItCapturedUntilTheStoryIsOver() throws {
        #if os(Linux)
            try XCTSkipUnless(PlatformChecks.here.storyHolds, "this build has no holds at a thread's end")
            ReleaseProbe.releasedOnMain.store(0, ordering: .sequentiallyConsistent)
            let bodyDone = Flag()
            rl_story_holds_begin(1, 0)
            do {
                let probe = ReleaseProbe()
                Thread.detachNewThread { [probe] in
                    withExtendedLifetime(probe) { bodyDone.set() }
                }
            }
            try waitFor("the thread's body ran") { bodyDone.isSet }
            try waitFor("the thread is held at its end") { rl_story_held_now() == 1 }
            XCTAssertEqual(
                ReleaseProbe.releasedOnMain.load(ordering: .sequentiallyConsistent), 0,
                "held at its end, the thread still holds what its closure captured")
            rl_story_holds_over()
            try waitFor("the capture was let go of") {
                ReleaseProbe.releasedOnMain.load(ordering: .sequentiallyConsistent) != 0
            }
            XCTAssertEqual(
                ReleaseProbe.releasedOnMain.load(ordering: .sequentiallyConsistent), 2,
                "let go of on the thread, after the story")
        #else
            throw XCTSkip("the holds are Linux's")
        #endif
    }

    func testAMainThreadThatWaitsForTheThreadEndsTheHold() throws {
        #if os(Linux)
            let ended = DispatchSemaphore(value: 0)
            final class Signaller: @unchecked Sendable {
                let semaphore: DispatchSemaphore
                init(_ semaphore: DispatchSemaphore) { self.semaphore = semaphore }
                deinit { semaphore.signal() }
            }
            rl_story_holds_begin(1, 0)
            do {
                let signaller = Signaller(ended)
                Thread.detachNewThread { [signaller] in withExtendedLifetime(signaller) {} }
            }
            // With no time limit: the hold sees the main thread wait and lets the thread end (a hold
            // that waited for the story here would wait for ever).
            ended.wait()
            XCTAssertEqual(rl_story_held_now(), 0)
        #else
            throw XCTSkip("the holds are Linux's")
        #endif
    }

    func testAStrongLoadOfAControllerIsHeldUntilTheUserActs() throws {
        #if os(Linux)
            try XCTSkipUnless(PlatformChecks.here.storyHolds, "this build has no holds at a thread's end")
            _ = DeallocationLog.shared.drain()
            rl_story_holds_begin(0, 1)
            var controller: ProbeController? = ProbeController()
            weak let weakController = controller
            let threadDone = Flag()
            Thread.detachNewThread {
                if let strong = weakController { _ = strong.screenName }  // a strong reference, for a moment
                threadDone.set()
            }
            try waitFor("the thread holds the controller") { rl_story_held_now() == 1 }
            controller = nil  // the user leaves: the main thread lets go
            rl_story_user_action_ended()
            try waitFor("the thread went on") { threadDone.isSet }
            let log = DeallocationLog.shared.drain().filter { $0.screenName == "story-holds probe" }
            XCTAssertEqual(log.map(\.onMainThread), [false], "the thread's release was the last one: deinit off main")
        #else
            throw XCTSkip("the holds are Linux's")
        #endif
    }
}
