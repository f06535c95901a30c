import LabKit
import OffMainDealloc

/// off-main-dealloc's grading corpus: each fix's file is named after its variant.
public let offMainDeallocCorpus = LabSolutions(OffMainDeallocLab.self, [
    LabVariant(.validFix, name: "valid-cancel-token") { OffMainDeallocValidCancelToken(environment: $0) },
    LabVariant(.validFix, name: "valid-model-object") { OffMainDeallocValidModelObject(environment: $0) },
    LabVariant(.validFix, name: "valid-weak-box-gcd") { OffMainDeallocValidWeakBoxGCD(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-weak-self-guard") { OffMainDeallocWrongWeakSelfGuard(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-weak-self-each-step") { OffMainDeallocWrongWeakSelfEachStep(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-inner-weak-self") { OffMainDeallocWrongInnerWeakSelf(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-values-only") { OffMainDeallocWrongValuesOnly(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-dismiss-checked-on-worker") { OffMainDeallocWrongDismissCheckedOnWorker(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-cancel-queue-only") { OffMainDeallocWrongCancelQueueOnly(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-token-worker-holds-screen") { OffMainDeallocWrongTokenWorkerHoldsScreen(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-model-holds-screen") { OffMainDeallocWrongModelHoldsScreen(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-worker-holds-views") { OffMainDeallocWrongWorkerHoldsViews(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-weak-self-recaptured") { OffMainDeallocWrongWeakSelfRecaptured(environment: $0) },
])
