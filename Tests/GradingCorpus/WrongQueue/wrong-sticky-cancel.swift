// WRONG: Clear raises a "stop" flag (an Atomic) so the frame being painted stops, and hops the wipe onto the render queue; only a frame that sees the flag lowers it, so after a Clear on a quiet canvas the next frame is dropped.
import Foundation
import LabKit
import Synchronization
import WrongQueue

final class WrongQueueWrongStickyCancel: WrongQueueController {
    private let canvas: WrongQueueCanvas
    private let renderQueue: DispatchQueue
    private let stop = Atomic<Bool>(false)

    init(environment: WrongQueueEnvironment) {
        canvas = environment.canvas
        renderQueue = environment.renderQueue
    }

    func render(frame: Int) {
        renderQueue.async { self.paint(frame) }
    }

    func clear() {
        stop.store(true, ordering: .releasing)
        renderQueue.async { self.wipe() }
    }

    private func paint(_ frame: Int) {
        for row in 0..<WrongQueueCanvas.rows {
            if stop.exchange(false, ordering: .acquiringAndReleasing) { return }  // cleared: give up this frame
            canvas.paint(row: row, frame: frame)
        }
    }

    private func wipe() {
        canvas.wipe()
    }
}
