import Foundation
import LabKit
import ConcurrentPerform

/// Each iteration owns one slot of a results buffer: it measures its row and writes that slot,
/// and nothing else. The slots are added up once, after concurrentPerform has returned, when no
/// iteration is running any more (thread confinement: private working state, results combined
/// at the join).
final class ConcurrentPerformFixed: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) {
        self.screen = screen
    }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        // The block holds the controller weakly and passes it on unloaded: only the main thread
        // ever holds it (and through it the screen, a view) strongly.
        DispatchQueue.global().async { [weak self] in
            var rows = [Int](repeating: 0, count: photo.rowCount)
            // FIX: a raw buffer, so each iteration writes only its own element (a Swift array
            // subscripted from several threads is one variable modified by all of them). The
            // compiler cannot check that no two iterations share an element: `unsafe` says so.
            rows.withUnsafeMutableBufferPointer { buffer in
                nonisolated(unsafe) let slots = buffer
                DispatchQueue.concurrentPerform(iterations: slots.count) { row in
                    slots[row] = photo.brightness(ofRow: row)  // FIX: one slot per iteration, no shared total.
                }
            }
            let total = rows.reduce(0, +)  // FIX: combined once, after concurrentPerform returned.
            DispatchQueue.main.async { self?.show(total) }
        }
    }

    private func show(_ total: Int) {
        screen.brightness.setText(String(total))
        screen.measuring.set(false)
    }
}

/// The same idea in chunks: a few iterations, each summing a stretch of rows into a local
/// variable of its own, then storing that partial sum in its own slot. Fewer slots, and each
/// iteration does enough work to be worth a thread.
final class ConcurrentPerformFixedChunks: ConcurrentPerformController {
    private let screen: ConcurrentPerformScreen

    init(screen: ConcurrentPerformScreen) {
        self.screen = screen
    }

    func measure(_ photo: ConcurrentPerformPhoto) {
        screen.measuring.set(true)
        // The block holds the controller weakly and passes it on unloaded: only the main thread
        // ever holds it (and through it the screen, a view) strongly.
        DispatchQueue.global().async { [weak self] in
            let rowCount = photo.rowCount
            let chunkCount = min(4, rowCount)
            var partials = [Int](repeating: 0, count: chunkCount)
            partials.withUnsafeMutableBufferPointer { buffer in
                nonisolated(unsafe) let slots = buffer  // each chunk writes only its own element
                DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
                    var sum = 0  // FIX: private working state: a local of this iteration only.
                    for row in stride(from: chunk, to: rowCount, by: chunkCount) {
                        sum += photo.brightness(ofRow: row)
                    }
                    slots[chunk] = sum  // FIX: one slot per chunk, written once.
                }
            }
            let total = partials.reduce(0, +)  // FIX: the partial sums are combined after the join.
            DispatchQueue.main.async { self?.show(total) }
        }
    }

    private func show(_ total: Int) {
        screen.brightness.setText(String(total))
        screen.measuring.set(false)
    }
}

extension ConcurrentPerformLab {
    public static var solutions: [LabVariant<ConcurrentPerformScreen, ConcurrentPerformController>] {
        [
            LabVariant(.fixed) { ConcurrentPerformFixed(screen: $0) },
            LabVariant(.fixed, name: "fixed-chunks") { ConcurrentPerformFixedChunks(screen: $0) },
            LabVariant(.fixed, name: "fixed-task-group") { ConcurrentPerformFixedTaskGroup(screen: $0) },
        ]
    }
}
