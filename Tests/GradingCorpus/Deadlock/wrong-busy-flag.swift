// WRONG: replaces the two account locks by one "a transfer is under way" Bool that each teller waits on and then raises: a check-then-act on an unguarded flag, so two transfers can still run at once.
import Foundation
import LabKit
import Deadlock

final class DeadlockWrongBusyFlag: DeadlockController {
    private let office: DeadlockBackOffice
    private var balances: [DeadlockAccount: Int]
    private var transferring = false
    private let auditQueue = DispatchQueue(label: "deadlock.audit")
    private var lines: [String] = []

    init(office: DeadlockBackOffice) {
        self.office = office
        balances = Dictionary(uniqueKeysWithValues: DeadlockAccount.allCases.map { ($0, office.openingBalance) })
    }

    func transfer(_ amount: Int, from payer: DeadlockAccount, to payee: DeadlockAccount) {
        while transferring { sched_yield() }
        transferring = true
        office.approve(amount, from: payer, to: payee)
        balances[payer]! -= amount
        balances[payee]! += amount
        transferring = false
        auditQueue.sync { lines.append("\(payer) paid \(payee) \(amount)") }
    }

    func printStatement() {
        for line in auditLog { office.printLine(line) }
    }

    func balance(of account: DeadlockAccount) -> Int {
        while transferring { sched_yield() }
        return balances[account]!
    }

    var auditLog: [String] { auditQueue.sync { lines } }
}
