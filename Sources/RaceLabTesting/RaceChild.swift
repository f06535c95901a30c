import CRaceLabSupport
import Foundation
@_spi(LabAuthoring) import LabKit
import RaceLabHarness

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
        let info = LabInfo(
            id: plan.lab, title: plan.variant, source: "your test", bug: "", invariants: [],
            expectedDetectors: [.tsan, .invariant, .crash, .hang])
        let lab = PlayableLab(info: info, variant: plan.variant) { run in
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
