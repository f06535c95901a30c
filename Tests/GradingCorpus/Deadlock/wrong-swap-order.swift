// WRONG: "lock the payee first" instead of the payer: still each transfer's own order, so Alice-pays-Bob and Bob-pays-Alice take the two locks in opposite orders.
import Foundation
import LabKit
import Deadlock

final class DeadlockWrongSwapOrder: DeadlockController {
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
        to.lock.lock()
        office.approve(amount, from: payer, to: payee)
        from.lock.lock()
        from.balance -= amount
        to.balance += amount
        from.lock.unlock()
        to.lock.unlock()
        auditQueue.async { self.lines.append("\(payer) paid \(payee) \(amount)") }
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
