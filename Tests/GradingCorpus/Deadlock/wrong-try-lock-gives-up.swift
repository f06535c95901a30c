// WRONG: never waits for the second lock: it only tries it, and when the payee's account is busy the transfer is quietly dropped, so no deadlock but money that should have moved stays put.
import Foundation
import LabKit
import Deadlock

final class DeadlockWrongTryLockGivesUp: DeadlockController {
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
        from.lock.lock()
        office.approve(amount, from: payer, to: payee)
        guard to.lock.try() else {
            from.lock.unlock()
            return  // the payee is busy: give up rather than wait
        }
        from.balance -= amount
        to.balance += amount
        to.lock.unlock()
        from.lock.unlock()
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
