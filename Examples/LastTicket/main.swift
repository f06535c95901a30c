// The last ticket: two buyers, one seat left. Every access to the seat count is under the lock,
// so ThreadSanitizer has nothing to report, and yet the seat can be sold twice.
// Build: swiftc -sanitize=thread main.swift -o last-ticket
// Run:   racelab stress -- ./last-ticket
import Foundation

final class BoxOffice {
    private let lock = NSLock()
    private var seatsLeft = 1
    private(set) var sold = 0

    func buy() {
        // BUG: the check and the sale are two critical sections; another buyer can take the
        // last seat between them. FIX: check and sell under one lock.
        let available = lock.withLock { seatsLeft > 0 }
        guard available else { return }
        lock.withLock {
            seatsLeft -= 1
            sold += 1
        }
    }

    var seats: Int { lock.withLock { seatsLeft } }
}

let office = BoxOffice()
let finished = DispatchSemaphore(value: 0)
for _ in 0..<2 {
    Thread.detachNewThread {
        office.buy()
        finished.signal()
    }
}
for _ in 0..<2 { finished.wait() }
precondition(office.seats >= 0, "the last seat was sold twice (\(office.sold) tickets for 1 seat)")
print("sold \(office.sold) ticket(s); \(office.seats) seat(s) left")
