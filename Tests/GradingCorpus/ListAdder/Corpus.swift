import LabKit
import ListAdder

/// list-adder's grading corpus: each fix's file is named after its variant.
public let listAdderCorpus = LabSolutions(ListAdderLab.self, [
    LabVariant(.validFix, name: "valid-serial-queue") { ListAdderValidSerialQueue(environment: $0) },
    LabVariant(.validFix, name: "valid-mutex-snapshot") { ListAdderValidMutexSnapshot(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-copy-on-worker") { ListAdderWrongCopyOnWorker(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-writes-only") { ListAdderWrongLockWritesOnly(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-each-read") { ListAdderWrongLockEachRead(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-main-waits-for-sum") { ListAdderWrongMainWaitsForSum(environment: $0) },
])
