import Foundation
@_spi(LabAuthoring) import LabKit

/// The bank's two accounts.
public enum DeadlockAccount: Int, CaseIterable, Sendable, CustomStringConvertible {
    case alice, bob

    public var description: String { self == .alice ? "Alice" : "Bob" }
}

/// One account's balance and the lock that guards it; every variant keeps one per account.
public final class DeadlockLockedAccount {
    public let lock = NSLock()
    public var balance: Int

    public init(balance: Int) { self.balance = balance }
}

/// What every variant offers. Tellers call `transfer` and `printStatement` on threads of their
/// own (several at once); the main thread reads `balance(of:)` and `auditLog` once every teller
/// has returned.
public protocol DeadlockController: AnyObject {
    /// Moves `amount` from one account to the other; adds one line to the audit log.
    func transfer(_ amount: Int, from payer: DeadlockAccount, to payee: DeadlockAccount)
    /// Prints every line of the audit log so far (through `DeadlockBackOffice.printLine`).
    func printStatement()
    func balance(of account: DeadlockAccount) -> Int
    /// Every line recorded so far, oldest first.
    var auditLog: [String] { get }
}

/// The bank's slow back office, on the harness side: a variant can make its code safe across
/// these steps, but it cannot make them quick.
public final class DeadlockBackOffice: Sendable {
    public init() {}

    /// Every account starts with this much.
    public let openingBalance = 100

    /// Approving a transfer takes a moment. A teller that holds a lock while in here holds it
    /// for that long.
    public func approve(_ amount: Int, from payer: DeadlockAccount, to payee: DeadlockAccount) {
        Checkpoint.hit("bank.approve")
    }

    /// Prints one line of a statement.
    public func printLine(_ line: String) {
        Checkpoint.hit("audit.print")
    }
}

public enum DeadlockLab: LabScenario {
    public static let info = LabInfo(
        id: "deadlock",
        title: "Two locks in opposite orders, and a sync onto your own queue",
        source: "source article 001 (deadlock: threads waiting on each other's locks); source article 002 (serial queues as locks, dispatch_sync)",
        bug: "a transfer locks the payer's account and then the payee's, so two opposite transfers can each hold one lock and wait forever for the other; the statement calls the queue's own sync getter from a block already running on that queue",
        invariants: [
            "every transfer and every statement returns (no deadlock)",
            "the balances are what the transfers add up to, and the audit log has one line per transfer",
            "a statement prints every line recorded before it began",
        ],
        expectedDetectors: [.tsan, .hang, .crash],
        defaultIterations: [.scripted: 3, .stress: 100],
        watchdogSeconds: 3
    )

    public static let variants: [LabVariant<DeadlockBackOffice, DeadlockController>] = [
        LabVariant(.broken) { DeadlockBroken(office: $0) },
    ]

    public static func play(_ variant: LabVariant<DeadlockBackOffice, DeadlockController>, in run: ScenarioRun) {
        let office = DeadlockBackOffice()
        let bank = variant.make(office)
        var expected = Dictionary(uniqueKeysWithValues: DeadlockAccount.allCases.map { ($0, office.openingBalance) })
        var tellers = 0
        var transfers = 0

        /// A teller is a thread of its own. (Harness side: the checkpoints only count; they
        /// order nothing.)
        func teller(_ what: String, _ job: @escaping () -> Void) {
            tellers += 1
            run.user(what) {
                Thread.detachNewThread {
                    Checkpoint.hit("teller.start")
                    job()
                    Checkpoint.hit("teller.done")
                }
            }
        }
        func pay(_ amount: Int, _ payer: DeadlockAccount, _ payee: DeadlockAccount) {
            expected[payer]! -= amount
            expected[payee]! += amount
            transfers += 1
            teller("\(payer) pays \(payee) \(amount)") { bank.transfer(amount, from: payer, to: payee) }
        }
        func printStatement() {
            teller("a teller prints the statement") { bank.printStatement() }
        }
        /// Waits for every teller so far. A deadlocked teller never returns: the bank freezes, and
        /// the lab's watchdog ends the run as the hang it is (long before this cap).
        func tellersReturned() -> Bool {
            if run.waitUntil(timeout: 60, { Checkpoint.hits("teller.done") >= tellers }) { return true }
            run.fail("\(tellers - Checkpoint.hits("teller.done")) of \(tellers) tellers never returned: deadlocked")
            return false
        }

        switch run.mode {
        case .scripted:
            // A quiet morning: Alice pays Bob, and only once that is done, Bob pays Alice. Nothing
            // can freeze, yet both lock orders have now happened in this process.
            pay(10, .alice, .bob)
            guard tellersReturned() else { return }
            pay(5, .bob, .alice)
            guard tellersReturned() else { return }

            // Then two stories, in an order set by the run's seed. In a broken bank the first one
            // ends the process, so over many runs you see both.
            let busyMoment = {
                // Alice pays Bob again and is held while her transfer is being approved; Bob pays
                // Alice at that very moment.
                let firstIsApproving = run.pause(at: "bank.approve", hit: Checkpoint.hits("bank.approve") + 1)
                pay(20, .alice, .bob)
                firstIsApproving.whilePaused {
                    pay(30, .bob, .alice)
                    run.settle(timeout: 3, until: { Checkpoint.hits("teller.start") >= tellers })
                }
                _ = tellersReturned()
            }
            let statement = {
                let printedBefore = Checkpoint.hits("audit.print")
                printStatement()
                if tellersReturned() {
                    // A statement may still be printing after its teller returned (printed by a
                    // block on a queue, say): count its lines once all are in, or once the bank
                    // is quiet (nothing left that could print more).
                    run.waitUntilDoneOrQuiet { Checkpoint.hits("audit.print") - printedBefore >= transfers }
                    let printed = Checkpoint.hits("audit.print") - printedBefore
                    run.expect(printed == transfers, "the statement printed \(printed) lines, but \(transfers) transfers had been recorded")
                }
            }
            if run.seed & 1 == 0 {
                busyMoment()
                statement()
            } else {
                statement()
                busyMoment()
            }
        case .stress:
            let statementAt = Int(run.random.next(upperBound: UInt64(5)))
            for step in 0..<5 {
                run.randomPause(upTo: 1)
                if step == statementAt {
                    printStatement()
                } else {
                    let payer: DeadlockAccount = run.random.next(upperBound: UInt64(2)) == 0 ? .alice : .bob
                    pay(Int(run.random.next(upperBound: UInt64(20))) + 1, payer, payer == .alice ? .bob : .alice)
                }
            }
        }

        // Read the bank only when every teller is back: a stuck teller may still hold a lock.
        guard tellersReturned() else { return }
        for account in DeadlockAccount.allCases {
            let balance = bank.balance(of: account)
            run.expect(balance == expected[account], "\(account)'s balance is \(balance), but the transfers add up to \(expected[account]!)")
        }
        let lines = bank.auditLog.count
        run.expect(lines == transfers, "the audit log has \(lines) lines for \(transfers) transfers")
    }
}
