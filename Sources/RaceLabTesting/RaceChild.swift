import CRaceLabSupport
import Foundation
@_spi(LabAuthoring) import LabKit
import RaceLabHarness
import Synchronization

/// The child side of a ``RaceTest``: the test program started again on one test, with the pass
/// to make in its environment. It plays the races through the harness's own driver (the passes
/// every lab is judged by), sends the outcome on the result channel and exits.
enum RaceChild {
    /// The environment variable that carries the pass (a `ScenarioPlan`, as JSON) to the child.
    static let planVariable = "RACELAB_RACE_PLAN"

    /// The pass this process must make for `testName`, if it is such a child.
    static func planHere(for testName: String) -> ScenarioPlan? {
        guard let text = ProcessInfo.processInfo.environment[planVariable],
            let plan = try? JSONDecoder().decode(ScenarioPlan.self, from: Data(text.utf8)),
            plan.variant == testName
        else { return nil }
        return plan
    }

    /// `file` and `line`: where the test runs the race, the place a failed check is reported at.
    static func play(_ plan: ScenarioPlan, _ makeRace: @escaping () -> Race, file: StaticString, line: UInt) -> Never {
        play(plan, runsTasks: false) { run in
            let race = makeRace()
            let threads = race.bodies.map { body in
                startJoinableThread {
                    // A thread the stress pass may stop at its synchronisation points.
                    rl_preemption_note_thread(rl_current_thread_id())
                    body()
                }
            }
            for thread in threads { pthread_join(thread, nil) }
            if let problem = race.check() { run.fail(problem, file: file, line: line) }
        }
    }

    /// An ``AsyncRace``: its bodies as the child tasks of one task group, then its check in the
    /// same task, while the story waits (the async pass chooses jobs only then). The group's end
    /// orders every body before the check, as a join orders threads.
    static func play(_ plan: ScenarioPlan, _ makeRace: @escaping () -> AsyncRace, file: StaticString, line: UInt)
        -> Never
    {
        play(plan, runsTasks: true) { run in
            let race = makeRace()
            let outcome = RaceOutcome()
            let bodies = race.bodies
            let check = race.check
            Task.detached {
                await withTaskGroup(of: Void.self) { group in
                    for body in bodies { group.addTask { await body() } }
                }
                outcome.finish(await check())
            }
            // No limit of its own: a race whose bodies never return is the watchdog's hang.
            run.waitUntil(timeout: 3600) { outcome.finished }
            if let problem = outcome.problem { run.fail(problem, file: file, line: line) }
        }
    }

    private static func play(_ plan: ScenarioPlan, runsTasks: Bool, story: @escaping (ScenarioRun) -> Void) -> Never {
        let info = LabInfo(
            id: plan.lab, title: plan.variant, source: "your test", bug: "", invariants: [],
            expectedDetectors: [.tsan, .invariant, .crash, .hang], runsTasks: runsTasks)
        let lab = PlayableLab(info: info, variant: plan.variant, story: story)
        // The passes are driven from the main thread: XCTest runs tests there; under Swift
        // Testing the main thread is lent (MainThreadLoan).
        if Thread.isMainThread { ChildSession.run(lab, plan: plan) }
        _ = MainThreadLoan.run { ChildSession.run(lab, plan: plan) }
        fatalError(
            "RaceLab: this race test's child had no main thread to drive its passes from (a test library "
                + "other than XCTest or Swift Testing?)")
    }

    /// A joinable POSIX thread running `body`: joined, it has ended, so the check sees everything
    /// the body did (and ThreadSanitizer sees the join as the order it is).
    private static func startJoinableThread(_ body: @escaping () -> Void) -> pthread_t {
        final class Body {
            let run: () -> Void
            init(_ run: @escaping () -> Void) { self.run = run }
        }
        let argument = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Glibc) || canImport(Musl)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        let status = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<Body>.fromOpaque(UnsafeMutableRawPointer(argument)!).takeRetainedValue().run()
                return nil
            }, argument)
        precondition(status == 0, "pthread_create failed: \(status)")
        #if canImport(Glibc) || canImport(Musl)
            return thread
        #else
            return thread!
        #endif
    }
}

/// An async race's end, handed from its task to the story (a lock: what the check saw is then
/// the story's to report).
private final class RaceOutcome: Sendable {
    private let state = Mutex<(finished: Bool, problem: String?)>((false, nil))

    func finish(_ problem: String?) { state.withLock { $0 = (true, problem) } }
    var finished: Bool { state.withLock { $0.finished } }
    var problem: String? { state.withLock { $0.problem } }
}
