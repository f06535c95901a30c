import LabKit
import ContinuationMisuse

/// continuation-misuse's grading corpus: each fix's file is named after its variant.
public let continuationMisuseCorpus = LabSolutions(ContinuationMisuseLab.self, [
    LabVariant(.validFix, name: "valid-mutex-flag") { ContinuationMisuseValidMutexFlag(geocoder: $0) },
    LabVariant(.validFix, name: "valid-serial-queue") { ContinuationMisuseValidSerialQueue(geocoder: $0) },
    LabVariant(.validFix, name: "valid-cancel-and-once") { ContinuationMisuseValidCancelAndOnce(geocoder: $0) },
    LabVariant(.wrongFix, name: "wrong-success-only") { ContinuationMisuseWrongSuccessOnly(geocoder: $0) },
    LabVariant(.wrongFix, name: "wrong-waits-for-late-answer") { ContinuationMisuseWrongWaitsForLateAnswer(geocoder: $0) },
    LabVariant(.wrongFix, name: "wrong-unlocked-flag") { ContinuationMisuseWrongUnlockedFlag(geocoder: $0) },
    LabVariant(.wrongFix, name: "wrong-resume-then-cancel") { ContinuationMisuseWrongResumeThenCancel(geocoder: $0) },
    LabVariant(.wrongFix, name: "wrong-cancel-then-resume") { ContinuationMisuseWrongCancelThenResume(geocoder: $0) },
])
