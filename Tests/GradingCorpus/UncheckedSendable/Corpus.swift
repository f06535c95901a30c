import LabKit
import UncheckedSendable

/// unchecked-sendable's grading corpus: each fix's file is named after its variant.
public let uncheckedSendableCorpus = LabSolutions(UncheckedSendableLab.self, [
    LabVariant(.validFix, name: "valid-actor") { UncheckedSendableValidActor(tally: $0) },
    LabVariant(.validFix, name: "valid-mutex") { UncheckedSendableValidMutex(tally: $0) },
    LabVariant(.validFix, name: "valid-nslock") { UncheckedSendableValidNSLock(tally: $0) },
    LabVariant(.validFix, name: "valid-main-actor") { UncheckedSendableValidMainActor(tally: $0) },
    LabVariant(.validFix, name: "valid-serial-queue-sync") { UncheckedSendableValidSerialQueueSync(tally: $0) },
    LabVariant(.wrongFix, name: "wrong-nonisolated-unsafe") { UncheckedSendableWrongNonisolatedUnsafe(tally: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-updates-only") { UncheckedSendableWrongLockUpdatesOnly(tally: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-write-only") { UncheckedSendableWrongLockWriteOnly(tally: $0) },
    LabVariant(.wrongFix, name: "wrong-serial-queue-reads-outside") { UncheckedSendableWrongSerialQueueReadsOutside(tally: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-per-call") { UncheckedSendableWrongLockPerCall(tally: $0) },
    LabVariant(.wrongFix, name: "wrong-main-actor-reader-only") { UncheckedSendableWrongMainActorReaderOnly(tally: $0) },
])
