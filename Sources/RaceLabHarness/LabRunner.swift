import Foundation
@_spi(LabAuthoring) import LabKit

/// How the parent runs variants: which binary, how many runs and iterations, what seed.
public struct RunSettings: Sendable {
    /// The child program (`racelab-child` of the build being judged).
    public var executable: URL
    /// nil: the lab's default for the mode.
    public var iterations: Int?
    public var runs: Int
    public var seed: UInt64
    /// Seconds without progress before the watchdog kills a child (nil: the lab's default).
    public var stallTimeout: Double?
    /// How the user invoked racelab, for reproduce commands they can paste.
    public var programName: String
    /// Record each run's interleaving timeline (RunVerdict.trace).
    public var trace = false
    /// Run children in `ChildSandbox` where the machine offers it.
    public var sandbox = true
    /// Explore mode: only this point (replaying a reported one).
    public var point: ExplorationPoint?
    /// Children at once (`ChildPool`).
    public var jobs = 1
    /// Where to keep each child's standard error (`--logs`); nil: nowhere.
    public var logFolder: URL?
    /// Explore mode: children that share each run's points (`ExplorationShard`); 1: one child;
    /// 0: as many as leave no job idle (up to 4) when there are fewer explore runs than jobs.
    public var exploreShards = 0
    /// The story with nothing of RaceLab's armed (`racelab run --plain`; `PlainPass`).
    public var plain = false
    /// Stress: every story preempted this way (`racelab run --schedule`); nil: in turn.
    public var schedule: StressSchedule?

    public init(
        executable: URL, iterations: Int? = nil, runs: Int = 1, seed: UInt64, stallTimeout: Double? = nil,
        programName: String = "racelab"
    ) {
        self.executable = executable
        self.iterations = iterations
        self.runs = runs
        self.seed = seed
        self.stallTimeout = stallTimeout
        self.programName = programName
    }
}

/// Runs lab variants in child processes and judges them.
public enum LabRunner {
    /// The modes a variant of `lab` is run in when none is asked for: broken variants are shown
    /// in the passes that demonstrate them (`PassPolicy.showsBroken`: the scripted demo); fixed
    /// variants and exercises must survive every pass that is for the lab.
    public static func defaultModes(for variant: Lab.Variant, in lab: LabInfo) -> [RunMode] {
        // Corpus fixes: as an exercise.
        let modes = RunMode.allCases.filter { $0.applies(to: variant, in: lab) }
        return variant.kind == .broken ? modes.filter(\.policy.showsBroken) : modes
    }

    /// The rows of `racelab run`: `settings.runs` children per variant and mode, except explore
    /// (without `--point`), which runs once: it is systematic, one run visits every point of the
    /// story (split into shards over the jobs), so a second run would replay the same points.
    public static func rows(_ plan: [(Lab, Lab.Variant, RunMode)], settings: RunSettings) -> [Row] {
        plan.map { lab, variant, mode in
            var own = settings
            if mode.isSystematic && settings.point == nil { own.runs = 1 }
            return Row(lab: lab, variant: variant, mode: mode, settings: own)
        }
    }

    /// One row of a table: a variant in a mode, `settings.runs` children.
    public struct Row: Sendable {
        public var lab: Lab
        public var variant: Lab.Variant
        public var mode: RunMode
        public var settings: RunSettings

        public init(lab: Lab, variant: Lab.Variant, mode: RunMode, settings: RunSettings) {
            self.lab = lab
            self.variant = variant
            self.mode = mode
            self.settings = settings
        }
    }

    /// Run `settings.runs` children for one variant in one mode, `settings.jobs` at a time. Run k
    /// uses seed `settings.seed + k`. `onRun` hears each run as it ends (any thread).
    public static func run(
        _ lab: Lab, variant: Lab.Variant, mode: RunMode, settings: RunSettings,
        onRun: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> VariantOutcome {
        run([Row(lab: lab, variant: variant, mode: mode, settings: settings)], jobs: settings.jobs) { done, _ in
            onRun(done)
        }[0]
    }

    /// An explore run is split into at most this many shards (when the jobs allow).
    public static let maxExploreShards = 8

    /// Every child of every row, `jobs` at a time; the outcomes in row order. Scripted runs
    /// start first (the quick, sure catches), then the longest children first, so none starts
    /// late and finishes last: a whole explore run (one child walks every point: the longest
    /// there is), then stress, then explore shards (a sharded explore is many short children
    /// that fill the gaps; `racelab check`).
    /// `stopGroups` (one group number per row): once a run of a group catches a bug, the runs of
    /// that group not yet started are left out of its outcomes (a grade that is already 0 needs
    /// no more evidence). A catch by a first-starting run (scripted) also stops the group's
    /// other runs still going, and leaves out every one of them, ended or not: what such a
    /// grade shows is then the scripted runs' alone, whatever the timing, and a wrong fix caught
    /// there is known in seconds. `onRun` hears how many runs have ended of how many (any thread).
    public static func run(
        _ rows: [Row], jobs: Int, stopGroups: [Int]? = nil,
        onRun: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) -> [VariantOutcome] {
        let tasks = ChildTasks(rows, jobs: jobs)
        let finished = Counter()
        let caught = CaughtGroups()
        let caughtFirst = CaughtGroups()
        let unjudgedFirst = UnjudgedRuns(
            groups: tasks.list.indices.filter(tasks.startsFirst).compactMap { stopGroups?[tasks.list[$0].0] })
        let verdicts = ChildPool.map(tasks.list.count, jobs: jobs) { index -> RunVerdict? in
            let (row, run, shard) = tasks.list[index]
            let item = rows[row]
            let group = stopGroups?[row]
            let first = tasks.startsFirst(index)
            defer { onRun(finished.next(), tasks.list.count) }
            defer { if first, let group { unjudgedFirst.judged(group) } }
            if let group, caught.contains(group) { return nil }
            let iterations = item.settings.iterations ?? item.lab.info.defaultIterations[item.mode] ?? 1
            var plan = ScenarioPlan(
                lab: item.lab.id, variant: item.variant.name, mode: item.mode, iterations: iterations,
                seed: item.settings.seed &+ UInt64(run), stopAtFirstDetection: true,
                point: item.mode.isSystematic ? item.settings.point : nil)
            if tasks.shards(row) > 1 { plan.shard = ExplorationShard(index: shard, count: tasks.shards(row)) }
            if item.settings.plain { plan.plain = true }
            if item.mode == .stress { plan.schedule = item.settings.schedule }
            var stopWhen: (@Sendable () -> Bool)?
            var beforeJudging: (@Sendable () -> Void)?
            if let group, !first {
                stopWhen = { caughtFirst.contains(group) }
                beforeJudging = { unjudgedFirst.wait(group) }
            }
            let verdict = runOnce(
                plan, kind: item.variant.kind,
                stallTimeout: item.settings.stallTimeout ?? item.lab.info.watchdogSeconds,
                settings: item.settings, stopWhen: stopWhen, beforeJudging: beforeJudging)
            if let group, let verdict, verdict.detected || verdict.wasForged {
                caught.insert(group)
                if first { caughtFirst.insert(group) }
            }
            return verdict
        }
        return rows.indices.map { row in
            let item = rows[row]
            // A group its scripted runs caught keeps those runs only (the rest were stopped, or
            // ended by chance before the catch).
            let keep = { (index: Int) in
                tasks.startsFirst(index) || stopGroups.map { !caughtFirst.contains($0[row]) } ?? true
            }
            let runs = (0..<item.settings.runs).compactMap { run in
                RunVerdict.merging(
                    tasks.list.indices.filter { tasks.list[$0].0 == row && tasks.list[$0].1 == run && keep($0) }
                        .sorted { tasks.list[$0].2 < tasks.list[$1].2 }.compactMap { verdicts[$0] })
            }
            return VariantOutcome(
                lab: item.lab.id, variant: item.variant.name, kind: item.variant.kind, mode: item.mode, runs: runs,
                languageMode: item.variant.languageMode)
        }
    }

    /// One child run of `plan` in a private folder of its own, judged.
    public static func runOnce(_ plan: ScenarioPlan, kind: VariantKind, stallTimeout: Double, settings: RunSettings)
        -> RunVerdict
    {
        // (Without `stopWhen` a run is never stopped, so there is always a verdict.)
        runOnce(plan, kind: kind, stallTimeout: stallTimeout, settings: settings, stopWhen: nil, beforeJudging: nil)!
    }

    /// `runOnce`, stopped and left without a verdict (nil) once `stopWhen` says the run is no
    /// longer needed. `beforeJudging` is called when the child has ended, before its log is read:
    /// it may wait for what decides `stopWhen`.
    static func runOnce(
        _ plan: ScenarioPlan, kind: VariantKind, stallTimeout: Double, settings: RunSettings,
        stopWhen: (@Sendable () -> Bool)?, beforeJudging: (@Sendable () -> Void)?
    ) -> RunVerdict? {
        let reproduce = reproduceCommand(plan, program: settings.programName)
        let folder: RunFolder
        do { folder = try RunFolder.make() } catch {
            return VerdictBuilder.verdict(
                plan: plan, kind: kind, child: ChildOutcome(ending: .failedToStart(error.description)),
                reproduce: reproduce)
        }
        defer { folder.remove() }
        let traceFile = settings.trace ? try? TraceFile.create(in: folder.url) : nil
        var request = childRequest(
            settings.executable, arguments: childArguments(plan) + (traceFile.map { ["--trace-file", $0.path] } ?? []),
            folder: folder, stallTimeout: stallTimeout, sandbox: settings.sandbox)
        request.startupTimeout = max(60, stallTimeout)
        request.stopWhen = stopWhen
        if stopWhen?() == true { return nil }  // (while it waited for a slot, say)
        let child = ChildRunner.run(request)
        // Reading a child's reports is the parent's costliest work (~0.25 CPU-s for 100 KB of
        // them in a debug build): a run that ended as the group's scripted runs were still
        // going waits for their verdicts, and is not judged if they caught the bug, as its
        // verdict would be left out (`run`'s `keep`).
        beforeJudging?()
        if child.stoppedUnneeded || stopWhen?() == true { return nil }
        saveLog(child, plan: plan, settings: settings)
        var verdict = VerdictBuilder.verdict(plan: plan, kind: kind, child: child, reproduce: reproduce)
        if plan.mode.isSystematic, verdict.detected || verdict.harnessError != nil,
            let text = child.result?.firstDetectionPoint ?? child.lastProgress?.point,
            let point = ExplorationPoint(text)
        {
            // The point that caught it: the command replays just that one.
            var exact = plan
            exact.point = point
            verdict.point = text
            verdict.reproduce = reproduceCommand(exact, program: settings.programName)
        }
        verdict.explored = child.result.map { $0.explored.count }
        if let without = child.result?.wentWithout, !without.isEmpty { verdict.wentWithout = without }
        if let traceFile { verdict.trace = TraceFile.read(traceFile) }
        if !folder.suppressionsIntact && verdict.harnessError == nil {
            verdict.markForged("the run rewrote the TSan settings file the harness gave it")
        }
        return verdict
    }

    /// How a child of `executable` is started in `folder`: its environment (TSan's options, the
    /// sealed suppressions as fd 4), the folder as its working directory, inside `ChildSandbox`
    /// where the machine offers it and `sandbox` is on.
    public static func childRequest(
        _ executable: URL, arguments: [String], folder: RunFolder, stallTimeout: Double, sandbox: Bool
    ) -> ChildRequest {
        var request = ChildRequest(
            executable: executable, arguments: arguments, environment: TSanEnvironment.childEnvironment(folder: folder),
            directory: folder.url, stallTimeout: stallTimeout)
        request.inheritedDescriptor = folder.suppressionsDescriptor
        request.endsOnOutputFlood = true
        // The kernel's limits on the child's tasks and memory, where they can be set.
        let group = sandbox ? ChildLimits.here?.group() : nil
        if sandbox,
            let (program, wrapped) = ChildSandbox.wrap(
                executable, arguments: arguments, folder: folder.url, group: group)
        {
            request.executable = program
            request.arguments = wrapped
            request.group = group
        } else {
            group?.remove()
        }
        return request
    }

    /// For whoever maintains a lab: `settings.logFolder` (`racelab run --logs DIR`) keeps every
    /// child's standard error (TSan's reports and crash stacks, whole) as
    /// DIR/<lab>-<variant>-<mode>-<seed>.log.
    static func saveLog(_ child: ChildOutcome, plan: ScenarioPlan, settings: RunSettings) {
        guard let folder = settings.logFolder else { return }
        let name =
            "\(plan.lab)-\(plan.variant)-\(plan.mode.rawValue)-\(plan.seed)"
            + (plan.shard.map { "-shard\($0.index)" } ?? "") + ".log"
        let text = child.stderr + (child.stderrTruncated ? "\n[racelab: standard error was cut here]\n" : "")
        try? Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    public static func childArguments(_ plan: ScenarioPlan) -> [String] {
        [
            "run", plan.lab, "--variant", plan.variant, "--mode", plan.mode.rawValue,
            "--iterations", String(plan.iterations), "--seed", String(plan.seed)
        ] + (plan.point.map { ["--point", $0.description] } ?? [])
            + (plan.shard.map { ["--shard", $0.description] } ?? []) + (plan.plain == true ? ["--plain"] : [])
            + (plan.schedule.map { ["--schedule", $0.rawValue] } ?? [])
    }

    /// The command a learner types to see this exact run again.
    public static func reproduceCommand(_ plan: ScenarioPlan, program: String = "racelab") -> String {
        "\(program) run \(plan.lab) --variant \(plan.variant) --mode \(plan.mode.rawValue) --iterations \(plan.iterations) --seed \(plan.seed)"
            + (plan.point.map { " --point \($0)" } ?? "") + (plan.plain == true ? " --plain" : "")
            + (plan.schedule.map { " --schedule \($0.rawValue)" } ?? "")
    }
}

/// The children of `LabRunner.run`'s rows, as (row, run, shard), in the order they start: an
/// explore run is split into shards that explore side by side.
private struct ChildTasks: Sendable {
    let list: [(Int, Int, Int)]
    private let shardCounts: [Int]
    private let orders: [Int]
    /// Each row's pass's own start order (as if not sharded).
    private let modeOrders: [Int]

    init(_ rows: [LabRunner.Row], jobs: Int) {
        let exploreRuns = rows.filter { $0.mode.isSystematic && $0.settings.point == nil }.map(\.settings.runs)
            .reduce(0, +)
        let autoShards = max(1, min(LabRunner.maxExploreShards, jobs / max(exploreRuns, 1)))
        let shardCounts = rows.map { row in
            guard row.mode.isSystematic && row.settings.point == nil else { return 1 }
            return row.settings.exploreShards == 0 ? autoShards : row.settings.exploreShards
        }
        let orders = rows.indices.map { rows[$0].mode.startOrder(sharded: shardCounts[$0] > 1) }
        list = rows.indices.flatMap { row in
            (0..<rows[row].settings.runs).flatMap { run in (0..<shardCounts[row]).map { (row, run, $0) } }
        }
        .sorted { (orders[$0.0], $0.0, $0.1, $0.2) < (orders[$1.0], $1.0, $1.1, $1.2) }
        self.shardCounts = shardCounts
        self.orders = orders
        modeOrders = rows.map { $0.mode.startOrder(sharded: false) }
    }

    func shards(_ row: Int) -> Int { shardCounts[row] }

    /// Whether task `index` is of the pass that starts first (scripted), by its mode: never
    /// whichever pass happens to start first in a grade that has no scripted runs.
    func startsFirst(_ index: Int) -> Bool { modeOrders[list[index].0] == Self.firstOrder }

    private static let firstOrder = RunMode.allCases.map { $0.startOrder(sharded: false) }.min()
}

/// How many of each group's first-starting runs are not yet judged (`LabRunner.run`): a later
/// run of the group waits for them before its own log is read.
private final class UnjudgedRuns: @unchecked Sendable {
    private let condition = NSCondition()
    private var counts: [Int: Int] = [:]

    init(groups: [Int]) { for group in groups { counts[group, default: 0] += 1 } }

    func judged(_ group: Int) {
        condition.withLock {
            counts[group, default: 0] -= 1
            condition.broadcast()
        }
    }

    /// Returns once every first-starting run of `group` is judged (at once for a group without).
    func wait(_ group: Int) {
        condition.withLock { while counts[group, default: 0] > 0 { condition.wait() } }
    }
}

/// The groups in which a run has caught a bug (`LabRunner.run`'s `stopGroups`).
private final class CaughtGroups: @unchecked Sendable {
    private let lock = NSLock()
    private var groups: Set<Int> = []
    func insert(_ group: Int) { _ = lock.withLock { groups.insert(group) } }
    func contains(_ group: Int) -> Bool { lock.withLock { groups.contains(group) } }
}
