import LabKit
import UIOffMain

/// ui-off-main's grading corpus: each fix's file is named after its variant.
public let uiOffMainCorpus = LabSolutions(UIOffMainLab.self, [
    LabVariant(.validFix, name: "valid-main-async") { UIOffMainValidMainAsync(environment: $0) },
    LabVariant(.validFix, name: "valid-main-sync") { UIOffMainValidMainSync(environment: $0) },
    LabVariant(.validFix, name: "valid-run-loop-perform") { UIOffMainValidRunLoopPerform(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-around-ui") { UIOffMainWrongLockAroundUI(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-half-hop") { UIOffMainWrongHalfHop(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-global-queue") { UIOffMainWrongGlobalQueue(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-current-queue") { UIOffMainWrongCurrentQueue(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-reads-label-off-main") { UIOffMainWrongReadsLabelOffMain(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-sum-on-main") { UIOffMainWrongSumOnMain(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-worker-reads-live-list") { UIOffMainWrongWorkerReadsLiveList(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-main-waits-for-sum") { UIOffMainWrongMainWaitsForSum(environment: $0) },
])
