// WRONG: a lock held for a whole frame keeps Clear from cutting one in half, but the wipe still runs on the main thread, off the render queue, and can overtake frames still waiting in the queue.
import Foundation
import LabKit
import WrongQueue

final class WrongQueueWrongFrameLock: WrongQueueController {
    private let canvas: WrongQueueCanvas
    private let renderQueue: DispatchQueue
    private let frameLock = NSLock()

    init(environment: WrongQueueEnvironment) {
        canvas = environment.canvas
        renderQueue = environment.renderQueue
    }

    func render(frame: Int) {
        renderQueue.async { self.paint(frame) }
    }

    func clear() {
        frameLock.withLock { wipe() }
    }

    private func paint(_ frame: Int) {
        frameLock.withLock {
            for row in 0..<WrongQueueCanvas.rows {
                canvas.paint(row: row, frame: frame)
            }
        }
    }

    private func wipe() {
        canvas.wipe()
    }
}
