// WRONG: Clear hops onto the render queue, but to keep frames from piling up a new frame is dropped while one is being painted: a frame asked for during another one never appears.
import Foundation
import LabKit
import Synchronization
import WrongQueue

final class WrongQueueWrongSkipWhileBusy: WrongQueueController {
    private let canvas: WrongQueueCanvas
    private let renderQueue: DispatchQueue
    private let busy = Atomic<Bool>(false)

    init(environment: WrongQueueEnvironment) {
        canvas = environment.canvas
        renderQueue = environment.renderQueue
    }

    func render(frame: Int) {
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        renderQueue.async {
            self.paint(frame)
            self.busy.store(false, ordering: .releasing)
        }
    }

    func clear() {
        renderQueue.async { self.wipe() }
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
