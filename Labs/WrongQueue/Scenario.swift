import Foundation
@_spi(LabAuthoring) import LabKit
import Synchronization

/// A sketch canvas that belongs to one serial queue, the render queue: a frame is painted there
/// row by row, and everything else that touches the canvas must queue up behind it. Rows hold the
/// number of the frame painted into them (0: blank).
///
/// Harness-side, like a real drawing toolkit: it guards its own memory with a lock, so touching it
/// from the wrong queue is no data race and ThreadSanitizer has nothing to say. What it does do is
/// check, with the harness's own queue-specific key, that every call runs on the render queue the
/// harness handed out, and it records each call that did not (with the caller's file:line).
public final class WrongQueueCanvas: @unchecked Sendable {
    public static let rows = 6

    struct Misuse {
        let what: String
        let file: StaticString
        let line: UInt
    }

    private let lock = NSLock()
    private var pixels = Array(repeating: 0, count: WrongQueueCanvas.rows)
    private var misuses: [Misuse] = []
    private let queueToken: Int

    init(queueToken: Int) { self.queueToken = queueToken }

    /// Paint one row of `frame`. Slow: each row is a checkpoint "canvas.row". A scripted pause
    /// there ends by itself after 0.3 s: a correct Clear may wait (sync) for the held frame.
    public func paint(row: Int, frame: Int, file: StaticString = #filePath, line: UInt = #line) {
        checkQueue("paint(row: \(row), frame: \(frame))", file: file, line: line)
        Checkpoint.hit("canvas.row", pauseLimit: 0.3)
        lock.withLock { pixels[row] = frame }
    }

    /// Blank the whole canvas at once (a checkpoint "canvas.wipe", so the harness sees it happen).
    public func wipe(file: StaticString = #filePath, line: UInt = #line) {
        checkQueue("wipe()", file: file, line: line)
        Checkpoint.hit("canvas.wipe", pauseLimit: 0.3)
        lock.withLock { pixels = Array(repeating: 0, count: Self.rows) }
    }

    private func checkQueue(_ what: String, file: StaticString, line: UInt) {
        guard DispatchQueue.getSpecific(key: WrongQueueLab.renderQueueKey) != queueToken else { return }
        let thread = Thread.isMainThread ? "the main thread" : "another thread"
        let misuse = Misuse(what: "canvas \(what) ran on \(thread), not on the render queue", file: file, line: line)
        lock.withLock { misuses.append(misuse) }
    }

    var shown: [Int] { lock.withLock { pixels } }
    var misusesSeen: [Misuse] { lock.withLock { misuses } }
}

/// What each wrong-queue variant gets from the harness: the canvas and the one queue it may be
/// touched on (serial, already tagged with the harness's key; a variant may add its own key).
public struct WrongQueueEnvironment {
    public let canvas: WrongQueueCanvas
    public let renderQueue: DispatchQueue
}

/// The user's actions, called on the main thread: draw frame `frame`, or press Clear. Either may
/// finish later; once things are quiet the canvas must show what the last action asked for. (A
/// frame that a later action makes pointless may be left unfinished: only the end result counts.)
public protocol WrongQueueController: AnyObject {
    func render(frame: Int)
    func clear()
}

public enum WrongQueueLab: LabScenario {
    public static let info = LabInfo(
        id: "wrong-queue",
        title: "A queue's private helper called from another queue",
        source: "source article 002 (threads chapter): one serial queue owns the drawing; queue-specific keys assert it",
        bug: "Clear wipes the render queue's canvas right on the main thread, in the middle of a frame",
        invariants: [
            "the canvas is only ever touched on its render queue",
            "once quiet, the canvas shows what the user's last action asked for (blank, or one whole frame)",
        ],
        expectedDetectors: [.invariant],
        defaultIterations: [.scripted: 3, .stress: 120]
    )

    public static let variants: [LabVariant<WrongQueueEnvironment, WrongQueueController>] = [
        LabVariant(.broken) { WrongQueueBroken(environment: $0) },
    ]

    /// The harness's own tag for the render queue: the canvas checks it, so it needs no word
    /// from the variant about where it runs.
    static let renderQueueKey = DispatchSpecificKey<Int>()

    public static func play(_ variant: LabVariant<WrongQueueEnvironment, WrongQueueController>, in run: ScenarioRun) {
        let renderQueue = DispatchQueue(label: "wrong-queue.render")
        renderQueue.setSpecific(key: renderQueueKey, value: run.iteration)
        let canvas = WrongQueueCanvas(queueToken: run.iteration)
        let app = variant.make(WrongQueueEnvironment(canvas: canvas, renderQueue: renderQueue))
        var lastFrame = 0  // what the user asked for last (0: Clear)

        func render(_ frame: Int) {
            lastFrame = frame
            run.user("draws frame \(frame)") { app.render(frame: frame) }
        }
        func clear() {
            lastFrame = 0
            run.user("presses Clear") { app.clear() }
        }
        /// Quiet: the app has no work left in hand (work queued elsewhere first, an OperationQueue
        /// that feeds the render queue one block at a time, included), and everything queued on
        /// the render queue so far has run (a block of the harness's own, queued now, had its
        /// turn). Frames a later action made pointless need not be painted to the end.
        func waitUntilQuiet() {
            let drained = WrongQueueDrainMark()
            renderQueue.async { drained.reached() }
            run.settle(until: { drained.wasReached })
        }
        var misusesReported = 0
        /// Both rules: every canvas call so far ran on the render queue, and the quiet canvas shows
        /// what the user asked for last.
        func checkRules() {
            let misuses = canvas.misusesSeen
            for misuse in misuses.dropFirst(misusesReported) {
                run.fail(misuse.what, file: misuse.file, line: misuse.line)
            }
            misusesReported = misuses.count
            let shown = canvas.shown
            let asked = Array(repeating: lastFrame, count: WrongQueueCanvas.rows)
            run.expect(shown == asked,
                       "once quiet, the canvas rows show frames \(shown), but the last action asked for "
                       + (lastFrame == 0 ? "a blank canvas" : "all of frame \(lastFrame)"))
        }

        switch run.mode {
        case .scripted:
            // The user asks for frame 1, and presses Clear while its third row is being painted.
            let midFrame = run.pause(at: "canvas.row", hit: 3)
            render(1)
            midFrame.whilePaused { clear() }
            waitUntilQuiet()
            checkRules()
            // Then, on the quiet canvas: Clear and, at once, frame 2; while frame 2 is being
            // painted, Clear again and, at once, frame 3. Every request must be honoured in the
            // order it was made, so the canvas ends up showing frame 3.
            clear()
            let midSecond = run.pause(at: "canvas.row", hit: Checkpoint.hits("canvas.row") + 3)
            render(2)
            midSecond.whilePaused {
                clear()
                render(3)
            }
        case .stress:
            for _ in 0..<6 {
                run.randomPause(upTo: 2)
                if run.random.next(upperBound: UInt64(3)) == 0 { clear() } else { render(lastFrame + 1) }
            }
        }

        waitUntilQuiet()
        checkRules()
        withExtendedLifetime(app) {}
    }
}

/// Harness-side: set by a block the harness queues on the render queue. Relaxed: it says "the
/// queue got this far" and orders nothing.
final class WrongQueueDrainMark: @unchecked Sendable {
    private let flag = Atomic<Bool>(false)

    func reached() { flag.store(true, ordering: .relaxed) }
    var wasReached: Bool { flag.load(ordering: .relaxed) }
}
