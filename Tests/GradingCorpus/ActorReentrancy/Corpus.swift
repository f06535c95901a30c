import LabKit
import ActorReentrancy

/// actor-reentrancy's grading corpus: each fix's file is named after its variant.
public let actorReentrancyCorpus = LabSolutions(ActorReentrancyLab.self, [
    LabVariant(.validFix, name: "valid-task-cache") { ActorReentrancyValidTaskCache(server: $0) },
    LabVariant(.validFix, name: "valid-entry-enum") { ActorReentrancyValidEntryEnum(server: $0) },
    LabVariant(.validFix, name: "valid-reserve-continuations") { ActorReentrancyValidReserveContinuations(server: $0) },
    LabVariant(.validFix, name: "valid-reserve-and-poll") { ActorReentrancyValidReserveAndPoll(server: $0) },
    LabVariant(.wrongFix, name: "wrong-check-twice-before-await") { ActorReentrancyWrongCheckTwiceBeforeAwait(server: $0) },
    LabVariant(.wrongFix, name: "wrong-busy-flag-after-await") { ActorReentrancyWrongBusyFlagAfterAwait(server: $0) },
    LabVariant(.wrongFix, name: "wrong-task-dictionary-after-await") { ActorReentrancyWrongTaskDictionaryAfterAwait(server: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-around-check") { ActorReentrancyWrongLockAroundCheck(server: $0) },
    LabVariant(.wrongFix, name: "wrong-nonisolated-steps") { ActorReentrancyWrongNonisolatedSteps(server: $0) },
    LabVariant(.wrongFix, name: "wrong-yield-before-store") { ActorReentrancyWrongYieldBeforeStore(server: $0) },
    LabVariant(.wrongFix, name: "wrong-recheck-after-download") { ActorReentrancyWrongRecheckAfterDownload(server: $0) },
    LabVariant(.wrongFix, name: "wrong-yield-before-reserve") { ActorReentrancyWrongYieldBeforeReserve(server: $0) },
])
