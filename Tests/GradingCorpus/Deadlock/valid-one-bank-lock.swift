// VALID: one NSLock for the whole bank (both balances and the log): with a single lock there is no order to get wrong; the statement copies the log under the lock and prints outside it.
import Foundation
import LabKit
import Deadlock

final class DeadlockValidOneBankLock: DeadlockController {
    private let office: DeadlockBackOffice
    private let bankLock = NSLock()
    private var balances: [DeadlockAccount: Int]  // only touched with `bankLock` held
    private var lines: [String] = []  // only touched with `bankLock` held

    init(office: DeadlockBackOffice) {
        self.office = office
        balances = Dictionary(uniqueKeysWithValues: DeadlockAccount.allCases.map { ($0, office.openingBalance) })
    }

    func transfer(_ amount: Int, from payer: DeadlockAccount, to payee: DeadlockAccount) {
        bankLock.withLock {
            office.approve(amount, from: payer, to: payee)
            balances[payer]! -= amount
            balances[payee]! += amount
            lines.append("\(payer) paid \(payee) \(amount)")
        }
    }

    func printStatement() {
        for line in auditLog { office.printLine(line) }
    }

    func balance(of account: DeadlockAccount) -> Int { bankLock.withLock { balances[account]! } }

    var auditLog: [String] { bankLock.withLock { lines } }
}
