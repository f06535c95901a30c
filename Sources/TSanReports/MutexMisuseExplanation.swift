/// One lock used wrongly: destroyed while locked, locked twice, unlocked when not locked,
/// read-locked or read-unlocked while write-locked, used when invalid, held where no lock
/// may be. TSan gives where it happened, sometimes where the lock was taken, and the lock.
extension TSanExplainer.Writer {
    mutating func explainMutexMisuse(_ report: TSanReport) {
        let stacks = report.stacks ?? []
        let heading: String
        switch report.kind {
        case .mutexDestroyLocked: heading = "Where it was destroyed:"
        case .mutexDoubleLock: heading = "Where it was locked again:"
        case .mutexBadUnlock: heading = "Where it was unlocked:"
        case .mutexBadReadLock: heading = "Where it was locked for reading:"
        case .mutexBadReadUnlock: heading = "Where it was unlocked as a reader:"
        case .mutexInvalidAccess: heading = "Where it was used:"
        default: heading = "Where a lock was still held, though none may be:"
        }
        say(heading)
        if let first = stacks.first { whereAbouts(first, indent: 2) } else { say("(no stack in the log)", indent: 2) }
        for stack in stacks.dropFirst() {
            say(report.kind == .mutexDestroyLocked ? "It was locked here, and not unlocked before that:" : "And here:")
            whereAbouts(stack, indent: 2)
        }
        for mutex in report.mutexes ?? [] {
            blank()
            say(lockDescription(mutex, in: report))
            if !mutex.frames.isEmpty { whereAbouts(mutex.frames, indent: 2) }
            callChain(report.locationFrames, indent: 2, title: "where its memory was allocated, innermost first:")
        }
        cures(Self.mutexCures(report.kind))
    }

    /// "The lock: M0, the global variable stats_lock. TSan first saw it locked here:".
    func lockDescription(_ mutex: TSanReport.Access, in report: TSanReport) -> String {
        var text = "The lock: \(mutex.mutex ?? "a mutex")"
        if let location = report.location {
            if let global = Self.globalName(location) {
                text += ", the global variable \(SwiftDemangler.demangle(global))"
            } else if location.hasPrefix("heap block"), let size = Self.number(after: " of size ", in: location),
                let owner = TSanReportParser.threadName(in: location, after: "allocated by ")
            {
                text += ", inside a block of \(size) bytes on the heap allocated by \(Explainer.who(owner))"
                if let frame = report.locationFrames.first(where: \.isUserCode) { text += " " + Explainer.place(frame) }
            }
        }
        let top = mutex.frames.first?.function ?? ""
        if mutex.frames.isEmpty {
            return text + ". Where it was made is not known (TSan could no longer restore that stack)."
        }
        // A lock set up statically (PTHREAD_MUTEX_INITIALIZER) is "created" where TSan first met it.
        if top.contains("_lock") || top.contains("rdlock") || top.contains("wrlock") {
            return text + ". TSan first met it when it was locked here:"
        }
        return text + ". It was made here:"
    }

    /// Cures that more than one kind of misuse shares.
    private static let unlockEveryPath =
        "Unlock on every path out of a function. Swift: lock.withLock { ... }, or defer { lock.unlock() } "
        + "right after lock(). C: one exit with a cleanup label (goto out), and check every early return."
    private static let testedLock =
        "Prefer a tested lock: pthread_rwlock_t in C; in Swift a concurrent DispatchQueue with .barrier writes, "
        + "or one lock (NSLock, Mutex) for readers and writers alike."

    static func mutexCures(_ kind: TSanReport.Kind) -> [String] {
        switch kind {
        case .mutexDestroyLocked:
            return [
                unlockEveryPath,
                "Destroy a lock (or free what holds it, or let its object go) only after every thread that uses it is done: join them first."
            ]
        case .mutexDoubleLock:
            return [
                "Never overwrite a mutex that may be held: no memset, no second pthread_mutex_init, no copy of the struct holding it. "
                    + "Initialise it once, destroy it once.",
                unlockEveryPath + " A thread that ends while holding a lock leaves it locked for good.",
                "If one thread really must take the same lock again, use a recursive lock (PTHREAD_MUTEX_RECURSIVE, NSRecursiveLock), "
                    + "or better, restructure so that it does not.",
                "In Swift, keep a lock inside a class (NSLock, Mutex), never in a struct that gets copied."
            ]
        case .mutexBadUnlock:
            return [
                "Pair each unlock with a lock in the same function and thread: in Swift lock.withLock { ... } (or lock() then "
                    + "defer { unlock() }); in C, lock and unlock in one function.",
                "Do not unlock \"to be safe\" on an error or reset path that never locked.",
                "Only the thread that locked a mutex may unlock it. To signal another thread, use a semaphore "
                    + "(DispatchSemaphore, sem_t) or a condition variable."
            ]
        case .mutexBadReadLock:
            return [
                "Release the write lock on every path before readers come (pthread_rwlock_unlock), and never re-initialise "
                    + "(pthread_rwlock_init) a lock that may be held.",
                "In a lock you wrote yourself: readers must wait while a writer holds it, and its TSan annotations "
                    + "(__tsan_mutex_pre_lock / __tsan_mutex_post_lock, __tsan_mutex_read_lock) must say what the code does.",
                testedLock
            ]
        case .mutexBadReadUnlock:
            return [
                "Unlock in the mode you locked: a writer's unlock after a write lock, a reader's after a read lock. In a "
                    + "hand-written lock, pass __tsan_mutex_read_lock to __tsan_mutex_pre_unlock / __tsan_mutex_post_unlock "
                    + "only when a reader unlocks.",
                testedLock
            ]
        case .mutexInvalidAccess:
            return [
                "Initialise a mutex before any thread can use it (pthread_mutex_init, or PTHREAD_MUTEX_INITIALIZER), and "
                    + "destroy it only after every thread is done with it (join them first).",
                "Check what pthread_mutex_lock returns: an error (EINVAL) means the lock was not taken.",
                "In Swift, let a class own the lock (NSLock, Mutex): it lives exactly as long as the object."
            ]
        default:
            return [
                "Leave the lock before this point: copy what you need while holding it, unlock, then call out "
                    + "(the callback, the blocking call).",
                "Do not call callbacks, delegates or completion handlers, or wait for anything, while holding a lock.",
                "Keep the check (__tsan_check_no_mutexes_held) where it is: it found a real risk."
            ]
        }
    }
}
