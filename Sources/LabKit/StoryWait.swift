import Synchronization

/// A wait of the story's own, with a time limit, while the story holds a lab thread (at a
/// scripted pause, or with `ThreadHold`): the lab makes no progress then because the story
/// stopped it, and the story will go on by itself once its limit is reached. The heartbeat says
/// so, and the watchdog does not count that time, up to the wait's limit: only the lab's own code
/// is ever judged hung, never a story that is waiting, on a busy machine, for a thread it holds.
/// (A wait with no thread held is not excused: the lab itself must then make progress.)
@_spi(LabAuthoring) public enum StoryWait {
    // Relaxed: read by the heartbeat's thread only to report; they order nothing TSan sees.
    private static let begun = Atomic<Int>(0)
    private static let current = Atomic<Int>(0)
    private static let limitMilliseconds = Atomic<Int>(0)

    /// Runs `body`, a wait of at most `seconds` of the lab's own time, as the story's wait.
    static func bounded<T>(seconds: Double, _ body: () -> T) -> T {
        let outer = (current.load(ordering: .relaxed), limitMilliseconds.load(ordering: .relaxed))
        let number = begun.add(1, ordering: .relaxed).newValue
        limitMilliseconds.store(Int(seconds * 1000), ordering: .relaxed)
        current.store(number, ordering: .relaxed)
        defer {
            current.store(outer.0, ordering: .relaxed)
            limitMilliseconds.store(outer.1, ordering: .relaxed)
        }
        return body()
    }

    /// The story's wait under way while it holds a lab thread (a new wait: a new number, and its
    /// limit in seconds of the lab's own time); nil otherwise.
    public static var whileHolding: (number: Int, seconds: Double)? {
        let number = current.load(ordering: .relaxed)
        guard number != 0, Checkpoint.armedReached || ThreadHold.isHolding else { return nil }
        return (number, Double(limitMilliseconds.load(ordering: .relaxed)) / 1000)
    }
}
