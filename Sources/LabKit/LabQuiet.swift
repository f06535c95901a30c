import CRaceLabSupport

/// Whether the lab still has work in hand, asked of its threads and queues (Quiescence.c): no
/// block waits for the main queue or a delay, and every thread it started (a pool thread while it
/// runs a block) has ended or waits, with no time limit, for something only the lab can give it. No clock is involved, so the
/// answer does not depend on how busy the machine is. An operation Foundation forgot to start
/// (`OperationWakeups`) is woken before quiet is said.
public enum LabQuiet {
    /// Quiet right now.
    public static var now: Bool { busyOrNil == nil }

    /// One look: nil when quiet; otherwise what is busy, as `rl_quiet_look` says it (a thread id,
    /// or a negative code for work not yet begun).
    public static var busyOrNil: Int64? {
        var busy: Int64 = 0
        MissingCheck.record(.quietFromKernel)
        let quiet = rl_quiet_look(&busy, 0) == 1 && !OperationWakeups.wakeForgotten()
        return quiet ? nil : busy
    }

    /// Every thread of the lab has ended or waits for the lab (work waiting for the main queue
    /// left out: for a main thread that is busy on purpose, and so does not run it).
    public static var threadsNow: Bool {
        var busy: Int64 = 0
        MissingCheck.record(.quietFromKernel)
        return rl_quiet_look(&busy, RL_QUIET_THREADS_ONLY) == 1 && !OperationWakeups.wakeForgotten()
    }

    /// Quiet but for a thread the harness holds (`ThreadHold`): what the other threads do while
    /// it is held has ended, or waits for it (a lock it has).
    public static var butForHeldThreadNow: Bool {
        var busy: Int64 = 0
        MissingCheck.record(.quietFromKernel)
        return rl_quiet_look(&busy, RL_QUIET_BUT_HELD) == 1
    }

    /// What is not quiet, in words ("thread 1234 is running", "3 blocks sent to queues have not
    /// run to their end").
    public static var busyNow: String {
        var busy: Int64 = 0
        guard rl_quiet_look(&busy, 0) == 0 else { return "it is quiet now" }
        switch busy {
        case -1:
            return
                "\(rl_quiet_queued_work()) block(s) sent to the main queue, to a queue that waits for Dispatch's pool, "
                + "or after a delay had not begun"
        case -2: return "a thread was being started"
        case -3: return "a thread held a controller until the user's next action"
        case -4: return "a checkpoint was hit in the last 300 ms (this system cannot say what a thread waits for)"
        default: return "thread \(busy) was still running, or waiting for a time to pass"
        }
    }
}

/// Quiet is believed when two looks in a row see it: work the main thread ran between them
/// (a block from its queue) may have started more.
struct QuietLooks {
    private var inARow = 0

    /// One more look; true once it and the one before it were quiet.
    mutating func agree(_ quiet: Bool) -> Bool {
        inARow = quiet ? inARow + 1 : 0
        return agreed
    }

    /// The last two looks were quiet.
    var agreed: Bool { inARow >= 2 }
    /// The last look was quiet (worth looking again at once).
    var lastWasQuiet: Bool { inARow > 0 }
}
