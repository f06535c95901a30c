// WRONG: Clear defers the wipe with DispatchQueue.main.async, "after the current frame": it still runs on the main thread, not on the render queue, whenever the main queue gets to it.
import Foundation
import LabKit
import WrongQueue

final class WrongQueueWrongMainAsync: WrongQueueController {
    private let canvas: WrongQueueCanvas
    private let renderQueue: DispatchQueue

    init(environment: WrongQueueEnvironment) {
        canvas = environment.canvas
        renderQueue = environment.renderQueue
    }

    func render(frame: Int) {
        renderQueue.async { self.paint(frame) }
    }

    func clear() {
        DispatchQueue.main.async { self.wipe() }
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
