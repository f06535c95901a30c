import LabKit
import StaleResults

/// stale-results' grading corpus: each fix's file is named after its variant.
public let staleResultsCorpus = LabSolutions(StaleResultsLab.self, [
    LabVariant(.validFix, name: "valid-generation-counter") { StaleResultsValidGenerationCounter(environment: $0) },
    LabVariant(.validFix, name: "valid-compare-list") { StaleResultsValidCompareList(environment: $0) },
    LabVariant(.validFix, name: "valid-serial-queue") { StaleResultsValidSerialQueue(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-compare-lengths") { StaleResultsWrongCompareLengths(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-compare-count-and-last") { StaleResultsWrongCompareCountAndLast(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-generation-read-late") { StaleResultsWrongGenerationReadLate(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-show-when-idle") { StaleResultsWrongShowWhenIdle(environment: $0) },
    LabVariant(.validFix, name: "valid-serial-queue-every-result") { StaleResultsValidSerialQueueEveryResult(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-check-on-worker") { StaleResultsWrongCheckOnWorker(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-check-on-courier-thread") { StaleResultsWrongCheckOnCourierThread(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-check-on-global-queue") { StaleResultsWrongCheckOnGlobalQueue(environment: $0) },
])
