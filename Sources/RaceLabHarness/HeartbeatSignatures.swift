/// What the watchdog reads from one heartbeat (decoded once).
struct HeartbeatSignatures {
    /// "iteration/hits": a change is progress.
    var progress: String
    /// The iteration it names ("12"): a change is a new iteration.
    var iteration: String
    /// The story's own wait it names (`StoryWait`), if any: its number and limit.
    var storyWait: (number: Int, seconds: Double)?

    init(_ line: String) {
        guard case .progress(let beat) = ChildChannel.decode(line) else {
            self.init(line, decoded: nil)
            return
        }
        self.init(line, decoded: beat)
    }

    /// `decoded`: the line as `ChildChannel.decode` read it (nil: not a heartbeat).
    init(_ line: String, decoded: ChildChannel.Progress?) {
        guard let beat = decoded else {
            (progress, iteration) = (line, line)
            return
        }
        progress = "\(beat.iteration)/\(beat.checkpointHits)"
        iteration = String(beat.iteration)
        storyWait = beat.storyWait.map { ($0.number, $0.seconds) }
    }
}
