extension TSanReport {
    /// Every kind of report this toolchain's ThreadSanitizer prints (its `ReportType`s, from the
    /// runtime's own strings), plus the "finished with ignores enabled" message, which TSan
    /// prints without a WARNING line just before it ends the process.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case dataRace = "data race"
        case vptrRace = "data race on vptr"
        case swiftAccessRace = "Swift access race"
        /// A library's own object type told to TSan ("race on Cache", "race on external object").
        case externalRace = "race on an annotated object"
        case heapUseAfterFree = "heap-use-after-free"
        case vptrUseAfterFree = "heap-use-after-free (virtual call)"
        case lockOrderInversion = "lock-order inversion"
        case threadLeak = "thread leak"
        case mutexDestroyLocked = "destroy of a locked mutex"
        case mutexDoubleLock = "double lock of a mutex"
        case mutexBadUnlock = "unlock of an unlocked mutex"
        case mutexBadReadLock = "read lock of a write-locked mutex"
        case mutexBadReadUnlock = "read unlock of a write-locked mutex"
        case mutexInvalidAccess = "use of an invalid mutex"
        case mutexHeldWrongContext = "mutex held in the wrong context"
        case signalUnsafeCall = "signal-unsafe call in a signal handler"
        case signalSpoilsErrno = "signal handler spoils errno"
        case ignoresNotEnded = "thread finished with ignores enabled"
        case other

        /// The kind of a report from its title (the text after "WARNING: ThreadSanitizer: ").
        /// Order matters: "data race on vptr" before "data race".
        public init(title: String) {
            let prefixes: [(String, Kind)] = [
                ("data race on vptr", .vptrRace), ("data race", .dataRace),
                ("Swift access race", .swiftAccessRace), ("race on ", .externalRace),
                ("heap-use-after-free (virtual call", .vptrUseAfterFree), ("heap-use-after-free", .heapUseAfterFree),
                ("lock-order-inversion", .lockOrderInversion), ("thread leak", .threadLeak),
                ("destroy of a locked mutex", .mutexDestroyLocked), ("double lock of a mutex", .mutexDoubleLock),
                ("unlock of an unlocked mutex", .mutexBadUnlock),
                ("read lock of a write locked mutex", .mutexBadReadLock),
                ("read unlock of a write locked mutex", .mutexBadReadUnlock),
                ("use of an invalid mutex", .mutexInvalidAccess),
                ("mutex held in the wrong context", .mutexHeldWrongContext),
                ("signal-unsafe call inside of a signal", .signalUnsafeCall),
                ("signal handler spoils errno", .signalSpoilsErrno),
                ("thread finished with ignores enabled", .ignoresNotEnded)
            ]
            self = prefixes.first { title.hasPrefix($0.0) }?.1 ?? .other
        }

        /// Kinds about one lock used wrongly (not about two threads' accesses).
        public var isMutexMisuse: Bool {
            [
                .mutexDestroyLocked, .mutexDoubleLock, .mutexBadUnlock, .mutexBadReadLock, .mutexBadReadUnlock,
                .mutexInvalidAccess, .mutexHeldWrongContext
            ].contains(self)
        }

        /// Kinds about two accesses to the same memory.
        public var isRace: Bool {
            [.dataRace, .vptrRace, .swiftAccessRace, .externalRace].contains(self)
        }
    }

    /// The name of the report's kind for a reader: "data race", or TSan's own title, exactly as
    /// it printed it, for a kind RaceLab does not know, a race on a library's object ("race on
    /// Cache") and the two vptr kinds ("data race on vptr (ctor/dtor vs virtual call)").
    public var kindName: String {
        [.other, .externalRace, .vptrRace, .vptrUseAfterFree].contains(kind) && !title.isEmpty ? title : kind.rawValue
    }
}
