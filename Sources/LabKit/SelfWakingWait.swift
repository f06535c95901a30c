/// How a wait for the lab to go quiet ended (`ScenarioRun.waitUntilDoneQuietOrSelfWaking`).
public enum QuietWaitEnd: Equatable, Sendable {
    /// What the story waited for happened.
    case done
    /// The lab went quiet without it: nothing left can make it happen by itself.
    case quiet
    /// The lab never went quiet, and the thread that kept it busy got a CPU again and again, or
    /// ran on, with nothing sent to it: it wakes itself (a sleep, a timed wait, a poll) or never
    /// waits (a spin). `turns` is how many times it got a CPU while the story waited; nil where
    /// the kernel does not say (then the patience alone decided, a clock's guess).
    case wakesItself(thread: Int64, turns: Int?)
    /// Still busy at the cap, with no thread seen waking itself: the lab hangs (a thread stuck in
    /// a long call, say). Said as a hang, never as a wrong answer about waking.
    case stillBusy(String)
}

extension ScenarioRun {
    /// Wait until `condition` holds or the lab is quiet, as `waitUntilDoneOrQuiet`; and tell a
    /// lab that is never quiet because a thread of its own keeps waking up from one that is only
    /// slow to get there. No clock judges that: a thread that waits for the lab gets no CPU
    /// until the lab gives it something, so on a busy machine it is late, never awake; one that
    /// sleeps or waits with a time limit gets a CPU turn after turn by itself, and one that spins
    /// runs on. The end is `wakesItself` only once `patience` (the lab's own time) has passed
    /// *and* the thread seen busy has, since it was first seen, had `turns` CPU turns or run
    /// `cpuSeconds` on a CPU; `stillBusy` at `cap`.
    public func waitUntilDoneQuietOrSelfWaking(
        patience: Double, turns: Int = 20, cpuSeconds: Double = 0.25, cap: Double = 30,
        _ condition: () -> Bool
    ) -> QuietWaitEnd {
        var patienceLeft = LabDeadline(seconds: patience)
        var firstSeen: [Int64: ThreadTimes] = [:]  // a busy thread, first seen busy
        var looks = QuietLooks()
        var end: QuietWaitEnd?
        waitUntil(timeout: cap) {
            if condition() {
                end = .done
                return true
            }
            let busy = LabQuiet.busyOrNil
            if looks.agree(busy == nil) { end = .quiet }
            guard let busy else { return end != nil }
            guard busy > 0 else { return false }  // work not begun yet: not a thread's doing
            // Its CPU turns and time (nil: ended since the look, or not known here).
            let now = ThreadTimes(thread: busy)
            if let now, firstSeen[busy] == nil { firstSeen[busy] = now }
            guard patienceLeft.hasPassed() else { return false }
            guard MissingCheck.facilitiesHere else {
                end = .wakesItself(thread: busy, turns: nil)
                return true
            }
            if let now, let first = firstSeen[busy],
                now.turns - first.turns >= turns || now.ran - first.ran >= cpuSeconds
            {
                end = .wakesItself(thread: busy, turns: now.turns - first.turns)
            }
            return end != nil
        }
        if let end { return end }
        if condition() { return .done }
        return .stillBusy(
            "the app was still busy after \(Int(cap)) s of its own time, and no thread of it kept waking itself: \(LabQuiet.busyNow)"
        )
    }
}
