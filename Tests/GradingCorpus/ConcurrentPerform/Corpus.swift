import LabKit
import ConcurrentPerform

/// concurrent-perform's grading corpus: each fix's file is named after its variant.
public let concurrentPerformCorpus = LabSolutions(ConcurrentPerformLab.self, [
    LabVariant(.validFix, name: "valid-lock-the-add") { ConcurrentPerformValidLockTheAdd(screen: $0) },
    LabVariant(.validFix, name: "valid-atomic") { ConcurrentPerformValidAtomic(screen: $0) },
    LabVariant(.validFix, name: "valid-chunks-serial-queue") { ConcurrentPerformValidChunksSerialQueue(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-write-only") { ConcurrentPerformWrongLockWriteOnly(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-queue-writes-unsynced-read") { ConcurrentPerformWrongQueueWritesUnsyncedRead(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-locked-property") { ConcurrentPerformWrongLockedProperty(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-compound-assignment") { ConcurrentPerformWrongCompoundAssignment(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-array-slots") { ConcurrentPerformWrongArraySlots(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-total-shared-across-measurements") { ConcurrentPerformWrongTotalSharedAcrossMeasurements(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-atomic-load-then-store") { ConcurrentPerformWrongAtomicLoadThenStore(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-block-keeps-screen") { ConcurrentPerformWrongBlockKeepsScreen(screen: $0) },
])
