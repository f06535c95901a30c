import LabKit
import Deadlock
import Synchronization

/// What the bank keeps: both balances and the audit log, one value.
private struct DeadlockLedger {
    var balances: [DeadlockAccount: Int]
    var lines: [String] = []
}

/// The same fix in Swift 6 terms: one `Mutex` owns everything a transfer changes (both balances
/// and the audit log). With a single lock there is no order to get wrong, and a transfer's money
/// and its audit line change in the same step. The statement copies the log inside the lock and
/// prints outside it, so no code ever waits for a lock it already holds. The class is
/// `Sendable`, and Swift 6 checks it: every stored property is.
final class DeadlockFixedSwift6: DeadlockController, Sendable {
    private let office: DeadlockBackOffice
    // FIX: one lock for the whole ledger: nothing else to lock, so no two threads can hold one
    // lock each and wait for the other's.
    private let ledger: Mutex<DeadlockLedger>

    init(office: DeadlockBackOffice) {
        self.office = office
        let opening = Dictionary(uniqueKeysWithValues: DeadlockAccount.allCases.map { ($0, office.openingBalance) })
        ledger = Mutex(DeadlockLedger(balances: opening))
    }

    func transfer(_ amount: Int, from payer: DeadlockAccount, to payee: DeadlockAccount) {
        ledger.withLock { ledger in
            office.approve(amount, from: payer, to: payee)
            ledger.balances[payer, default: 0] -= amount
            ledger.balances[payee, default: 0] += amount
            ledger.lines.append("\(payer) paid \(payee) \(amount)")  // FIX: recorded in the same step, no second lock.
        }
    }

    func printStatement() {
        // FIX: a copy of the log, taken in one locked step; printed after the lock is let go, so
        // printing never calls back into the lock this thread holds.
        for line in auditLog { office.printLine(line) }
    }

    func balance(of account: DeadlockAccount) -> Int {
        ledger.withLock { $0.balances[account, default: 0] }
    }

    var auditLog: [String] { ledger.withLock { $0.lines } }
}

extension DeadlockLab {
    /// Registered in Sources/SolutionCatalog with the lab's other fixes.
    public static var swift6Solutions: [LabVariant<DeadlockBackOffice, DeadlockController>] {
        [LabVariant(.fixed, name: "fixed-mutex") { DeadlockFixedSwift6(office: $0) }]
    }
}
