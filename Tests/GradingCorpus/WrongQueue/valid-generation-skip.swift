// VALID: every action takes a new generation number (an Atomic); Clear hops onto the render queue, and a frame stops painting as soon as a newer action was asked for, so no stale frame is finished for nothing.
import Foundation
import LabKit
import Synchronization
import WrongQueue

final class WrongQueueValidGenerationSkip: WrongQueueController {
    private let canvas: WrongQueueCanvas  // render queue only
    private let renderQueue: DispatchQueue
    private let generation = Atomic<Int>(0)

    init(environment: WrongQueueEnvironment) {
        canvas = environment.canvas
        renderQueue = environment.renderQueue
    }

    func render(frame: Int) {
        let mine = generation.add(1, ordering: .relaxed).newValue
        renderQueue.async { self.paint(frame, generation: mine) }
    }

    func clear() {
        generation.add(1, ordering: .relaxed)
        renderQueue.async { self.wipe() }
    }

    private func paint(_ frame: Int, generation mine: Int) {
        for row in 0..<WrongQueueCanvas.rows {
            // Superseded: whatever was asked for later is queued behind us and will cover the canvas.
            if generation.load(ordering: .relaxed) != mine { return }
            canvas.paint(row: row, frame: frame)
        }
    }

    private func wipe() {
        canvas.wipe()
    }
}
