import Foundation
@_spi(LabAuthoring) import LabKit
import Synchronization

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
    let meeting = VisitorMeeting()

    public init() {}

    /// The count after one more visit. It takes a moment to work out: the bug's window is open
    /// while a thread is in here.
    public func addOne(to count: Int) -> Int {
        Checkpoint.hit("tally.add")
        meeting.visitorIsCounting()
        return count + 1
    }

    /// Lets the other threads run for a moment (for code that waits its turn).
    public func waitATurn() {
        meeting.waits.add(1, ordering: .relaxed)
        sched_yield()
    }
}

/// Stress: two visitors meet inside one visit. Visitor A is held at a random synchronisation
/// point of its visit (ThreadHold), say between its check and its raise, while visitor B comes.
/// Once B is counting (in `addOne`), A is let go and B goes on counting until A counts too, waits
/// its turn, blocks, or is done. A check and a raise locked apart let A count from the same
/// figure as B: a visit is lost. A fix that keeps them together makes A wait (for the lock, or its
/// turn), and B finishes first. Every field is a relaxed atomic: TSan sees no order in them.
final class VisitorMeeting: Sendable {
    enum Phase: Int { case off, waitingForB, bIsCounting, over }
    let phase = Atomic<Int>(Phase.off.rawValue)
    let threadA = Atomic<Int64>(0)
    let aIsDone = Atomic<Bool>(false)
    let threadB = Atomic<Int64>(0)
    let bIsDone = Atomic<Bool>(false)
    let waits = Atomic<Int>(0)  // waitATurn() calls, by anyone

    /// A new round (the last one's visitors are done).
    func startOver() {
        phase.store(Phase.off.rawValue, ordering: .relaxed)
        threadA.store(0, ordering: .relaxed)
        threadB.store(0, ordering: .relaxed)
        aIsDone.store(false, ordering: .relaxed)
        bIsDone.store(false, ordering: .relaxed)
    }

    /// How long B keeps counting while A catches up, at most.
    static let catchUpLimit = 0.02

    /// On B's thread, in `addOne`: the first visitor to count while A is held lets A go.
    func visitorIsCounting() {
        guard phase.compareExchange(expected: Phase.waitingForB.rawValue, desired: Phase.bIsCounting.rawValue,
                                    ordering: .relaxed).exchanged else { return }
        let countsBefore = Checkpoint.hits("tally.add")
        let waitsBefore = waits.load(ordering: .relaxed)
        let a = threadA.load(ordering: .relaxed)
        ThreadHold.release()
        let deadline = Date().addingTimeInterval(Self.catchUpLimit)
        var aWaits = ThreadHold.BlockedWatch()
        while Date() < deadline, !aIsDone.load(ordering: .relaxed), Checkpoint.hits("tally.add") == countsBefore,
              waits.load(ordering: .relaxed) == waitsBefore, !aWaits.isBlocked(thread: a) {}
        phase.store(Phase.over.rawValue, ordering: .relaxed)
    }
}

public enum CheckThenActLab: LabScenario {
    public static let info = LabInfo(
        id: "check-then-act",
        title: "\"If nobody is touching it, touch it\": a check that is stale by the time you act",
        source: "source article 002 (threads chapter: the \"if no other thread is touching this data\" pseudo-code); source article 001 on locks",
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
        let clerk = CheckThenActClerk()
        let counter = variant.make(clerk)
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
                let turnsBefore = clerk.meeting.waits.load(ordering: .relaxed)
                visitorArrives()
                // Visitor 2 has done all it can once it is done, waits for a lock (the app is
                // quiet), or has waited its turn a thousand times (a spin lock: it goes no further
                // while visitor 1 is held, and never looks quiet). Turns are counted, not timed:
                // on a busy machine a spin waits for the CPU too, and a time limit would move on.
                run.waitUntilDoneOrQuiet(timeout: 3) {
                    Checkpoint.hits("visit.done") >= 1 || clerk.meeting.waits.load(ordering: .relaxed) - turnsBefore >= 1_000
                }
            }
        case .stress:
            for _ in 0..<6 {
                run.randomPause(upTo: 1)
                visitorArrives()
            }
        }

        if !run.waitUntilDoneOrQuiet({ Checkpoint.hits("visit.done") >= arrived }) {
            run.fail("only \(Checkpoint.hits("visit.done")) of \(arrived) visitors got their visit counted; the others wait for something that never comes")
        }
        for _ in 0..<(run.mode == .stress ? meetingRounds : 0) {
            arrived += twoVisitorsMeet(counter, clerk: clerk, in: run)
            if !run.waitUntilDoneOrQuiet({ Checkpoint.hits("visit.done") >= arrived }) {
                run.fail("only \(Checkpoint.hits("visit.done")) of \(arrived) visitors got their visit counted; the others wait for something that never comes (visitor A was held inside its visit while visitor B came)")
                break
            }
        }
        let counted = counter.visits
        run.expect(counted == arrived,
                   "\(arrived) visits were recorded but the count says \(counted): \(arrived - counted) update(s) lost")
        run.record("lost updates", Double(max(arrived - counted, 0)))
    }

    /// Stress rounds of twoVisitorsMeet per iteration.
    static let meetingRounds = 3

    /// Stress: visitor A is held at a random point inside its visit while visitor B comes (see
    /// VisitorMeeting). Returns the visits made (2, or 1 if A was not held: it ran out of points).
    static func twoVisitorsMeet(_ counter: CheckThenActController, clerk: CheckThenActClerk, in run: ScenarioRun) -> Int {
        let meeting = clerk.meeting
        meeting.startOver()
        var visits = 1
        ThreadHold.race(run, skippingUpTo: 12, work: {
            meeting.threadA.store(ThreadHold.currentThread, ordering: .relaxed)
            counter.recordVisit()
            meeting.aIsDone.store(true, ordering: .relaxed)
            Checkpoint.hit("visit.done")
        }) {
            guard ThreadHold.isHolding else { return }
            visits = 2
            meeting.phase.store(VisitorMeeting.Phase.waitingForB.rawValue, ordering: .relaxed)
            let waitsBefore = meeting.waits.load(ordering: .relaxed)
            run.user("visitor B arrives while visitor A is inside its visit") {
                Thread.detachNewThread {
                    meeting.threadB.store(ThreadHold.currentThread, ordering: .relaxed)
                    counter.recordVisit()
                    meeting.bIsDone.store(true, ordering: .relaxed)
                    Checkpoint.hit("visit.done")
                }
            }
            // A stays held until B counts, or B cannot (it waits its turn, or for a lock A has).
            var bWaits = ThreadHold.BlockedWatch()
            _ = run.busyWait(timeout: VisitorMeeting.catchUpLimit) {
                meeting.phase.load(ordering: .relaxed) != VisitorMeeting.Phase.waitingForB.rawValue
                    || meeting.bIsDone.load(ordering: .relaxed) || meeting.waits.load(ordering: .relaxed) != waitsBefore
                    || bWaits.isBlocked(thread: meeting.threadB.load(ordering: .relaxed))
            }
            _ = meeting.phase.compareExchange(expected: VisitorMeeting.Phase.waitingForB.rawValue,
                                              desired: VisitorMeeting.Phase.over.rawValue, ordering: .relaxed)
            run.record("visitors held inside a visit", 1)
        }
        return visits
    }
}
