import Foundation
import LabKit

/// Frames are painted on the render queue, one at a time. The canvas belongs to that queue.
final class WrongQueueBroken: WrongQueueController {
    private let canvas: WrongQueueCanvas  // render queue only
    private let renderQueue: DispatchQueue

    init(environment: WrongQueueEnvironment) {
        canvas = environment.canvas
        renderQueue = environment.renderQueue
    }

    func render(frame: Int) {
        renderQueue.async { self.paint(frame) }
    }

    func clear() {
        // BUG: the Clear button calls the render queue's helper right here, on the main thread.
        // It can land in the middle of a frame (the rest of the frame is painted after it) and
        // ahead of frames the user asked for earlier.
        wipe()
    }

    // Helpers that must run on the render queue.

    private func paint(_ frame: Int) {
        for row in 0..<WrongQueueCanvas.rows {
            canvas.paint(row: row, frame: frame)
        }
    }

    private func wipe() {
        canvas.wipe()
    }
}
