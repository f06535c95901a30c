import CRaceLabSupport
import Synchronization

/// A wait of the story's own, with a time limit, while the story holds a lab thread (at a
/// scripted pause, or with `ThreadHold`): the lab makes no progress then because the story
/// stopped it, and the story will go on by itself once its limit is reached. The heartbeat says
/// so, and the watchdog does not count that time, up to the wait's limit: only the lab's own code
/// is ever judged hung, never a story that is waiting, on a busy machine, for a thread it holds.
/// (A wait with no thread held is not excused: the lab itself must then make progress. Nor is
/// one whose loop has stopped looking: the main thread is then stuck in lab code it ran, a
/// block from its queue, and that is the lab's hang.)
@_spi(LabAuthoring) public enum StoryWait {
    // Relaxed: read by the heartbeat's thread only to report; they order nothing TSan sees.
    /// The wait under way: its number (waits begun so far) above 24 bits, its limit in
    /// milliseconds below; 0: none. One word, so a report never pairs one wait with another's limit.
    private static let current = Atomic<Int>(0)
    private static let begun = Atomic<Int>(0)
    /// Looks the waits' loops have taken, and the count the heartbeat last saw.
    private static let looks = Atomic<Int>(0)
    private static let looksReported = Atomic<Int>(0)
    private static let limitBits = 24

    /// Runs `body`, a wait of at most `seconds` of the lab's own time, as the story's wait; its
    /// loop calls `looked()` at each look.
    static func bounded<T>(seconds: Double, _ body: () -> T) -> T {
        let outer = current.load(ordering: .relaxed)
        let number = begun.add(1, ordering: .relaxed).newValue
        let milliseconds = seconds.isFinite ? Int(min(max(seconds, 0), 3600) * 1000) : 3_600_000
        current.store(number << limitBits | min(milliseconds, 1 << limitBits - 1), ordering: .relaxed)
        // Timed for the profile only when outermost: a wait inside another is that one's time.
        let mark = outer == 0 ? rl_spent_wait_began() : nil
        rl_jobs_story_waits(1)  // the async pass chooses jobs only while the story waits
        defer {
            rl_jobs_story_waits(-1)
            current.store(outer, ordering: .relaxed)
            if let mark { rl_spent_wait_ended(mark) }
        }
        return body()
    }

    /// A wait's loop took one more look.
    static func looked() { looks.add(1, ordering: .relaxed) }

    /// For the heartbeat (its one caller): the story's wait under way while it holds a lab
    /// thread and its loop still looks (a new wait: a new number, and its limit in seconds of
    /// the lab's own time); nil otherwise.
    public static var whileHolding: (number: Int, seconds: Double)? {
        let seen = looks.load(ordering: .relaxed)
        let looking = looksReported.exchange(seen, ordering: .relaxed) != seen
        let word = current.load(ordering: .relaxed)
        guard word != 0, looking, Checkpoint.armedReached || ThreadHold.isHolding else { return nil }
        return (word >> limitBits, Double(word & (1 << limitBits - 1)) / 1000)
    }
}
