import CRaceLabSupport
import Foundation

/// An invariant that did not hold, with where the scenario checked it.
public struct InvariantFailure: Codable, Sendable, Equatable {
    public let iteration: Int
    public let message: String
    public let file: String
    public let line: Int

    /// "Broken.swift:25": where the rule was broken or the invariant checked.
    public var shortLocation: String { "\(file.split(separator: "/").last.map(String.init) ?? file):\(line)" }
}

/// How a scenario plays an iteration: its scripted story (also when exploration moves one of its
/// pauses), or at random (stress).
public enum ScenarioMode: String, Sendable {
    case scripted, stress
}

/// One iteration of a scenario, as the lab's `play` sees it: the user's actions on the main
/// thread, ways to wait for the lab's threads, and the invariant checks.
/// Used on the main thread only.
public final class ScenarioRun {
    public let mode: ScenarioMode
    /// 1-based.
    public let iteration: Int
    /// This iteration's seed (derived from the run's seed and the iteration number).
    public let seed: UInt64
    /// Main-thread randomness for stress mode (action choices, pauses). Repeatable per seed.
    public var random: SeededRandom

    private(set) var failures: [InvariantFailure] = []
    private(set) var notes: [String] = []
    private(set) var metrics: [String: Double] = [:]
    /// Told about each failure as it is found (a child streams it to the parent at once, so a
    /// hang or crash later in the iteration cannot hide it).
    private let onFailure: (InvariantFailure) -> Void

    /// What exploration asks of this iteration (nil: the story as written, or stress).
    enum Exploration {
        /// The story as written, counting the arrivals off the main thread after each pause.
        case survey
        /// The story with one pause moved.
        case point(ExplorationPoint)

        var point: ExplorationPoint? {
            if case .point(let point) = self { point } else { nil }
        }
    }
    let exploration: Exploration?
    /// How many `pause(at:)` calls this iteration made so far.
    private(set) var pauseCalls = 0
    /// Survey: the worker arrivals counted when each pause was armed.
    private(set) var workerHitsAtPause: [Int] = []

    /// `mode` is what the scenario sees: an explored iteration is the scripted story.
    init(
        mode: RunMode, iteration: Int, seed: UInt64, exploration: Exploration? = nil,
        onFailure: @escaping (InvariantFailure) -> Void = { _ in }
    ) {
        self.exploration = exploration
        self.mode = mode.storyMode
        self.iteration = iteration
        self.seed = seed
        self.random = SeededRandom(seed: seed)
        self.onFailure = onFailure
    }

    // MARK: Invariants

    /// Check an invariant; a false condition is recorded as a failure (the run goes on).
    public func expect(
        _ condition: Bool, _ message: @autoclosure () -> String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        if !condition { fail(message(), file: file, line: line) }
    }

    public func fail(_ message: String, file: StaticString = #filePath, line: UInt = #line) {
        TraceFile.note(.failure, message)
        let failure = InvariantFailure(iteration: iteration, message: message, file: "\(file)", line: Int(line))
        failures.append(failure)
        onFailure(failure)
    }

    /// Something worth knowing that is not a failure (e.g. a checkpoint that was not reached).
    public func note(_ text: String) { notes.append(text) }

    /// Add to a named measurement (summed over iterations), e.g. wasted work steps.
    public func record(_ metric: String, _ value: Double) { metrics[metric, default: 0] += value }

    // MARK: Timing the user's actions

    /// Do something as the user, and put it on the interleaving timeline (`--trace`).
    public func user(_ description: String, _ action: () -> Void) {
        TraceFile.note(.action, description)
        action()
        rl_story_user_action_ended()
    }

    /// Scripted mode: arm `checkpoint` so that the thread making its `hit`-th arrival there
    /// waits. Arm before the action that starts the work, then call `whilePaused` on the result.
    /// Stress mode: arms nothing. Exploration moves one pause of the story elsewhere (see
    /// `ExplorationPoint`); the scenario is written the same either way.
    public func pause(at checkpoint: StaticString, hit: Int = 1) -> ScriptedPause {
        guard mode == .scripted else { return ScriptedPause(run: self, checkpoint: "\(checkpoint)", hit: hit) }
        pauseCalls += 1
        if case .survey = exploration { workerHitsAtPause.append(Checkpoint.workerHits) }
        if case .point(let point) = exploration, point.pause == pauseCalls {
            Checkpoint.armAny(hit: point.hit, limit: 1, storyReleases: true)
            return ScriptedPause(
                run: self, checkpoint: "arrival \(point.hit) off the main thread after pause \(point.pause)",
                hit: point.hit, maxWait: 1)
        }
        Checkpoint.arm(checkpoint, hit: hit)
        return ScriptedPause(run: self, checkpoint: "\(checkpoint)", hit: hit)
    }

    /// Stress mode: spin the main run loop for a random time up to `milliseconds`. Scripted: no-op.
    public func randomPause(upTo milliseconds: Int) {
        guard mode == .stress, milliseconds > 0 else { return }
        spin(for: Double(random.next(upperBound: UInt64(milliseconds * 1000))) / 1_000_000)
    }

    /// Let the main run loop deliver `OperationQueue.main` / `DispatchQueue.main` work for a while.
    public func spin(for seconds: Double) {
        let end = Date(timeIntervalSinceNow: seconds)
        repeat {
            MainRunLoopTurn.take(napping: min(end.timeIntervalSinceNow, 0.002))
        } while Date() < end
    }

    /// Busy-wait, without turning the run loop, until `condition` holds; false if `timeout`
    /// passed first. For a moment that matters to the microsecond (a run-loop turn is 2 ms), or
    /// a wait that must not run anything queued for the main thread.
    @discardableResult
    public func busyWait(timeout: Double, _ condition: () -> Bool) -> Bool {
        StoryWait.bounded(seconds: timeout) {
            var deadline = LabDeadline(seconds: timeout)
            while !condition() {
                StoryWait.looked()
                if deadline.hasPassed() { return false }
            }
            return true
        }
    }

    /// Spin the main run loop until `condition` holds; false if `timeout` passed first, on the
    /// lab's own clock (`LabDeadline`: time spent waiting for a CPU on a busy machine does not
    /// count; below half a second only when asked, `ownTime`).
    @discardableResult
    public func waitUntil(timeout: Double, ownTime: Bool? = nil, _ condition: () -> Bool) -> Bool {
        StoryWait.bounded(seconds: timeout) {
            var deadline = LabDeadline(seconds: timeout, ownTime: ownTime)
            while !condition() {
                StoryWait.looked()
                if deadline.hasPassed() { return false }
                MainRunLoopTurn.take()
            }
            return true
        }
    }

    /// Wait until the lab has gone quiet; then whether `condition` holds (quiet, it can no longer
    /// come true by itself). Quiet: no work waits for the main queue or a delay, and every thread
    /// the lab started (a pool thread while it runs a block; one paused at a scripted checkpoint
    /// aside) has ended or waits, with no time limit, for something only the lab can give it
    /// (`LabQuiet`: the kernel is asked, never a clock, so a busy machine makes quiet come later,
    /// never sooner). Two looks a run-loop turn apart must agree: work delivered to the main
    /// thread in between may start more. False, with a note, when `timeout` passed first: a cap
    /// for a lab that never settles (a thread that spins or polls for ever), far above any
    /// honest wait. `condition` is asked at every look (a scenario may record what the screen
    /// shows on the way).
    @discardableResult
    public func settle(timeout: Double = 30, until condition: () -> Bool = { true }) -> Bool {
        var looks = QuietLooks()
        var holds = false
        let quiet = waitUntil(timeout: timeout) {
            holds = condition()
            return looks.agree(LabQuiet.now)
        }
        if !quiet { note("the app did not go quiet within \(timeout)s: \(LabQuiet.busyNow)") }
        return quiet && holds
    }

    /// Wait until `condition` holds or the lab has gone quiet (then the condition can no longer
    /// come true by itself); true when the condition holds. For a story that waits for a result
    /// a wrong fix may never produce.
    @discardableResult
    public func waitUntilDoneOrQuiet(timeout: Double = 30, _ condition: () -> Bool) -> Bool {
        var looks = QuietLooks()
        let settled = waitUntil(timeout: timeout) {
            condition() || looks.agree(LabQuiet.now)
        }
        let done = condition()
        if !done && !settled { note("the app was still busy after \(timeout)s of its own time: \(LabQuiet.busyNow)") }
        return done
    }

    /// `waitUntilDoneOrQuiet` without turning the main run loop: for a screen that blocks while it
    /// waits (so nothing it would run in between can order what it reads next).
    @discardableResult
    public func busyWaitUntilDoneOrQuiet(timeout: Double = 30, _ condition: () -> Bool) -> Bool {
        var looks = QuietLooks()
        busyWait(timeout: timeout) {
            if condition() || looks.agree(LabQuiet.now) { return true }
            if !looks.lastWasQuiet { usleep(50) }
            return false
        }
        return condition()
    }

    /// The main thread stays busy (it runs nothing queued for it) until `condition` holds and
    /// every thread of the lab has ended or waits (`LabQuiet.threadsNow`, two looks in a row):
    /// whatever the lab's work sent to the main queue then waits there, not delivered yet, and
    /// the story acts while it is on its way, every time. False, with a note, after `timeout` of
    /// the lab's own time (a thread that never stops); the story goes on either way.
    @discardableResult
    public func busyUntilThreadsWait(timeout: Double = 30, _ condition: () -> Bool = { true }) -> Bool {
        var looks = QuietLooks()
        let ended = busyWait(timeout: timeout) {
            if looks.agree(condition() && LabQuiet.threadsNow) { return true }
            if !looks.lastWasQuiet { usleep(500) }
            return false
        }
        if !ended { note("the app's threads were still busy after \(timeout)s of its own time: \(LabQuiet.busyNow)") }
        return ended
    }

    /// Work the lab sends to a queue other than main while `moves` runs begins only once they
    /// are done, as it would whenever the pool had no free thread: a block that must first ask
    /// "is the view still there?" is asked it after the view went away, every time. A block
    /// already running goes on; a main thread that waits with no time limit (perhaps for that
    /// work) lets it begin at once. Linux with its facilities only; elsewhere the work begins
    /// when the pool starts it.
    public func startingLate(_ moves: () -> Void) {
        rl_story_late_start(1)
        defer { rl_story_late_start(0) }
        moves()
    }
}

/// A checkpoint armed by `ScenarioRun.pause(at:hit:)`.
public struct ScriptedPause {
    let run: ScenarioRun
    let checkpoint: String
    let hit: Int
    /// An explored pause waits at most this long for its arrival (it may never come).
    var maxWait: Double? = nil

    /// Scripted mode: wait until a thread is held at the checkpoint, run `action` on the main
    /// thread meanwhile, then let the thread go on: the bad interleaving, every time. The wait
    /// ends when the thread arrives, or when the app has gone quiet (nothing is left that could
    /// arrive: a fix that takes another path, work an earlier pause let finish), or after
    /// `maxWait` seconds of the app's own time (a thread that polls for ever never goes quiet);
    /// never because the machine was busy.
    /// Stress mode: run `action` after a random pause of up to 2 ms.
    public func whilePaused(maxWait: Double = 5, _ action: () -> Void) {
        guard run.mode == .scripted else {
            run.randomPause(upTo: 2)
            action()
            return
        }
        defer { Checkpoint.release() }
        let wait = min(maxWait, self.maxWait ?? maxWait)
        // Where the kernel cannot be asked what threads wait for, "quiet" is a clock's guess (no
        // checkpoint for 300 ms): then only an explored pause, which may never be reached, ends on it.
        let endsOnQuiet = self.maxWait != nil || ThreadHold.seesBlockedThreads
        var looks = QuietLooks()
        let arrived =
            run.waitUntil(timeout: wait, ownTime: true) {
                Checkpoint.armedReached || (endsOnQuiet && looks.agree(LabQuiet.now))
            } && Checkpoint.armedReached
        if !arrived && self.maxWait == nil {
            let why = looks.agreed ? "before the app went quiet" : "within \(wait)s of the app's own time"
            run.note("checkpoint \(checkpoint) #\(hit) was not reached \(why); acted anyway")
        }
        action()
    }
}
