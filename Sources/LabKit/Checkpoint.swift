import CRaceLabSupport
import Foundation

/// Named points in the harness's slow work where a lab's bug window is open.
///
/// Scripted mode: the driver can pause the thread that reaches a checkpoint until it has done
/// its next user action, so the bad interleaving happens every time. Stress mode: each hit
/// sleeps a delay derived from the seed, the checkpoint's name and the hit number.
///
/// None of this is synchronisation as far as ThreadSanitizer can tell (see CRaceLabSupport),
/// so a race in the lab is still reported as a race.
public enum Checkpoint {
    /// The longest a paused thread waits for the driver before going on by itself. Like every
    /// pause limit, on the main thread's own time: time it spends waiting for a CPU on a busy
    /// machine does not count, so load never ends a pause before the story could act.
    static let pauseLimitNanoseconds: Int64 = 5_000_000_000

    /// Record that the current thread reached `name`; may pause or delay (see type comment).
    @_spi(LabAuthoring) @discardableResult
    public static func hit(_ name: StaticString) -> Int {
        let pointer = UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
        return Int(rl_checkpoint_hit(pointer, Thread.isMainThread ? 1 : 0, pauseLimitNanoseconds))
    }

    /// `hit(_:)`, but a scripted pause holds this thread for at most `pauseLimit` seconds of the
    /// main thread's own time: for a checkpoint where a correct variant keeps the driver busy (a
    /// `start()` that waits for the very thread that is held), so the pause ends by itself
    /// instead of stalling the run.
    /// (A separate function, not a default argument: even a few more instructions in `hit(_:)`
    /// change which of two racing reads TSan keeps, and so the report other labs show.)
    @_spi(LabAuthoring) @discardableResult
    public static func hit(_ name: StaticString, pauseLimit: Double) -> Int {
        let pointer = UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
        let limit = min(Int64(pauseLimit * 1e9), pauseLimitNanoseconds)
        return Int(rl_checkpoint_hit(pointer, Thread.isMainThread ? 1 : 0, limit))
    }

    /// How many times `name` was reached since the iteration began.
    @_spi(LabAuthoring) public static func hits(_ name: StaticString) -> Int {
        Int(rl_checkpoint_hits(UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)))
    }

    static func reset() { rl_checkpoint_reset() }

    /// Stress mode: seeded delays of up to `maxMicroseconds` at every hit (0 turns them off).
    static func setJitter(seed: UInt64, maxMicroseconds: Int) {
        rl_checkpoint_set_jitter(seed, Int64(maxMicroseconds))
    }

    /// Exploration: the `hit`-th arrival at any checkpoint off the main thread, from now, pauses
    /// for at most `limit` seconds (unless released sooner).
    static func armAny(hit: Int, limit: Double, storyReleases: Bool) {
        rl_checkpoint_arm_any(Int64(hit), Int64(limit * 1e9), storyReleases ? 1 : 0)
    }

    /// Arrivals at any checkpoint off the main thread since the iteration began.
    static var workerHits: Int { Int(rl_checkpoint_worker_hits()) }

    /// Stress mode: `permille` of the worker hits are held for up to `maxMicroseconds`.
    static func setHolds(permille: Int, maxMicroseconds: Int) {
        rl_checkpoint_set_holds(Int64(permille), Int64(maxMicroseconds))
    }

    static func arm(_ name: StaticString, hit: Int) {
        rl_checkpoint_arm(UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self), Int64(hit))
    }

    static var armedReached: Bool { rl_checkpoint_armed_reached() != 0 }

    static func release() { rl_checkpoint_release() }

    /// Total hits in this process: the watchdog's progress counter.
    @_spi(LabAuthoring) public static var activity: Int64 { rl_checkpoint_activity() }

    /// Seconds since the last hit, or nil if there was none this iteration.
    static var secondsSinceLastHit: Double? {
        let last = rl_checkpoint_last_activity_ns()
        guard last != 0 else { return nil }
        return Double(rl_monotonic_ns() - last) / 1e9
    }

    /// Where every thread that ever hit a checkpoint was last seen.
    @_spi(LabAuthoring) public static func threadPositions() -> [ThreadPosition] {
        var buffer = [rl_thread_position](repeating: rl_thread_position(), count: 256)
        let count = Int(rl_thread_positions(&buffer, Int32(buffer.count)))
        let now = rl_monotonic_ns()
        return buffer.prefix(count).map {
            ThreadPosition(
                threadID: $0.thread_id,
                isMainThread: $0.is_main_thread != 0,
                checkpoint: $0.checkpoint.map { String(cString: $0) } ?? "?",
                hit: Int($0.hits),
                secondsAgo: Double(now - $0.at_ns) / 1e9
            )
        }
    }
}

/// Where one thread was last seen: reported when a child hangs.
public struct ThreadPosition: Codable, Sendable, Equatable {
    public let threadID: Int64
    public let isMainThread: Bool
    public let checkpoint: String
    public let hit: Int
    public let secondsAgo: Double
}
