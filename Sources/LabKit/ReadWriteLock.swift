import Foundation

/// A read-write lock for exercises: many readers at once, or one writer alone. POSIX's
/// `pthread_rwlock_t` must stay at one address and is used through pointers, which an exercise
/// may not touch (exercises are memory-safe Swift); this class keeps the lock in memory of its
/// own and hands out only the two scoped operations. ThreadSanitizer sees it as the rwlock it is.
public final class ReadWriteLock: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    public init() {
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` holding the lock for reading: other readers may run at the same time.
    public func withReadLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` holding the lock for writing: no reader or other writer runs meanwhile.
    public func withWriteLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
