extension TSanExplainer {
    /// What a kind of report means, in plain words (nil: RaceLab has no words for it): a switch,
    /// so that no kind can go without its text; the texts are `KindDescriptions`'s.
    static func whatItIs(_ report: TSanReport) -> String? {
        switch report.kind {
        case .dataRace: KindDescriptions.dataRace
        case .swiftAccessRace: KindDescriptions.swiftAccessRace
        case .externalRace: KindDescriptions.externalRace(title: report.title)
        case .vptrRace: KindDescriptions.vptrRace
        case .heapUseAfterFree: KindDescriptions.heapUseAfterFree
        case .vptrUseAfterFree: KindDescriptions.vptrUseAfterFree
        case .lockOrderInversion: KindDescriptions.lockOrderInversion
        case .threadLeak: KindDescriptions.threadLeak
        case .mutexDestroyLocked: KindDescriptions.mutexDestroyLocked
        case .mutexDoubleLock: KindDescriptions.mutexDoubleLock
        case .mutexBadUnlock: KindDescriptions.mutexBadUnlock
        case .mutexBadReadLock: KindDescriptions.mutexBadReadLock
        case .mutexBadReadUnlock: KindDescriptions.mutexBadReadUnlock
        case .mutexInvalidAccess: KindDescriptions.mutexInvalidAccess
        case .mutexHeldWrongContext: KindDescriptions.mutexHeldWrongContext
        case .signalUnsafeCall: KindDescriptions.signalUnsafeCall
        case .signalSpoilsErrno: KindDescriptions.signalSpoilsErrno
        case .ignoresNotEnded: KindDescriptions.ignoresNotEnded
        case .other: nil
        }
    }
}

/// The "What it is" text of each kind of report (`TSanExplainer.whatItIs`), by family.
enum KindDescriptions {
    // Two threads' uses of the same memory, in no order.
    static let dataRace = """
        What it is: a data race. Two threads used the same memory, at least one of them \
        wrote it, and nothing put the two uses in order. What a thread then sees depends \
        on timing: the old value, the new one, or a half-written mix.
        """
    static let swiftAccessRace = """
        What it is: Swift's exclusivity rule says that while code is modifying a variable \
        (an append, a += 1, a mutating method), no other code may use that variable. Two \
        threads broke that rule: they used the same variable at the same time, and nothing \
        put them in order. That is a data race that Swift itself checks for.
        """
    /// The object's type is the report's title after "race on " ("race on Cache").
    static func externalRace(title: String) -> String {
        let type = title.hasPrefix("race on ") ? String(title.dropFirst("race on ".count)) : "external object"
        return """
            What it is: a data race on an object of a library that describes its objects to \
            TSan itself (here: "\(type)"). Two threads used the same \(type) at the same time, \
            at least one of them changing it, and nothing put them in order. The library's \
            rule is like Swift's exclusivity rule: while one thread changes the object, no \
            other may use it.
            """
    }
    static let vptrRace = """
        What it is: a data race on a C++ object's hidden pointer to its virtual functions \
        (the vptr). A constructor or destructor rewrites that pointer as it runs, and \
        another thread called a virtual function of the object at the same time. The call \
        may run the wrong class's version, or a pure virtual one, and crash: the object \
        was still being built, or was already being destroyed.
        """

    // Memory used after it was freed.
    static let heapUseAfterFree = """
        What it is: one thread gave memory back (freed it), and afterwards a thread still \
        used it. Freed memory can be handed out again for something else, so a read sees \
        garbage and a write damages some other object.
        """
    static let vptrUseAfterFree = """
        What it is: a thread called a virtual function on a C++ object that another thread \
        had already deleted. The call reads the object's hidden pointer to its virtual \
        functions (the vptr) from freed memory, and may jump anywhere.
        """

    // Locks taken in orders that can hang, and threads left running.
    static let lockOrderInversion = """
        What it is: a possible deadlock. The same locks were taken in opposite orders. If \
        two threads each take their first lock at the same moment, each then waits forever \
        for the lock the other holds. It did not have to hang in this run to be a real \
        risk: TSan reports the order itself.
        """
    static let threadLeak = """
        What it is: a thread was started and nobody joined it (waited for it to end, with \
        pthread_join) or detached it (declared that nobody will wait). Its stack and \
        bookkeeping stay allocated until the program ends, and nobody knows when its work \
        is done.
        """

    // One lock used wrongly.
    static let mutexDestroyLocked = """
        What it is: a mutex was destroyed (pthread_mutex_destroy, or the memory holding it \
        freed) while it was still locked. The thread holding it will later unlock a lock \
        that no longer exists, and a thread waiting for it may wait forever or crash. Most \
        often a path out of a function forgot to unlock.
        """
    static let mutexDoubleLock = """
        What it is: a thread locked a mutex that TSan knew to be locked by another thread, \
        and the lock call still went through. A working lock cannot do that, so the mutex \
        was not what it seemed: it was overwritten or re-initialised while held (memset, a \
        second pthread_mutex_init, a copy of the struct holding it), or a thread ended \
        still holding it.
        """
    static let mutexBadUnlock = """
        What it is: a thread unlocked a mutex that was not locked, or that another thread \
        had locked. POSIX leaves this undefined: the lock may stop keeping anyone out, or \
        the program may crash or hang.
        """
    static let mutexBadReadLock = """
        What it is: a thread took a reader-writer lock for reading while it was locked for \
        writing. A writer must be alone: this reader can see the data half-changed. The \
        lock was overwritten or re-initialised while held, or (a lock written by hand) it \
        lets readers in while a writer is inside.
        """
    static let mutexBadReadUnlock = """
        What it is: a thread released a reader-writer lock as a reader while it was held \
        for writing. The unlock does not match the lock: a hand-written lock tells TSan (or \
        does) the wrong kind of unlock, or a thread unlocks a lock it never read-locked.
        """
    static let mutexInvalidAccess = """
        What it is: a thread locked or unlocked a mutex that was destroyed, or never \
        initialised. The call failed (EINVAL), so the lock kept nobody out: the code it \
        was meant to protect ran unprotected.
        """
    static let mutexHeldWrongContext = """
        What it is: the program asked TSan to check that no lock is held at this point \
        (__tsan_check_no_mutexes_held(), placed where code may block, sleep or call out to \
        code it does not know), and a lock was held. Code that waits or calls out while \
        holding a lock can deadlock, or block every other thread that needs the lock.
        """

    // Signal handlers, and TSan told to look away.
    static let signalUnsafeCall = """
        What it is: a signal handler called a function that is not async-signal-safe \
        (malloc, free, printf, most of the C library, and any Swift or Foundation code). A \
        signal can arrive while the thread is inside that same function, in the middle of \
        malloc for example; the handler then corrupts its state or deadlocks on its lock.
        """
    static let signalSpoilsErrno = """
        What it is: a signal handler changed errno and did not put it back. A signal can \
        arrive between a call that fails and the code that reads errno, which then sees \
        the handler's error instead of its own.
        """
    static let ignoresNotEnded = """
        What it is: code can tell TSan to ignore a thread's memory accesses or \
        synchronisation for a while (AnnotateIgnoreReadsBegin, AnnotateIgnoreWritesBegin, \
        AnnotateIgnoreSyncBegin, __tsan_ignore_thread_begin), and must end that (the \
        matching ...End) before the thread finishes. A thread finished with an ignore \
        still on, so TSan stopped the program. Everything that thread did after the \
        "begin" went unchecked.
        """
}
