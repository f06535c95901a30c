// VALID: an OperationQueue of width 1 whose underlying queue is the render queue: every paint and
// wipe runs on the render queue, one at a time, in the order asked. (Its operations wait in the
// OperationQueue before they reach the render queue: "quiet" must allow for that.) LabKit's
// DispatchBackedOperationQueue, because Foundation's `underlyingQueue` is unowned(unsafe) and so
// refused in memory-safe Swift.
import Foundation
import LabKit
import WrongQueue
import Synchronization

final class WrongQueueValidOperationQueueOnRenderQueue: WrongQueueController, @unchecked Sendable {
    private let canvas: WrongQueueCanvas  // render queue only
    private let renderQueue: DispatchQueue
    private let onRenderQueue = DispatchSpecificKey<Bool>()

    private let ops: OperationQueue
    init(environment: WrongQueueEnvironment) {
        canvas = environment.canvas
        renderQueue = environment.renderQueue
        renderQueue.setSpecific(key: onRenderQueue, value: true)
        ops = DispatchBackedOperationQueue(on: renderQueue)
        ops.maxConcurrentOperationCount = 1
    }
    func render(frame: Int) { ops.addOperation { self.paint(frame) } }
    func clear() { ops.addOperation { self.wipe() } }
    private func paint(_ frame: Int) {
        precondition(DispatchQueue.getSpecific(key: onRenderQueue) == true)
        for row in 0..<WrongQueueCanvas.rows { canvas.paint(row: row, frame: frame) }
    }
    private func wipe() {
        precondition(DispatchQueue.getSpecific(key: onRenderQueue) == true)
        canvas.wipe()
    }
}
