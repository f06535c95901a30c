import Foundation
import LabKit
import Deadlock

/// Still one lock per account, but every thread takes them in the same order; and the audit
/// queue is never waited on from inside itself.
final class DeadlockFixed: DeadlockController {
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
        // FIX: one global order for the locks (Alice's before Bob's, whoever pays): a thread that
        // holds the second lock already holds the first, so no two threads can wait on each other.
        let (first, second) = payer.rawValue < payee.rawValue ? (from, to) : (to, from)
        first.lock.lock()
        second.lock.lock()
        office.approve(amount, from: payer, to: payee)
        from.balance -= amount
        to.balance += amount
        second.lock.unlock()
        first.lock.unlock()
        record("\(payer) paid \(payee) \(amount)")
    }

    func printStatement() {
        // FIX: take a copy with one sync read, then print it outside the queue. The copy cannot
        // change halfway through, and no block on the queue ever waits for the queue.
        for line in auditLog { office.printLine(line) }
    }

    func balance(of account: DeadlockAccount) -> Int {
        let account = accounts[account]!
        account.lock.lock()
        defer { account.lock.unlock() }
        return account.balance
    }

    var auditLog: [String] { auditQueue.sync { lines } }

    private func record(_ line: String) {
        // FIX: a writer does not need to wait for its line to be stored: async never waits, so it
        // cannot deadlock even when called from a block on the queue. A later sync read runs
        // after it (a serial queue keeps order).
        auditQueue.async { self.lines.append(line) }
    }
}

extension DeadlockLab {
    public static var solutions: [LabVariant<DeadlockBackOffice, DeadlockController>] {
        [LabVariant(.fixed) { DeadlockFixed(office: $0) }]
    }
}
