import Foundation
import LabKit
import WrongQueue

/// The source article's two habits for queue-owned state: every caller hops onto the owning queue, and
/// the helpers check that they are on it, using a key only that queue carries.
final class WrongQueueFixed: WrongQueueController {
    private let canvas: WrongQueueCanvas  // render queue only
    private let renderQueue: DispatchQueue
    // FIX: a key of our own; the value we set on the render queue is found only on that queue.
    private let onRenderQueue = DispatchSpecificKey<Bool>()

    init(environment: WrongQueueEnvironment) {
        canvas = environment.canvas
        renderQueue = environment.renderQueue
        renderQueue.setSpecific(key: onRenderQueue, value: true)  // FIX: tag the queue
    }

    func render(frame: Int) {
        renderQueue.async { self.paint(frame) }
    }

    func clear() {
        // FIX: hop onto the render queue: the wipe waits for the frames asked for before it and
        // can never cut one in half.
        renderQueue.async { self.wipe() }
    }

    // Helpers that must run on the render queue.

    private func paint(_ frame: Int) {
        assertOnRenderQueue("paint")
        for row in 0..<WrongQueueCanvas.rows {
            canvas.paint(row: row, frame: frame)
        }
    }

    private func wipe() {
        assertOnRenderQueue("wipe")
        canvas.wipe()
    }

    private func assertOnRenderQueue(_ helper: String) {
        // FIX: a helper called from any other queue stops the program here, at the mistake,
        // instead of corrupting a frame somewhere later.
        precondition(DispatchQueue.getSpecific(key: onRenderQueue) == true, "\(helper)() called off the render queue")
    }
}

extension WrongQueueLab {
    public static var solutions: [LabVariant<WrongQueueEnvironment, WrongQueueController>] {
        [LabVariant(.fixed) { WrongQueueFixed(environment: $0) }]
    }
}
