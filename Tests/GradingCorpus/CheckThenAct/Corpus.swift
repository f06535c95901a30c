import LabKit
import CheckThenAct

/// check-then-act's grading corpus: each fix's file is named after its variant.
public let checkThenActCorpus = LabSolutions(CheckThenActLab.self, [
    LabVariant(.validFix, name: "valid-nslock") { CheckThenActValidNSLock(clerk: $0) },
    LabVariant(.validFix, name: "valid-mutex") { CheckThenActValidMutex(clerk: $0) },
    LabVariant(.validFix, name: "valid-compare-exchange") { CheckThenActValidCompareExchange(clerk: $0) },
    LabVariant(.validFix, name: "valid-test-and-set") { CheckThenActValidTestAndSet(clerk: $0) },
    LabVariant(.validFix, name: "valid-serial-queue-async") { CheckThenActValidSerialQueueAsync(clerk: $0) },
    LabVariant(.wrongFix, name: "wrong-flag-raised-earlier") { CheckThenActWrongFlagRaisedEarlier(clerk: $0) },
    LabVariant(.wrongFix, name: "wrong-atomic-flag-load-store") { CheckThenActWrongAtomicFlagLoadStore(clerk: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-write-only") { CheckThenActWrongLockWriteOnly(clerk: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-updates-only") { CheckThenActWrongLockUpdatesOnly(clerk: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-per-call") { CheckThenActWrongLockPerCall(clerk: $0) },
    LabVariant(.wrongFix, name: "wrong-count-in-background") { CheckThenActWrongCountInBackground(clerk: $0) },
    LabVariant(.wrongFix, name: "wrong-check-and-raise-locked-apart") { CheckThenActWrongCheckAndRaiseLockedApart(clerk: $0) },
])
