import LabKit
import WrongQueue

/// wrong-queue's grading corpus: each fix's file is named after its variant.
public let wrongQueueCorpus = LabSolutions(WrongQueueLab.self, [
    LabVariant(.validFix, name: "valid-sync-hop") { WrongQueueValidSyncHop(environment: $0) },
    LabVariant(.validFix, name: "valid-dispatch-precondition") { WrongQueueValidDispatchPrecondition(environment: $0) },
    LabVariant(.validFix, name: "valid-generation-skip") { WrongQueueValidGenerationSkip(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-main-async") { WrongQueueWrongMainAsync(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-own-queue") { WrongQueueWrongOwnQueue(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-frame-lock") { WrongQueueWrongFrameLock(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-delayed-wipe") { WrongQueueWrongDelayedWipe(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-skip-while-busy") { WrongQueueWrongSkipWhileBusy(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-sticky-cancel") { WrongQueueWrongStickyCancel(environment: $0) },
    LabVariant(.validFix, name: "valid-operation-queue-on-render-queue") { WrongQueueValidOperationQueueOnRenderQueue(environment: $0) },
])
