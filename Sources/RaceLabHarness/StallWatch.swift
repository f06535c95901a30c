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
    private(set) var watched = 0.0
    private var lastLook: Date?
    private var lastSignature: String?
    /// Time the child waited for a CPU, not yet taken off watched time.
    private var cpuCredit = 0.0
    /// Time the story may still spend in its own wait while it holds a lab thread (`StoryWait`),
    /// not counted as the lab's; and the last wait granted it (each wait once, never renewed).
    private var storyWaitLeft = 0.0
    private var storyWaitGranted = 0

    init(timeout: Double, missedLook: Double = 1) {
        self.timeout = timeout
        self.missedLook = missedLook
    }

    /// Whether a look has seen any progress line yet.
    var sawProgress: Bool { lastSignature != nil }

    /// One look at the child's latest progress `signature` at `now`; true once the child made
    /// no progress for `timeout` seconds of watched time. `waitedForCPU`: seconds the child
    /// waited for a CPU since it was last said (`CPUWait`: the most any one of its threads
    /// waited); time the child was starved does not count, whichever looks it fell between.
    /// `storyWait`: a wait of the story's own while it holds a lab thread (its number and limit
    /// in seconds): up to that much of the time from its first mention is the story's, not the
    /// lab's. A wait is granted once, the first time its number is seen (a number not above the
    /// last one granted is an outer wait coming back, or an old one); without one, nothing is.
    mutating func stalled(
        signature: String?, now: Date, waitedForCPU: Double = 0, storyWait: (number: Int, seconds: Double)? = nil
    ) -> Bool {
        cpuCredit += max(waitedForCPU, 0)
        if let storyWait {
            if storyWait.number > storyWaitGranted {
                storyWaitGranted = storyWait.number
                storyWaitLeft = max(storyWait.seconds, 0)
            }
        } else {
            storyWaitLeft = 0
        }
        if let lastLook {
            let gap = now.timeIntervalSince(lastLook)
            if gap > 0, gap <= missedLook {
                let starved = min(gap, cpuCredit)
                cpuCredit -= starved
                let storys = min(gap - starved, storyWaitLeft)
                storyWaitLeft -= storys
                watched += gap - starved - storys
            }
        }
        lastLook = now
        if signature != lastSignature {
            lastSignature = signature
            watched = 0
            cpuCredit = 0
        }
        return watched > timeout
    }
}
