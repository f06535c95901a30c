import CRaceLabSupport
import Foundation

/// One share of an exploration: the points at index, index + count, index + 2 count...
public struct ExplorationShard: Codable, Sendable, Equatable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// "2/4" (the third of four shares).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    public func includes(_ position: Int) -> Bool { position % count == index }
}

/// What to run: one lab variant, in one mode, for some iterations.
public struct ScenarioPlan: Codable, Sendable, Equatable {
    public var lab: String
    public var variant: String
    public var mode: RunMode
    public var iterations: Int
    public var seed: UInt64
    /// Stop after the first iteration in which anything was detected (saves time on broken variants).
    public var stopAtFirstDetection: Bool
    /// Explore mode: only this point (a reproduce command), instead of a survey and every point.
    public var point: ExplorationPoint?
    /// Explore mode: one share of the points, so several children explore side by side. Each
    /// surveys the story, then explores the points whose place in the survey's list is
    /// `index` modulo `count` (0-based).
    public var shard: ExplorationShard?

    public init(
        lab: String, variant: String, mode: RunMode, iterations: Int, seed: UInt64, stopAtFirstDetection: Bool = true,
        point: ExplorationPoint? = nil
    ) {
        self.lab = lab
        self.variant = variant
        self.mode = mode
        self.iterations = iterations
        self.seed = seed
        self.stopAtFirstDetection = stopAtFirstDetection
        self.point = point
    }
}

/// What the scenario itself saw over all iterations (TSan's own text is parsed separately).
public struct ScenarioOutcome: Codable, Sendable, Equatable {
    public var iterationsRun = 0
    public var failures: [InvariantFailure] = []
    public var firstFailureIteration: Int?
    /// TSan reports counted in-process by the `__tsan_on_report` hook.
    public var tsanReports = 0
    public var firstTSanIteration: Int?
    /// Seconds from the start to the end of the first iteration that detected anything.
    public var firstDetectionSeconds: Double?
    public var elapsedSeconds = 0.0
    public var notes: [String] = []
    public var metrics: [String: Double] = [:]
    /// Whether the process running the scenario had ThreadSanitizer.
    public var tsanEnabled = false
    /// Explore mode: the points explored, in order ("1:3"), and the one of the first iteration
    /// that detected anything.
    public var explored: [String] = []
    public var firstDetectionPoint: String?

    enum CodingKeys: String, CodingKey {
        case iterationsRun, failures, firstFailureIteration, tsanReports, firstTSanIteration, firstDetectionSeconds,
            elapsedSeconds
        case notes, metrics, tsanEnabled, explored, firstDetectionPoint
    }

    /// Fields a line may leave out (an older child, a hand-written test line) take their defaults.
    public init(from decoder: Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        iterationsRun = try values.decode(Int.self, forKey: .iterationsRun)
        failures = try values.decodeIfPresent([InvariantFailure].self, forKey: .failures) ?? []
        firstFailureIteration = try values.decodeIfPresent(Int.self, forKey: .firstFailureIteration)
        tsanReports = try values.decodeIfPresent(Int.self, forKey: .tsanReports) ?? 0
        firstTSanIteration = try values.decodeIfPresent(Int.self, forKey: .firstTSanIteration)
        firstDetectionSeconds = try values.decodeIfPresent(Double.self, forKey: .firstDetectionSeconds)
        elapsedSeconds = try values.decodeIfPresent(Double.self, forKey: .elapsedSeconds) ?? 0
        notes = try values.decodeIfPresent([String].self, forKey: .notes) ?? []
        metrics = try values.decodeIfPresent([String: Double].self, forKey: .metrics) ?? [:]
        tsanEnabled = try values.decode(Bool.self, forKey: .tsanEnabled)
        explored = try values.decodeIfPresent([String].self, forKey: .explored) ?? []
        firstDetectionPoint = try values.decodeIfPresent(String.self, forKey: .firstDetectionPoint)
    }

    public init() {}
}

/// Runs a scenario's iterations on the main thread (in a child process, or in-process in tests).
public enum ScenarioDriver {
    /// Largest stress delay at a checkpoint, in microseconds.
    static let stressJitterMicroseconds = 400

    /// Share of the worker arrivals held in stress mode, per thousand, and for how long at most.
    static let stressHoldPermille = 20
    static let stressHoldMicroseconds = 4_000

    /// Stress mode: a random lab thread is preempted every 1 to `interval` µs, for 1 to `sleep` µs.
    static let stressPreemptIntervalMicroseconds: Int64 = 50
    static let stressPreemptSleepMicroseconds: Int64 = 300

    /// After an iteration, the most its screens may take to be released (a block still finishing
    /// on another thread may hold the last reference): a cap; the wait ends as soon as every
    /// screen is gone or the lab is quiet.
    static let screenReleaseWait = 30.0

    /// Whether a screen released off the main thread fails a run of this kind of variant (true)
    /// or is only a note. Broken variants are judged on their own bug; reference fixes always
    /// keep the rule; exercises and corpus fixes keep it from the off-main-dealloc lab on.
    public static func holdsToViewRelease(_ kind: VariantKind?, exerciseKeepsIt: Bool) -> Bool {
        switch kind {
        case .fixed: true
        case .exercise, .validFix, .wrongFix: exerciseKeepsIt
        case .broken, nil: false
        }
    }

    /// `onIteration` hears each iteration as it starts (with its exploration point, if any);
    /// `onFailure` hears of each invariant failure of `play` as soon as it is recorded.
    @_spi(LabAuthoring) public static func run(
        _ lab: PlayableLab, plan: ScenarioPlan, onIteration: (Int, ExplorationPoint?) -> Void = { _, _ in },
        onFailure: @escaping (InvariantFailure) -> Void = { _ in }
    ) -> ScenarioOutcome {
        precondition(Thread.isMainThread, "scenarios drive the UI: run them on the main thread")
        var outcome = ScenarioOutcome()
        outcome.tsanEnabled = rl_tsan_enabled() != 0
        rl_quiet_begin_story()
        let start = Date()
        let reportsAtStart = rl_tsan_report_count()
        var noteCounts: [String: Int] = [:]
        _ = MainThreadChecker.shared.drain()

        // Explore mode: a survey of the story first (unless one point is asked for), then every
        // point it found, up to the plan's iterations.
        var schedule: [ScenarioRun.Exploration?]
        switch plan.mode {
        case .explore: schedule = [plan.point.map { .point($0) } ?? .survey]
        case .scripted, .stress: schedule = Array(repeating: nil, count: max(plan.iterations, 1))
        }
        // Stress: random preemption at the lab threads' synchronisation points (Preemption.c),
        // for windows between two of the student's own instructions, where no checkpoint is.
        let preempting =
            plan.mode == .stress
            && rl_preemption_start(
                plan.seed, stressPreemptIntervalMicroseconds,
                stressPreemptSleepMicroseconds) == 0
        let signalsAtStart = rl_preemption_signals_sent()
        defer { if preempting { rl_preemption_stop() } }
        let strict = Self.holdsToViewRelease(
            lab.variant(named: plan.variant)?.kind, exerciseKeepsIt: lab.exerciseKeepsViewReleaseOnMain)
        var index = 0
        while index < schedule.count {
            let iteration = index + 1
            let exploration = schedule[index]
            var point: ExplorationPoint?
            if case .point(let explored) = exploration { point = explored }
            onIteration(iteration, point)
            let seed = SeededRandom.hash(plan.seed, UInt64(iteration))
            Checkpoint.reset()
            rl_trace_begin_iteration(Int64(iteration))
            let stress = plan.mode == .stress
            Checkpoint.setJitter(seed: seed, maxMicroseconds: stress ? stressJitterMicroseconds : 0)
            Checkpoint.setHolds(permille: stress ? stressHoldPermille : 0, maxMicroseconds: stressHoldMicroseconds)
            let run = ScenarioRun(
                mode: plan.mode, iteration: iteration, seed: seed, exploration: exploration, onFailure: onFailure)
            if let point, point.pause == 0 {
                Checkpoint.armAny(hit: point.hit, limit: ExplorationPoint.timedHold, storyReleases: false)
            }
            ScreenLifetimes.shared.beginIteration(Int64(iteration))
            // Explore and stress: a lab thread waits at its end until the story is over, and one
            // that takes a strong reference to a controller waits with it until the user's next
            // action (StoryHolds.c): what it holds is let go of last, off main, every time.
            let holds = plan.mode != .scripted
            rl_story_holds_begin(holds ? 1 : 0, holds && strict ? 1 : 0)
            lab.play(variant: plan.variant, in: run)
            rl_story_holds_over()
            Checkpoint.setJitter(seed: 0, maxMicroseconds: 0)
            Checkpoint.setHolds(permille: 0, maxMicroseconds: 0)
            if case .survey = exploration {
                // Each pause's arrivals after it; a story without pauses: the iteration's.
                let end = Checkpoint.workerHits
                let counts = run.workerHitsAtPause.isEmpty ? [end] : run.workerHitsAtPause.map { end - $0 }
                let points = ExplorationPoint.points(
                    survey: counts, limit: max(plan.iterations - 1, 0),
                    firstPause: run.workerHitsAtPause.isEmpty ? 0 : 1)
                schedule += points.enumerated().filter { plan.shard?.includes($0.offset) ?? true }.map {
                    .point($0.element)
                }
            }
            if let point { outcome.explored.append(point.description) }

            var failures = run.failures
            for violation in MainThreadChecker.shared.drain() {
                failures.append(
                    InvariantFailure(
                        iteration: iteration,
                        message: "UI rule broken, \(violation.what)",
                        file: violation.file, line: violation.line))
            }
            // A screen stands for a view, which must be released on the main thread. A fixed
            // variant proves it every iteration, and so does an exercise (or a corpus fix) once
            // the learning path has taught the rule; elsewhere it is a note.
            let releases = ScreenLifetimes.shared.awaitReleases(of: Int64(iteration), timeout: screenReleaseWait)
            // A screen that died off main takes its label and spinner with it: one report, not three.
            let screensOffMain = Set(releases.filter { !$0.onMainThread && !$0.isPart }.map(\.threadID))
            for release in releases
            where !release.onMainThread && !(release.isPart && screensOffMain.contains(release.threadID)) {
                let what = "the \(release.screenName) was released on a background thread"
                if strict {
                    failures.append(
                        InvariantFailure(
                            iteration: iteration,
                            message:
                                "UI rule broken, \(what) (thread \(release.threadID)): its last owner let go of it there"
                                + " (a view must die on the main thread: the off-main-dealloc lab)",
                            file: release.file, line: release.line))
                } else {
                    noteCounts[what + " (the off-main-dealloc lab)", default: 0] += 1
                }
            }
            outcome.iterationsRun = iteration
            outcome.failures += failures
            for (name, value) in run.metrics { outcome.metrics[name, default: 0] += value }
            for note in run.notes { noteCounts[note, default: 0] += 1 }
            if !failures.isEmpty, outcome.firstFailureIteration == nil { outcome.firstFailureIteration = iteration }
            let reports = Int(rl_tsan_report_count() - reportsAtStart)
            if reports > 0, outcome.firstTSanIteration == nil { outcome.firstTSanIteration = iteration }
            outcome.tsanReports = reports
            let detected = !outcome.failures.isEmpty || reports > 0
            if detected, outcome.firstDetectionSeconds == nil {
                outcome.firstDetectionSeconds = Date().timeIntervalSince(start)
                outcome.firstDetectionPoint = point?.description
            }
            if detected && plan.stopAtFirstDetection { break }
            index += 1
        }
        if preempting {
            outcome.metrics["preemptions", default: 0] += Double(rl_preemption_signals_sent() - signalsAtStart)
        }
        outcome.notes = noteCounts.sorted { $0.key < $1.key }.map {
            $0.value > 1 ? "\($0.key) (\($0.value) iterations)" : $0.key
        }
        outcome.elapsedSeconds = Date().timeIntervalSince(start)
        return outcome
    }
}
