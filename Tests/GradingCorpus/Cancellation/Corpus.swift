import LabKit
import Cancellation

/// cancellation's grading corpus: each fix's file is named after its variant.
public let cancellationCorpus = LabSolutions(CancellationLab.self, [
    LabVariant(.validFix, name: "valid-generation-mutex") { CancellationValidGenerationMutex(environment: $0) },
    LabVariant(.validFix, name: "valid-work-item") { CancellationValidWorkItem(environment: $0) },
    LabVariant(.validFix, name: "valid-locked-token") { CancellationValidLockedToken(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-check-every-third-step") { CancellationWrongCheckEveryThirdStep(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-check-every-other-step") { CancellationWrongCheckEveryOtherStep(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-check-at-start") { CancellationWrongCheckAtStart(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-unlocked-flag") { CancellationWrongUnlockedFlag(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-shows-cancelled-total") { CancellationWrongShowsCancelledTotal(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-shows-partial-total") { CancellationWrongShowsPartialTotal(environment: $0) },
])
