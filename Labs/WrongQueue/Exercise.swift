import Foundation
import LabKit
import WrongQueue

/// EXERCISE: this starts as a copy of the broken variant. Make sure the canvas is only ever
/// touched on the render queue, and have the helpers check it (DispatchSpecificKey). Keep the class
/// name and the two user actions. Check it with `make check LAB=wrong-queue`.
///
/// Frames are painted on the render queue, one at a time. The canvas belongs to that queue.
final class WrongQueueExercise: WrongQueueController {
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
        // TODO: fix this: the Clear button calls the render queue's helper right here, on the main thread.
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

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeWrongQueueExercise(_ environment: WrongQueueEnvironment) -> WrongQueueController {
    WrongQueueExercise(environment: environment)
}
