// VALID: one lock order (Alice's first); the statement no longer waits at all: it is one async block on the audit queue that prints the lines it finds there, so no line is added halfway through and nothing waits for the queue it is on.
import Foundation
import LabKit
import Deadlock

final class DeadlockValidStatementAsync: DeadlockController {
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
        let (first, second) = payer.rawValue < payee.rawValue ? (from, to) : (to, from)
        first.lock.lock()
        second.lock.lock()
        office.approve(amount, from: payer, to: payee)
        from.balance -= amount
        to.balance += amount
        second.lock.unlock()
        first.lock.unlock()
        auditQueue.async { self.lines.append("\(payer) paid \(payee) \(amount)") }
    }

    func printStatement() {
        auditQueue.async {
            for line in self.lines { self.office.printLine(line) }  // already on the queue: no sync
        }
    }

    func balance(of account: DeadlockAccount) -> Int {
        let account = accounts[account]!
        account.lock.lock()
        defer { account.lock.unlock() }
        return account.balance
    }

    var auditLog: [String] { auditQueue.sync { lines } }
}
