import Foundation
import LabKit
import ConcurrentPerform

/// Each iteration owns one slot: it measures its row and writes that slot, and nothing else.
/// The slots are added up once, after concurrentPerform has returned, when no iteration is
/// running any more (thread confinement: private working state, results combined at the join).
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
            // FIX: a slot object per row, all made before the loop. The array of slots is only
            // read during the loop; each iteration writes into its own object, and no two
            // iterations share one. (Writing `rows[row]` in an array of numbers would modify
            // the one array variable from every thread at once: a race of its own.)
            let slots = (0..<photo.rowCount).map { _ in Slot() }
            DispatchQueue.concurrentPerform(iterations: slots.count) { row in
                slots[row].value = photo.brightness(ofRow: row)  // FIX: one slot per iteration, no shared total.
            }
            let total = slots.reduce(0) { $0 + $1.value }  // FIX: combined once, after concurrentPerform returned.
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
            let partials = (0..<chunkCount).map { _ in Slot() }  // one slot per chunk
            DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
                var sum = 0  // FIX: private working state: a local of this iteration only.
                for row in stride(from: chunk, to: rowCount, by: chunkCount) {
                    sum += photo.brightness(ofRow: row)
                }
                partials[chunk].value = sum  // FIX: one slot per chunk, written once.
            }
            let total = partials.reduce(0) { $0 + $1.value }  // FIX: the partial sums are combined after the join.
            DispatchQueue.main.async { self?.show(total) }
        }
    }

    private func show(_ total: Int) {
        screen.brightness.setText(String(total))
        screen.measuring.set(false)
    }
}

/// One iteration's result: written by that iteration alone, read after the join. (Sendable on
/// that promise, which the compiler cannot check: no two iterations share a slot.)
private final class Slot: @unchecked Sendable {
    var value = 0
}

extension ConcurrentPerformLab {
    public static var solutions: [LabVariant<ConcurrentPerformScreen, ConcurrentPerformController>] {
        [
            LabVariant(.fixed) { ConcurrentPerformFixed(screen: $0) },
            LabVariant(.fixed, name: "fixed-chunks") { ConcurrentPerformFixedChunks(screen: $0) },
        ]
    }
}
