// VALID: one serial queue owns the whole bank: each transfer is one sync block (approval included), and the statement takes a copy with one sync read and prints it outside the queue.
import Foundation
import LabKit
import Deadlock

final class DeadlockValidSerialQueueBank: DeadlockController {
    private let office: DeadlockBackOffice
    private let bankQueue = DispatchQueue(label: "deadlock.bank")
    private var balances: [DeadlockAccount: Int]  // touched only by blocks on `bankQueue`
    private var lines: [String] = []  // touched only by blocks on `bankQueue`

    init(office: DeadlockBackOffice) {
        self.office = office
        balances = Dictionary(uniqueKeysWithValues: DeadlockAccount.allCases.map { ($0, office.openingBalance) })
    }

    func transfer(_ amount: Int, from payer: DeadlockAccount, to payee: DeadlockAccount) {
        bankQueue.sync {
            office.approve(amount, from: payer, to: payee)
            balances[payer]! -= amount
            balances[payee]! += amount
            lines.append("\(payer) paid \(payee) \(amount)")
        }
    }

    func printStatement() {
        let copy = bankQueue.sync { lines }
        for line in copy { office.printLine(line) }
    }

    func balance(of account: DeadlockAccount) -> Int { bankQueue.sync { balances[account]! } }

    var auditLog: [String] { bankQueue.sync { lines } }
}
