// VALID: one lock order for any pair of accounts (by the lock objects' identity); the statement stays inside the audit queue, and the getter skips the sync when a queue-specific key says it is already on it.
import Foundation
import LabKit
import Deadlock

final class DeadlockValidOrderByIdentity: DeadlockController {
    private let office: DeadlockBackOffice
    private let accounts: [DeadlockAccount: DeadlockLockedAccount]
    private let auditQueue = DispatchQueue(label: "deadlock.audit")
    private let onAuditQueue = DispatchSpecificKey<Bool>()
    private var lines: [String] = []  // touched only by blocks on `auditQueue`

    init(office: DeadlockBackOffice) {
        self.office = office
        accounts = Dictionary(uniqueKeysWithValues: DeadlockAccount.allCases.map {
            ($0, DeadlockLockedAccount(balance: office.openingBalance))
        })
        auditQueue.setSpecific(key: onAuditQueue, value: true)
    }

    func transfer(_ amount: Int, from payer: DeadlockAccount, to payee: DeadlockAccount) {
        let from = accounts[payer]!, to = accounts[payee]!
        let (first, second) = ObjectIdentifier(from) < ObjectIdentifier(to) ? (from, to) : (to, from)
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

    var auditLog: [String] {
        if DispatchQueue.getSpecific(key: onAuditQueue) == true { return lines }  // already on the queue
        return auditQueue.sync { lines }
    }
}
