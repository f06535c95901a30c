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

    public init(executable: URL, iterations: Int? = nil, runs: Int = 1, seed: UInt64, stallTimeout: Double? = nil,
                programName: String = "racelab") {
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
    /// The modes a variant is run in when none is asked for: broken variants are shown in the
    /// scripted demo; fixed variants and exercises must survive the scripted interleaving, every
    /// single-preemption point of it, and the stress soak.
    public static func defaultModes(for kind: VariantKind) -> [RunMode] {
        kind == .broken ? [.scripted] : [.scripted, .explore, .stress]  // corpus fixes: as an exercise
    }

    /// Run `settings.runs` children for one variant in one mode. Run k uses seed `settings.seed + k`.
    public static func run(
        _ lab: Lab, variant: Lab.Variant, mode: RunMode, settings: RunSettings,
        onRun: (Int) -> Void = { _ in }
    ) -> VariantOutcome {
        let iterations = settings.iterations ?? lab.info.defaultIterations[mode] ?? 1
        var verdicts: [RunVerdict] = []
        for index in 0..<settings.runs {
            onRun(index + 1)
            let plan = ScenarioPlan(
                lab: lab.id, variant: variant.name, mode: mode, iterations: iterations,
                seed: settings.seed &+ UInt64(index), stopAtFirstDetection: true, point: mode == .explore ? settings.point : nil)
            verdicts.append(runOnce(plan, kind: variant.kind, stallTimeout: settings.stallTimeout ?? lab.info.watchdogSeconds, settings: settings))
        }
        return VariantOutcome(lab: lab.id, variant: variant.name, kind: variant.kind, mode: mode, runs: verdicts)
    }

    /// One child run of `plan` in a private folder of its own, judged.
    public static func runOnce(_ plan: ScenarioPlan, kind: VariantKind, stallTimeout: Double, settings: RunSettings) -> RunVerdict {
        let reproduce = reproduceCommand(plan, program: settings.programName)
        let folder: RunFolder
        do { folder = try RunFolder.make() } catch {
            return VerdictBuilder.verdict(plan: plan, kind: kind, child: ChildOutcome(ending: .failedToStart(error.description)), reproduce: reproduce)
        }
        defer { folder.remove() }
        var request = ChildRequest(
            executable: settings.executable, arguments: childArguments(plan),
            environment: TSanEnvironment.childEnvironment(folder: folder), directory: folder.url, stallTimeout: stallTimeout)
        request.inheritedDescriptor = folder.suppressionsDescriptor
        let traceFile = settings.trace ? try? TraceFile.create(in: folder.url) : nil
        if let traceFile { request.arguments += ["--trace-file", traceFile.path] }
        if settings.sandbox, let (program, arguments) = ChildSandbox.wrap(request.executable, arguments: request.arguments, folder: folder.url) {
            request.executable = program
            request.arguments = arguments
        }
        let child = ChildRunner.run(request)
        var verdict = VerdictBuilder.verdict(plan: plan, kind: kind, child: child, reproduce: reproduce)
        if plan.mode == .explore, verdict.detected || verdict.harnessError != nil,
           let text = child.result?.firstDetectionPoint ?? child.lastProgress?.point, let point = ExplorationPoint(text) {
            // The point that caught it: the command replays just that one.
            var exact = plan
            exact.point = point
            verdict.point = text
            verdict.reproduce = reproduceCommand(exact, program: settings.programName)
        }
        verdict.explored = child.result.map { $0.explored.count }
        if let traceFile { verdict.trace = TraceFile.read(traceFile) }
        if !folder.suppressionsIntact && verdict.harnessError == nil {
            verdict.harnessError = "\(VerdictBuilder.forgedMarker): the run rewrote the TSan settings file the harness gave it"
        }
        return verdict
    }

    public static func childArguments(_ plan: ScenarioPlan) -> [String] {
        ["run", plan.lab, "--variant", plan.variant, "--mode", plan.mode.rawValue,
         "--iterations", String(plan.iterations), "--seed", String(plan.seed)] + (plan.point.map { ["--point", $0.description] } ?? [])
    }

    /// The command a learner types to see this exact run again.
    public static func reproduceCommand(_ plan: ScenarioPlan, program: String = "racelab") -> String {
        "\(program) run \(plan.lab) --variant \(plan.variant) --mode \(plan.mode.rawValue) --iterations \(plan.iterations) --seed \(plan.seed)"
            + (plan.point.map { " --point \($0)" } ?? "")
    }
}
