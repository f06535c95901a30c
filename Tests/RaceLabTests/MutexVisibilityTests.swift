import CRaceLabSupport
import Foundation
import Synchronization
import XCTest

/// Synchronization.Mutex hands a contended lock over in the kernel, where ThreadSanitizer cannot
/// see it; the trampolines in CRaceLabSupport tell TSan. This test contends a Mutex hard, in this
/// very process, under TSan: a race report here would fail `swift test` outright.
final class MutexVisibilityTests: XCTestCase {
    final class Tally: @unchecked Sendable {
        let mutex = Mutex<Int>(0)
        var beside = 0  // kept beside the lock, changed only while holding it, as a fix would
    }

    func testContendedMutexIsSynchronisationToTSan() {
        #if os(Linux)  // glibc's futex slow paths; on Apple platforms Mutex is an os_unfair_lock TSan intercepts
            XCTAssertEqual(
                rl_mutex_visibility_installed(), 1, "the library's slow paths were found behind the trampolines")
        #endif
        let tally = Tally()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<3_000 {
                tally.mutex.withLock { count in
                    count += 1
                    tally.beside += 1
                }
                _ = tally.mutex.withLockIfAvailable { $0 }
            }
        }
        XCTAssertEqual(tally.mutex.withLock { $0 }, 24_000)
        XCTAssertEqual(tally.mutex.withLock { _ in tally.beside }, 24_000)
    }
}
