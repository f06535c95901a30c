import Foundation

/// One turn of the main run loop while a story waits: what has been delivered to the main thread
/// runs, then the thread naps. Not `RunLoop.run(until:)` with a time to wait: for that, Core
/// Foundation arms a dispatch timer on a pool thread, so every turn wakes one (hundreds a second);
/// the quiet look sees a pool thread that is awake as work about to begin, and on a busy machine,
/// where a woken thread waits long for a CPU, the lab looked busy at almost every look (measured:
/// 1,750 wake-ups of dispatch's pool in 2 s of turns, none with this).
enum MainRunLoopTurn {
    /// A turn, then a nap of `seconds` (at most): main-queue work sent meanwhile waits that long.
    static func take(napping seconds: Double = 0.002) {
        _ = RunLoop.main.run(mode: .default, before: .distantPast)  // no wait: no timer
        if seconds > 0 { usleep(UInt32(seconds * 1_000_000)) }
    }
}
