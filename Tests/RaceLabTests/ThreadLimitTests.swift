import CRaceLabSupport
import Foundation
import RaceLabHarness
import XCTest

/// Past its limit of live threads, a process that is not a lab child (a user's test program) is
/// refused the new thread (EAGAIN) and goes on; a lab child ends saying why (grading-e2e's
/// parked-threads attack).
final class ThreadLimitTests: XCTestCase {
    func testAThreadPastTheLimitIsRefusedInATestProgram() throws {
        #if os(Linux)
            try XCTSkipUnless(PlatformChecks.here.preemptionAndHolds, "this build does not track thread starts")
            let limit = rl_thread_limit()
            XCTAssertEqual(limit, 512, "a test program's default")
            XCTAssertEqual(rl_thread_limit_ends_process(), 0)
            rl_thread_limit_set(1, 0)  // this test program already has more than one thread
            defer { rl_thread_limit_set(limit, 0) }
            var thread = pthread_t()
            let refused = pthread_create(&thread, nil, { _ in nil }, nil)
            XCTAssertEqual(refused, EAGAIN)
            rl_thread_limit_set(limit, 0)
            XCTAssertEqual(pthread_create(&thread, nil, { _ in nil }, nil), 0, "under the limit again")
            XCTAssertEqual(pthread_join(thread, nil), 0)
            XCTAssertEqual(RL_LAB_THREAD_LIMIT, 256, "a lab child's")
        #else
            throw XCTSkip("thread starts are tracked on Linux only")
        #endif
    }
}
