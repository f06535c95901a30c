import LabKit
import Deadlock

/// deadlock's grading corpus: each fix's file is named after its variant.
public let deadlockCorpus = LabSolutions(DeadlockLab.self, [
    LabVariant(.validFix, name: "valid-one-bank-lock") { DeadlockValidOneBankLock(office: $0) },
    LabVariant(.validFix, name: "valid-order-by-identity") { DeadlockValidOrderByIdentity(office: $0) },
    LabVariant(.validFix, name: "valid-serial-queue-bank") { DeadlockValidSerialQueueBank(office: $0) },
    LabVariant(.validFix, name: "valid-try-lock-back-off") { DeadlockValidTryLockBackOff(office: $0) },
    LabVariant(.validFix, name: "valid-statement-async") { DeadlockValidStatementAsync(office: $0) },
    LabVariant(.wrongFix, name: "wrong-order-only") { DeadlockWrongOrderOnly(office: $0) },
    LabVariant(.wrongFix, name: "wrong-statement-only") { DeadlockWrongStatementOnly(office: $0) },
    LabVariant(.wrongFix, name: "wrong-swap-order") { DeadlockWrongSwapOrder(office: $0) },
    LabVariant(.wrongFix, name: "wrong-statement-unlocked") { DeadlockWrongStatementUnlocked(office: $0) },
    LabVariant(.wrongFix, name: "wrong-try-lock-gives-up") { DeadlockWrongTryLockGivesUp(office: $0) },
    LabVariant(.wrongFix, name: "wrong-gate-lock") { DeadlockWrongGateLock(office: $0) },
    LabVariant(.wrongFix, name: "wrong-busy-flag") { DeadlockWrongBusyFlag(office: $0) },
])
