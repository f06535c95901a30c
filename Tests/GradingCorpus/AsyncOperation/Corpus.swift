import LabKit
import AsyncOperation

/// async-operation's grading corpus: each fix's file is named after its variant.
public let asyncOperationCorpus = LabSolutions(AsyncOperationLab.self, [
    LabVariant(.validFix, name: "valid-serial-queue-state") { AsyncOperationValidSerialQueueState(network: $0) },
    LabVariant(.validFix, name: "valid-mutex-flags") { AsyncOperationValidMutexFlags(network: $0) },
    LabVariant(.validFix, name: "valid-locked-enum") { AsyncOperationValidLockedEnum(network: $0) },
    LabVariant(.wrongFix, name: "wrong-unlocked-state") { AsyncOperationWrongUnlockedState(network: $0) },
    LabVariant(.wrongFix, name: "wrong-cancelled-start-returns") { AsyncOperationWrongCancelledStartReturns(network: $0) },
    LabVariant(.wrongFix, name: "wrong-finish-twice") { AsyncOperationWrongFinishTwice(network: $0) },
    LabVariant(.wrongFix, name: "wrong-finish-then-deliver") { AsyncOperationWrongFinishThenDeliver(network: $0) },
    LabVariant(.wrongFix, name: "wrong-no-finished-notification") { AsyncOperationWrongNoFinishedNotification(network: $0) },
    LabVariant(.wrongFix, name: "wrong-cancel-between-check-and-start") { AsyncOperationWrongCheckThenStart(network: $0) },
    LabVariant(.wrongFix, name: "wrong-block-operation") { AsyncOperationWrongBlockOperation(network: $0) },
    LabVariant(.wrongFix, name: "wrong-relaxed-atomic-state") { AsyncOperationWrongRelaxedAtomicState(network: $0) },
    LabVariant(.wrongFix, name: "wrong-running-ignores-cancel") { AsyncOperationWrongRunningIgnoresCancel(network: $0) },
    LabVariant(.wrongFix, name: "wrong-cancel-lost-in-start") { AsyncOperationWrongCancelLostInStart(network: $0) },
])
