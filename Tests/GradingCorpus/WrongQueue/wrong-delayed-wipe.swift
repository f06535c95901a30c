// WRONG: Clear hops onto the render queue but with asyncAfter, "once the frame has had time to finish": a frame the user asks for right after Clear is painted first and then wiped.
import Foundation
import LabKit
import WrongQueue

final class WrongQueueWrongDelayedWipe: WrongQueueController {
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
        renderQueue.asyncAfter(deadline: .now() + .milliseconds(20)) { self.wipe() }
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
