import LabKit
import TooManyThreads

/// too-many-threads' grading corpus: each fix's file is named after its variant.
public let tooManyThreadsCorpus = LabSolutions(TooManyThreadsLab.self, [
    LabVariant(.validFix, name: "valid-serial-dispatch-queue") { TooManyThreadsValidSerialDispatchQueue(environment: $0) },
    LabVariant(.validFix, name: "valid-semaphore-threads") { TooManyThreadsValidSemaphoreThreads(environment: $0) },
    LabVariant(.validFix, name: "valid-one-worker") { TooManyThreadsValidOneWorker(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-queue-no-width") { TooManyThreadsWrongQueueNoWidth(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-queue-per-album") { TooManyThreadsWrongQueuePerAlbum(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-signal-before-read") { TooManyThreadsWrongSignalBeforeRead(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-show-on-worker") { TooManyThreadsWrongShowOnWorker(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-reads-on-main") { TooManyThreadsWrongReadsOnMain(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-main-waits-for-reads") { TooManyThreadsWrongMainWaitsForReads(environment: $0) },
])
