// WRONG: Clear hops onto a serial queue of its own with the render queue's label: a second queue, not the render queue, so the wipe still runs beside the frame instead of after it.
import Foundation
import LabKit
import WrongQueue

final class WrongQueueWrongOwnQueue: WrongQueueController {
    private let canvas: WrongQueueCanvas
    private let renderQueue: DispatchQueue
    private let clearQueue = DispatchQueue(label: "wrong-queue.render")  // same label, different queue

    init(environment: WrongQueueEnvironment) {
        canvas = environment.canvas
        renderQueue = environment.renderQueue
    }

    func render(frame: Int) {
        renderQueue.async { self.paint(frame) }
    }

    func clear() {
        clearQueue.async { self.wipe() }
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
