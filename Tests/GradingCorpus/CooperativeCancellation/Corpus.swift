import LabKit
import CooperativeCancellation

/// cooperative-cancellation's grading corpus: each fix's file is named after its variant.
public let cooperativeCancellationCorpus = LabSolutions(CooperativeCancellationLab.self, [
    LabVariant(.validFix, name: "valid-is-cancelled-guards") { CooperativeCancellationValidIsCancelledGuards(environment: $0) },
    LabVariant(.validFix, name: "valid-task-group") { CooperativeCancellationValidTaskGroup(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-check-at-start") { CooperativeCancellationWrongCheckAtStart(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-no-handler") { CooperativeCancellationWrongNoHandler(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-check-after-publishing") { CooperativeCancellationWrongCheckAfterPublishing(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-check-every-other-step") { CooperativeCancellationWrongCheckEveryOtherStep(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-unlocked-flag") { CooperativeCancellationWrongUnlockedFlag(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-detached-inner") { CooperativeCancellationWrongDetachedInner(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-try-swallows-cancel") { CooperativeCancellationWrongTrySwallowsCancel(environment: $0) },
])
