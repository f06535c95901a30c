import CRaceLabSupport
import Foundation

/// One turn of the main run loop while a story waits: a nap, cut short by work sent to the main
/// queue (`rl_main_queue_wait`), then what has been delivered to the main thread runs. Not `RunLoop.run(until:)` with a time to wait: for that, Core
/// Foundation arms a dispatch timer on a pool thread, so every turn woke one (hundreds a second);
/// the quiet look sees a pool thread that is awake as work about to begin, and on a busy machine,
/// where a woken thread waits long for a CPU, the lab looked busy at almost every look (measured:
/// 1,750 wake-ups of dispatch's pool in 2 s of turns, none with this). The run comes after the
/// nap, so that a look made right after a turn finds done what arrived during it (a block handed
/// to the run loop itself, `RunLoop.main.perform`, is counted nowhere else).
enum MainRunLoopTurn {
    /// A nap of up to `seconds` (a block handed to the run loop itself waits that long; main-queue
    /// work ends it), then a run that does not wait (and so arms no timer).
    static func take(napping seconds: Double = 0.002) {
        _ = rl_main_queue_wait(Int64(seconds * 1e9))
        _ = RunLoop.main.run(mode: .default, before: .distantPast)
    }
}
