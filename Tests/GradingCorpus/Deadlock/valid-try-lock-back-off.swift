// VALID: never waits while holding a lock: takes the payer's lock, only tries the payee's, and if it is busy lets go of both and tries again; the statement copies the log, then prints.
import Foundation
import LabKit
import Deadlock

final class DeadlockValidTryLockBackOff: DeadlockController {
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
        office.approve(amount, from: payer, to: payee)
        while true {
            from.lock.lock()
            if to.lock.try() { break }
            from.lock.unlock()  // the payee is busy: hold nothing while waiting
            usleep(50)
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
