import Foundation
import Synchronization
import XCTest

@_spi(LabAuthoring) @testable import LabKit

/// An operation that becomes ready without telling its queue: the state swift-corelibs-foundation
/// leaves when it loses an operation's wake-up (its last dependency finished while it was being
/// added), made on purpose here.
private final class SilentlyReadied: Operation, @unchecked Sendable {
    let readied = Atomic<Bool>(false)
    let ran = Atomic<Bool>(false)
    override var isReady: Bool { readied.load(ordering: .sequentiallyConsistent) && super.isReady }
    override func main() { ran.store(true, ordering: .sequentiallyConsistent) }
}

/// A controller as a variant makes it: its queue is a stored property.
private final class Controller {
    let queue = OperationQueue()
}

final class OperationWakeupsTests: XCTestCase {
    /// A story begins (nothing watched or told yet); off Linux, the test is skipped.
    private func beginStory() throws {
        #if !os(Linux)
            throw XCTSkip("Apple's Foundation does not lose an operation's wake-up")
        #endif
        OperationWakeups.beginStory()
    }

    private func forgotten(on queue: OperationQueue) -> SilentlyReadied {
        let dependency = BlockOperation {}
        queue.addOperation(dependency)
        dependency.waitUntilFinished()
        let operation = SilentlyReadied()
        operation.addDependency(dependency)
        queue.addOperation(operation)
        operation.readied.store(true, ordering: .sequentiallyConsistent)  // no KVO: the queue never hears
        return operation
    }

    /// Whether `operation` ran within a few seconds (a lost wake-up would leave it waiting for ever).
    private func ran(_ operation: SilentlyReadied) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 5)
        while !operation.ran.load(ordering: .sequentiallyConsistent) && Date() < deadline { usleep(1000) }
        return operation.ran.load(ordering: .sequentiallyConsistent)
    }

    func testAnOperationForgottenInAWatchedObjectsQueueIsWoken() throws {
        try beginStory()
        let controller = Controller()
        OperationWakeups.watch(controller)
        let operation = forgotten(on: controller.queue)
        usleep(20_000)
        XCTAssertFalse(
            operation.ran.load(ordering: .sequentiallyConsistent), "the queue was never told: it cannot have started it"
        )

        XCTAssertTrue(OperationWakeups.wakeForgotten(), "a ready operation its queue never started is woken")
        XCTAssertTrue(ran(operation))
        XCTAssertFalse(OperationWakeups.wakeForgotten(), "nothing is left to wake")
    }

    func testAnOperationItsQueueCannotStartIsToldOnlyOnceSoQuietStillComes() throws {
        try beginStory()
        let queue = OperationQueue()
        OperationWakeups.watch(queue)
        let operation = forgotten(on: queue)
        queue.isSuspended = true
        XCTAssertTrue(OperationWakeups.wakeForgotten())
        XCTAssertFalse(
            OperationWakeups.wakeForgotten(),
            "told once per story: a suspended queue keeps it, and the app can be quiet")
        XCTAssertFalse(operation.ran.load(ordering: .sequentiallyConsistent), "a suspended queue starts nothing")
        queue.isSuspended = false
        XCTAssertTrue(ran(operation), "told once already, its queue starts it when it may")
    }

    func testAnOperationWithNoDependencyOrAnUnfinishedOneIsLeftAlone() throws {
        try beginStory()
        let queue = OperationQueue()
        queue.isSuspended = true
        OperationWakeups.watch(queue)
        queue.addOperation(BlockOperation {})  // ready, never started: but nothing was lost
        let blocker = BlockOperation {}
        let waiting = BlockOperation {}
        waiting.addDependency(blocker)
        queue.addOperation(waiting)
        XCTAssertFalse(
            OperationWakeups.wakeForgotten(),
            "only an operation whose dependencies all finished can have lost its wake-up")
        queue.cancelAllOperations()
        blocker.start()
        queue.isSuspended = false
    }

    func testAVariantsObjectIsWatchedAsMakeReturnsIt() throws {
        try beginStory()
        let variant = LabVariant<Void, Controller>(.fixed) { Controller() }
        let controller = variant.make(())
        let operation = forgotten(on: controller.queue)
        XCTAssertTrue(OperationWakeups.wakeForgotten())
        XCTAssertTrue(ran(operation))
    }
}
