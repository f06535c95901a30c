import Foundation
import LabKit
import Deadlock

/// EXERCISE: this starts as a copy of the broken variant. Make the bank safe: two transfers in
/// opposite directions at the same moment must both finish, and printing a statement must not
/// freeze or crash. The harness runs it with `make check LAB=deadlock`. Keep the
/// class names and the `DeadlockController` methods; change anything else.

/// A bank with one lock per account (so transfers between other accounts need not wait), and
/// an audit log guarded by a serial queue.
final class DeadlockExercise: DeadlockController {
    private let office: DeadlockBackOffice
    private let accounts: [DeadlockAccount: DeadlockLockedAccount]
    private let auditQueue = DispatchQueue(label: "deadlock.audit")
    private var lines: [String] = []  // touched only by blocks on `auditQueue`

    init(office: DeadlockBackOffice) {
        self.office = office
        accounts = Dictionary(uniqueKeysWithValues: DeadlockAccount.allCases.map {
            ($0, DeadlockLockedAccount(balance: office.openingBalance))
        })
    }

    func transfer(_ amount: Int, from payer: DeadlockAccount, to payee: DeadlockAccount) {
        let from = accounts[payer]!, to = accounts[payee]!
        from.lock.lock()  // lock the payer's account, so the money cannot leave it twice...
        office.approve(amount, from: payer, to: payee)
        // TODO: fix this: ...then the payee's. "Alice pays Bob" locks Alice then Bob; "Bob pays Alice" locks
        // Bob then Alice. If both run at once, each holds one lock and waits for the other forever.
        to.lock.lock()
        from.balance -= amount
        to.balance += amount
        to.lock.unlock()
        from.lock.unlock()
        record("\(payer) paid \(payee) \(amount)")
    }

    func printStatement() {
        // Print from inside the queue, so no line is added halfway through the statement.
        auditQueue.sync {
            // TODO: fix this: `auditLog` does `auditQueue.sync`, and this block is already running on
            // auditQueue: it would wait for itself to finish, forever.
            for line in auditLog { office.printLine(line) }
        }
    }

    func balance(of account: DeadlockAccount) -> Int {
        let account = accounts[account]!
        account.lock.lock()
        defer { account.lock.unlock() }
        return account.balance
    }

    var auditLog: [String] { auditQueue.sync { lines } }

    private func record(_ line: String) {
        auditQueue.sync { lines.append(line) }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeDeadlockExercise(_ office: DeadlockBackOffice) -> DeadlockController {
    DeadlockExercise(office: office)
}
