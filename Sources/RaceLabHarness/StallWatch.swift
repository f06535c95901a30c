import Foundation

/// Decides when a child has made no progress for too long.
///
/// Only time the parent itself was watching counts. If the parent's own loop was held up (the
/// machine was suspended, or starved for seconds), the child was too: its silence in that time
/// proves nothing, and without this a whole-machine pause of a few seconds made every running
/// child "hang" the moment the parent woke up, before the child could say a word.
struct StallWatch {
    let timeout: Double
    /// A gap between two looks longer than this is time the parent did not watch.
    let missedLook: Double
    private var watched = 0.0
    private var lastLook: Date?
    private var lastSignature: String?

    init(timeout: Double, missedLook: Double = 1) {
        self.timeout = timeout
        self.missedLook = missedLook
    }

    /// One look at the child's latest progress `signature` at `now`; true once the child made
    /// no progress for `timeout` seconds of watched time. `cpuShare` (`MachineLoad`): the part
    /// of the machine the child could count on since the last look; time counts at that rate.
    mutating func stalled(signature: String?, now: Date, cpuShare: Double = 1) -> Bool {
        if let lastLook {
            let gap = now.timeIntervalSince(lastLook)
            if gap > 0, gap <= missedLook { watched += gap * min(max(cpuShare, 0.05), 1) }
        }
        lastLook = now
        if signature != lastSignature {
            lastSignature = signature
            watched = 0
        }
        return watched > timeout
    }
}
