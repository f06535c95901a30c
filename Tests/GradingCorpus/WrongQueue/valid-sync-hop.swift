// VALID: Clear waits on the render queue with sync: the wipe runs there, after the frames asked for before it (safe because the main thread is never on the render queue).
import Foundation
import LabKit
import WrongQueue

final class WrongQueueValidSyncHop: WrongQueueController {
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
        renderQueue.sync { self.wipe() }
    }

    private func paint(_ frame: Int) {
        for row in 0..<WrongQueueCanvas.rows {
            canvas.paint(row: row, frame: frame)
        }
    }

    private func wipe() {
        canvas.wipe()
    }
}
