import LabKit
import ReaderWriter

/// reader-writer's grading corpus: each fix's file is named after its variant.
public let readerWriterCorpus = LabSolutions(ReaderWriterLab.self, [
    LabVariant(.validFix, name: "valid-serial-queue") { ReaderWriterValidSerialQueue(environment: $0) },
    LabVariant(.validFix, name: "valid-rwlock") { ReaderWriterValidRWLock(environment: $0) },
    LabVariant(.validFix, name: "valid-mutex-name") { ReaderWriterValidMutexName(environment: $0) },
    LabVariant(.validFix, name: "valid-work-item-barrier") { ReaderWriterValidWorkItemBarrier(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-writes-only") { ReaderWriterWrongLockWritesOnly(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-barrier-reads") { ReaderWriterWrongBarrierReads(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-writer-queue-only") { ReaderWriterWrongWriterQueueOnly(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-each-field-locked") { ReaderWriterWrongEachFieldLocked(environment: $0) },
])
