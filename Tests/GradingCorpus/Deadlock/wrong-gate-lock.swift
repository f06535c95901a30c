// WRONG: keeps taking the account locks in opposite orders and only hides that behind one bank-wide "gate" lock around every transfer. It cannot freeze today, but the inversion is still there for any code that takes an account lock without the gate, and ThreadSanitizer reports it: the lab's rule is one lock order.
import Foundation
import LabKit
import Deadlock

final class DeadlockWrongGateLock: DeadlockController {
    private let office: DeadlockBackOffice
    private let accounts: [DeadlockAccount: DeadlockLockedAccount]
    private let transfers = NSLock()
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
        transfers.lock()
        from.lock.lock()
        office.approve(amount, from: payer, to: payee)
        to.lock.lock()
        from.balance -= amount
        to.balance += amount
        to.lock.unlock()
        from.lock.unlock()
        transfers.unlock()
        auditQueue.sync { lines.append("\(payer) paid \(payee) \(amount)") }
    }

    func printStatement() {
        for line in auditLog { office.printLine(line) }
    }

    func balance(of account: DeadlockAccount) -> Int {
        let account = accounts[account]!
        account.lock.lock()
        defer { account.lock.unlock() }
        return account.balance
    }

    var auditLog: [String] { auditQueue.sync { lines } }
}
