// WRONG: fixes the lock order (Alice's lock first) but leaves the statement as it was: a block on the audit queue still calls the getter that syncs onto that same queue.
import Foundation
import LabKit
import Deadlock

final class DeadlockWrongOrderOnly: DeadlockController {
    private let office: DeadlockBackOffice
    private let accounts: [DeadlockAccount: DeadlockLockedAccount]
    private let auditQueue = DispatchQueue(label: "deadlock.audit")
    private var lines: [String] = []

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
        office.approve(amount, from: payer, to: payee)
        second.lock.lock()
        from.balance -= amount
        to.balance += amount
        second.lock.unlock()
        first.lock.unlock()
        auditQueue.sync { lines.append("\(payer) paid \(payee) \(amount)") }
    }

    func printStatement() {
        auditQueue.sync {
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
}
