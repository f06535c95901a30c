// ATTACK: parked-threads
// A valid fix that also parks a thousand threads an edit on a semaphore nobody signals: the
// child's threads pile up toward the machine's task limit, which the students graded beside it need.
// (Added to a solved exercise: see ../README.md.)
// at the start of recalculate():
        let never = DispatchSemaphore(value: 0)
        for _ in 0..<1000 { Thread.detachNewThread { never.wait() } }
