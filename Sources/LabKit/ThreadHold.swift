import CRaceLabSupport
import Foundation
import Synchronization

/// Stress mode: stop one thread at a synchronisation point (a lock, an atomic, any call
/// ThreadSanitizer intercepts) while another thread acts. A checkpoint can only pause a thread
/// in the harness's own code; this pauses it inside the student's, between two of their steps,
/// e.g. between `start()`'s `isCancelled` check and its state change. The point is counted
/// exactly (`race`, or `arm(atHit:at:atMost:)` with `.point`), or it is the hand-over of a result
/// to the main queue (`.handOver`).
///
/// It rides on the stress pass's preemption signal, so outside stress it never holds. Like the
/// preemption, it orders nothing that ThreadSanitizer sees: a race stays a race.
@_spi(LabAuthoring) public enum ThreadHold {
    /// Let the held thread go on.
    public static func release() {
        rl_hold_release()
    }

    /// True while a thread is held (in `race`'s `meanwhile`: the racing thread is).
    public static var isHolding: Bool { rl_hold_is_holding() == 1 }

    /// This thread's id, as `BlockedWatch` takes it.
    public static var currentThread: Int64 { rl_current_thread_id() }

    /// Whether `BlockedWatch` can see a thread wait (Linux, with its facilities); elsewhere it
    /// never says a thread is blocked.
    public static var seesBlockedThreads: Bool { MissingCheck.facilitiesHere }

    /// Polled in a busy wait: true once thread `id` (read at each look: 0 while unknown) waited
    /// in the kernel for something other than time (a lock, a turn; the stress pass's own sleeps
    /// do not count) at every look for `seconds`: it is not just passing through the kernel (TSan's
    /// own locks, a new thread's set-up).
    public struct BlockedWatch {
        private let nanoseconds: Int64
        private var watch = rl_blocked_watch(since: 0)

        public init(for seconds: Double = 0.0003) { nanoseconds = Int64(seconds * 1e9) }

        public mutating func isBlocked(thread id: Int64) -> Bool {
            rl_blocked_watch_look(&watch, id, nanoseconds) == 1
        }
    }
}

extension ThreadHold {
    /// Stress mode: runs `work` on a new thread and stops that thread at one of the first
    /// synchronisation points inside it (a lock, an atomic, a call into Foundation), chosen at
    /// random: it passes up to `maxSkipped` of them first, counted exactly from where `work`
    /// begins. Runs `meanwhile` on this thread while it is held, then lets it go. True if it was
    /// held while `meanwhile` ran; false if `work` ran out of synchronisation points first
    /// (`meanwhile` ran all the same).
    ///
    /// The hold lasts until `meanwhile` is done, up to 50 ms of this thread's own time (what it
    /// waits for a CPU on a busy machine does not count), and ends early once this thread is
    /// seen blocked (most likely on a lock the held thread has): a correct fix is slowed, never
    /// stalled, and a loaded machine that leaves this thread unscheduled for a time slice or
    /// two still finds the other one held.
    @discardableResult
    public static func race(
        _ run: ScenarioRun, skippingUpTo maxSkipped: Int,
        work: @escaping @Sendable () -> Void, meanwhile: () -> Void
    ) -> Bool {
        race(run, skipping: Int(run.random.next(upperBound: UInt64(maxSkipped + 1))), work: work, meanwhile: meanwhile)
    }

    /// `race(_:skippingUpTo:work:meanwhile:)`, passing exactly `skipped` synchronisation points.
    @discardableResult
    public static func race(
        _ run: ScenarioRun, skipping skipped: Int,
        work: @escaping @Sendable () -> Void, meanwhile: () -> Void
    ) -> Bool {
        if run.mode == .stress { MissingCheck.record(.hold) }
        let asker = rl_current_thread_id()
        let round = rl_hold_round()
        // This race's own flag: an earlier racing thread may still be finishing its work. Relaxed,
        // so TSan sees no order in it.
        let done = WorkDone()
        Thread.detachNewThread {
            let armed = rl_hold_arm_self(Int64(skipped), 50_000_000, asker, round) == 1
            work()
            if armed { rl_hold_disarm_self() }
            done.flag.store(true, ordering: .relaxed)
        }
        // Held, or `work` done without a hold, or 2 s of the lab's own time without either.
        var held = false
        var limit = LabDeadline(seconds: 2)
        while !held && !done.flag.load(ordering: .relaxed) && !limit.hasPassed() {
            held = rl_hold_wait_held(1_000_000) == 1
        }
        meanwhile()
        // The race is over: a hold its thread has not reached yet (it started late, on a busy
        // machine) is taken back, and one it arms later is refused. Else it would stop that
        // thread later, at a point no race is about, and the story would wait for it.
        rl_hold_end_round()
        release()
        return held
    }

    /// Where a hold armed with `arm(atHit:at:atMost:)` stops its thread.
    public enum Place: Sendable {
        /// At its (skipped+1)-th synchronisation point from there, counted exactly.
        case point(skipping: Int)
        /// As it sends work to the main queue (`dispatch_async`: its result on its way), after
        /// whatever it checked first; if it starts a thread, or sends a block to another queue,
        /// first (a courier), that thread or block is held so instead.
        case handOver
    }

    /// Stress: the thread whose call to `reached(hit:)` brings hit number `hit` is held at
    /// `place`, for up to `atMost` seconds of this (the arming) thread's own time, or until
    /// `release()`. Wait for it with
    /// `waitUntilHeld`; `cancel()` takes back a hold never reached (the work went another way).
    /// `untilIWait`: a hold at a point also ends once this (the arming) thread is seen blocked,
    /// most likely on a lock the held thread has, as `race` does: a correct fix is slowed, never
    /// stalled.
    public static func arm(atHit hit: Int, at place: Place, atMost: Double, untilIWait: Bool = false) {
        MissingCheck.record(.hold)
        switch place {
        case .point(let skipped): dueSkip.store(skipped, ordering: .relaxed)
        case .handOver: dueSkip.store(-1, ordering: .relaxed)
        }
        dueAsker.store(untilIWait ? Int(rl_current_thread_id()) : 0, ordering: .relaxed)
        dueRound.store(Int(rl_hold_round()), ordering: .relaxed)
        dueLimit.store(Int(atMost * 1e9), ordering: .relaxed)
        dueHit.store(hit, ordering: .relaxed)
    }

    /// Harness code on a lab thread, after a checkpoint hit numbered `hit`: arms the hold if due.
    public static func reached(hit: Int) {
        guard dueHit.load(ordering: .relaxed) == hit,
            dueHit.compareExchange(expected: hit, desired: 0, ordering: .relaxed).exchanged
        else { return }
        let skipped = dueSkip.load(ordering: .relaxed)
        let limit = Int64(dueLimit.load(ordering: .relaxed))
        let asker = Int64(dueAsker.load(ordering: .relaxed))
        let round = Int64(dueRound.load(ordering: .relaxed))
        _ = skipped < 0 ? rl_hold_arm_at_hand_over(limit) : rl_hold_arm_self(Int64(skipped), limit, asker, round)
    }

    /// True once the armed thread is held; false after `timeout` seconds without, or once the
    /// armed thread waits (a pool thread gone idle, a lock) for 1 ms, or is gone.
    public static func waitUntilHeld(timeout: Double) -> Bool {
        rl_hold_wait_held(Int64(timeout * 1e9)) == 1
    }

    /// For a hold armed with `arm(atHit:at:atMost:)` on work the user's action starts: true once
    /// its thread is held, false once the lab went quiet without (the work took another way, or
    /// ran out of synchronisation points). The cap is for a lab that never settles.
    public static func waitUntilHeldOrQuiet(_ run: ScenarioRun, cap: Double = 5) -> Bool {
        var held = false
        _ = run.waitUntil(timeout: cap) {
            held = waitUntilHeld(timeout: 0.002)
            return held || LabQuiet.now
        }
        return held
    }

    /// Takes back a hold armed but not reached (a self-hold armed after this is refused).
    public static func cancel() {
        dueHit.store(0, ordering: .relaxed)
        rl_hold_end_round()
    }

    private static let dueHit = Atomic<Int>(0)
    private static let dueSkip = Atomic<Int>(0)  // -1: at the hand-over
    private static let dueLimit = Atomic<Int>(0)
    private static let dueRound = Atomic<Int>(0)
    private static let dueAsker = Atomic<Int>(0)  // 0: none

    private final class WorkDone: Sendable {
        let flag = Atomic<Bool>(false)
    }
}
