import LabKit
import OnceOnlyInit

/// once-only-init's grading corpus: each fix's file is named after its variant.
public let onceOnlyInitCorpus = LabSolutions(OnceOnlyInitLab.self, [
    LabVariant(.validFix, name: "valid-static-let") { OnceOnlyInitValidStaticLet(environment: $0) },
    LabVariant(.validFix, name: "valid-mutex") { OnceOnlyInitValidMutex(environment: $0) },
    LabVariant(.validFix, name: "valid-condition-broadcast") { OnceOnlyInitValidConditionBroadcast(environment: $0) },
    LabVariant(.validFix, name: "valid-double-checked-atomic") { OnceOnlyInitValidDoubleCheckedAtomic(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-build-only") { OnceOnlyInitWrongLockBuildOnly(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-double-checked-plain-flag") { OnceOnlyInitWrongDoubleCheckedPlainFlag(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-build-then-publish") { OnceOnlyInitWrongBuildThenPublish(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-semaphore-wakes-one") { OnceOnlyInitWrongSemaphoreWakesOne(environment: $0) },
])
