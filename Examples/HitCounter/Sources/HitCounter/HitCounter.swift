import Foundation

/// Counts visits per page, from any thread: one lock, and every read-modify-write of a count
/// done whole under it.
public final class HitCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    public init() {}

    public func record(_ page: String) {
        lock.withLock { counts[page, default: 0] += 1 }  // FIX: read, add and write in one turn of the lock
    }

    public func hits(_ page: String) -> Int { lock.withLock { counts[page] ?? 0 } }
}

/// The first version: every access is under the lock, so ThreadSanitizer has nothing to
/// report, yet a visit can be lost. Between reading a count and writing it back the lock is
/// let go, and another thread's visit written in that gap is overwritten.
public final class LossyHitCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    public init() {}

    public func record(_ page: String) {
        let seen = lock.withLock { counts[page] ?? 0 }
        lock.withLock { counts[page] = seen + 1 }  // BUG: another visit may have been written since the read
    }

    public func hits(_ page: String) -> Int { lock.withLock { counts[page] ?? 0 } }
}
