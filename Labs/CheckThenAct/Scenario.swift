import Foundation
@_spi(LabAuthoring) import LabKit

/// What every variant offers. The scenario calls `recordVisit()` from several visitor threads
/// at once (each call returns once that visit is counted), then reads `visits` on the main
/// thread after every visitor has returned.
public protocol CheckThenActController: AnyObject {
    func recordVisit()
    var visits: Int { get }
}

/// The slow part of counting, on the harness side: a variant can make its code safe across this
/// window, but it cannot remove it.
public final class CheckThenActClerk: Sendable {
    public init() {}

    /// The count after one more visit. It takes a moment to work out: the bug's window is open
    /// while a thread is in here.
    public func addOne(to count: Int) -> Int {
        Checkpoint.hit("tally.add")
        return count + 1
    }

    /// Lets the other threads run for a moment (for code that waits its turn).
    public func waitATurn() { sched_yield() }
}

public enum CheckThenActLab: LabScenario {
    public static let info = LabInfo(
        id: "check-then-act",
        title: "\"If nobody is touching it, touch it\": a check that is stale by the time you act",
        source: "seed 002 (threads chapter: the \"if no other thread is touching this data\" pseudo-code); seed 001 on locks",
        bug: "a visitor counter checks a flag for \"nobody is updating the count\", then updates it; another thread passes the same check in between and one visit is lost",
        invariants: [
            "no lost updates: once every visitor has returned, the count equals the number of visits",
        ],
        expectedDetectors: [.tsan, .invariant],
        defaultIterations: [.scripted: 3, .stress: 100]
    )

    public static let variants: [LabVariant<CheckThenActClerk, CheckThenActController>] = [
        LabVariant(.broken) { CheckThenActBroken(clerk: $0) },
    ]

    public static func play(_ variant: LabVariant<CheckThenActClerk, CheckThenActController>, in run: ScenarioRun) {
        let counter = variant.make(CheckThenActClerk())
        var arrived = 0

        /// One visitor = one thread of its own that records one visit. (Harness side: the
        /// checkpoints only count; they order nothing.)
        func visitorArrives() {
            arrived += 1
            run.user("visitor \(arrived) arrives") {
                Thread.detachNewThread {
                    Checkpoint.hit("visit.start")
                    counter.recordVisit()
                    Checkpoint.hit("visit.done")
                }
            }
        }

        switch run.mode {
        case .scripted:
            // Visitor 1 passes the check and is held while it works out the new count; visitor 2
            // arrives in that moment and does all it can: finish (broken) or wait its turn (fixed).
            let firstIsCounting = run.pause(at: "tally.add", hit: 1)
            visitorArrives()
            firstIsCounting.whilePaused {
                visitorArrives()
                run.settle(idle: 0.1, timeout: 3, until: { Checkpoint.hits("visit.start") >= 2 })
            }
        case .stress:
            for _ in 0..<6 {
                run.randomPause(upTo: 1)
                visitorArrives()
            }
        }

        if !run.waitUntil(timeout: 10, { Checkpoint.hits("visit.done") >= arrived }) {
            run.fail("only \(Checkpoint.hits("visit.done")) of \(arrived) visitors got their visit counted within 10 s")
        }
        let counted = counter.visits
        run.expect(counted == arrived,
                   "\(arrived) visits were recorded but the count says \(counted): \(arrived - counted) update(s) lost")
        run.record("lost updates", Double(max(arrived - counted, 0)))
    }
}
