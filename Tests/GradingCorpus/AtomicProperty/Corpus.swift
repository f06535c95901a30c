import LabKit
import AtomicProperty

/// atomic-property's grading corpus: each fix's file is named after its variant.
public let atomicPropertyCorpus = LabSolutions(AtomicPropertyLab.self, [
    LabVariant(.validFix, name: "valid-nslock") { AtomicPropertyValidNSLock(progress: $0) },
    LabVariant(.validFix, name: "valid-concurrent-barrier") { AtomicPropertyValidConcurrentBarrier(progress: $0) },
    LabVariant(.validFix, name: "valid-mutex") { AtomicPropertyValidMutex(progress: $0) },
    LabVariant(.validFix, name: "valid-barrier-async") { AtomicPropertyValidBarrierAsync(progress: $0) },
    LabVariant(.wrongFix, name: "wrong-nslock-accessors") { AtomicPropertyWrongNSLockAccessors(progress: $0) },
    LabVariant(.wrongFix, name: "wrong-barrier-setter") { AtomicPropertyWrongBarrierSetter(progress: $0) },
    LabVariant(.wrongFix, name: "wrong-atomic-load-store") { AtomicPropertyWrongAtomicLoadStore(progress: $0) },
    LabVariant(.wrongFix, name: "wrong-compare-exchange-once") { AtomicPropertyWrongCompareExchangeOnce(progress: $0) },
    LabVariant(.wrongFix, name: "wrong-unlocked-getter") { AtomicPropertyWrongUnlockedGetter(progress: $0) },
    LabVariant(.wrongFix, name: "wrong-update-in-background") { AtomicPropertyWrongUpdateInBackground(progress: $0) },
    LabVariant(.wrongFix, name: "wrong-bounded-retry") { AtomicPropertyWrongBoundedRetry(progress: $0) },
    LabVariant(.wrongFix, name: "wrong-retry-64-then-write") { AtomicPropertyWrongRetry64ThenWrite(progress: $0) },
])
