// ATTACK: thread-tree
// A valid fix that also starts, from a background thread, a tree of threads that each start two
// more and then wait for ever: the child's tasks double until something stops them.
// (Added to a solved exercise: see ../README.md.)
private func grow(depth: Int) {
    let never = DispatchSemaphore(value: 0)
    if depth > 0 {
        Thread.detachNewThread { grow(depth: depth - 1) }
        Thread.detachNewThread { grow(depth: depth - 1) }
    }
    never.wait()
}
// at the start of recalculate():
        Thread.detachNewThread { grow(depth: 12) }
