// VALID: Clear hops onto the render queue with async, and every helper starts with dispatchPrecondition(condition: .onQueue(renderQueue)).
import Dispatch
import Foundation
import LabKit
import WrongQueue

final class WrongQueueValidDispatchPrecondition: WrongQueueController {
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
        renderQueue.async { self.wipe() }
    }

    private func paint(_ frame: Int) {
        dispatchPrecondition(condition: .onQueue(renderQueue))
        for row in 0..<WrongQueueCanvas.rows {
            canvas.paint(row: row, frame: frame)
        }
    }

    private func wipe() {
        dispatchPrecondition(condition: .onQueue(renderQueue))
        canvas.wipe()
    }
}
