// WRONG: fixes the statement (copy, then print outside the queue) but keeps taking the payer's lock before the payee's: opposite transfers still take the two locks in opposite orders.
import Foundation
import LabKit
import Deadlock

final class DeadlockWrongStatementOnly: DeadlockController {
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
        to.lock.lock()
        from.balance -= amount
        to.balance += amount
        to.lock.unlock()
        from.lock.unlock()
        auditQueue.sync { lines.append("\(payer) paid \(payee) \(amount)") }
    }

    func printStatement() {
        let copy = auditLog
        for line in copy { office.printLine(line) }
    }

    func balance(of account: DeadlockAccount) -> Int {
        let account = accounts[account]!
        account.lock.lock()
        defer { account.lock.unlock() }
        return account.balance
    }

    var auditLog: [String] { auditQueue.sync { lines } }
}
