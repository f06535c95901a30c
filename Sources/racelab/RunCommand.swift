import CRaceLabSupport
import CompilerCheck
import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness
import RaceLabReports
import TSanReports

/// `racelab run`'s declaration: its options, each read by its symbol.
enum RunCommand {
    static let all = Flag("all", "every lab, one table (instead of <lab>)")
    static let variant = Option.text(
        "variant", "broken|fixed|exercise|all|NAME", "which variants (default: broken and fixed)")
    static let mode = Option.runMode(modeHelp)
    /// `--mode`'s help: what each pass does (`PassPolicy.helpText`), then which a variant gets
    /// when no mode is asked for (`LabRunner.defaultModes`).
    static var modeHelp: String {
        let each = RunMode.allCases.map { "\($0.rawValue) \($0.policy.helpText)" }.joined(separator: "; ")
        let demo = RunMode.allCases.filter(\.policy.showsBroken).map(\.rawValue).joined(separator: " and ")
        return "\(each) (default: broken \(demo); fixed and exercise every mode that is for the lab)"
    }
    static let point = Option.explorationPoint(
        "explore only pause P moved to arrival K (a point a failure reported)")
    static let iterations = Option.number(
        "iterations", "N", "iterations per run (default: the lab's, per mode)", in: 1...1_000_000)
    static let runs = Option.number("runs", "N", "child processes per variant and mode (default 1)", in: 1...10_000)
    static let seed = Option.unsigned("seed", "S", "base seed; run k uses S+k (default: random, always printed)")
    static let timeout = Option.seconds(
        "timeout", "SECONDS", "watchdog: kill a child with no progress for this long (default: the lab's)",
        in: 1...3600)
    static let jobs = CommonOptions.jobs
    static let logs = Option.text(
        "logs", "DIR",
        "keep each child's standard error (TSan's reports, crash stacks) as DIR/<lab>-<variant>-<mode>-<seed>.log")
    static let trace = Flag(
        "trace", "show the interleaving (threads side by side) of the first detected or failing run of each row")
    static let html = Option.text("html", "FILE", "also write one self-contained HTML report (implies --trace)")
    static let plain = Flag(
        "plain",
        "the stress story with nothing of RaceLab's armed (no delays, preemption or job order): what a plain test sees")
    static let schedule = Option(
        "schedule", "WAY",
        "stress: how its stories preempt the lab's threads: pauses (a random running thread stopped a random moment), priority (one thread at a time by seeded priorities that change at a few points) or both, in turn (default)",
        parse: StressSchedule.parse)
    static let profile = Flag(
        "profile",
        "after the table, where the time went: one row per lab, variant and mode, the slowest first "
            + "(--json has each run's profile either way)")
    static let json = Flag("json", "machine-readable output")

    static let spec = CommandSpec(
        name: "run", arguments: "[<lab>]", positionals: 0...1,
        summary: "run one lab (its broken and fixed variants by default), or every lab as one table",
        options: [
            all, variant, mode, point, iterations, runs, seed, timeout, jobs, logs, trace, html, profile, json, plain,
            schedule
        ],
        details: """
            --profile: seconds added up over each row's child processes. WALL their elapsed time; CPU their
              processes' user and system time; START from the spawn until the story began (process start,
              ThreadSanitizer's set-up); STORY the iterations; END from the story's end until the child was gone
              (its result, its exit, ThreadSanitizer's at-exit work). Inside STORY, on the main thread: QUIET
              looks at whether the lab has gone quiet, WAITS the story's own waits (less their quiet looks),
              OTHER the rest. HELD and SLEPT: thread-seconds lab threads were held or paused by the harness, or
              slept for the stress pass; PREEMPT the stress pass's preemption signals. Then the total, and each
              column's share of the total wall time.

            exit status: 0 every expectation met (broken caught, fixed and exercise clean), 1 an expectation
            failed, 2 bad usage or a build without ThreadSanitizer.
            """
    )
}

/// What `racelab run` was asked to do, read and checked before anything is built or run.
struct RunRequest {
    var labs: [Lab]
    /// Every row of the table, in order: a lab, one of its variants, a mode.
    var plan: [(Lab, Lab.Variant, RunMode)]
    /// The labs whose exercise runs: built again first if it changed since the last build.
    var exerciseLabs: [Lab]
    var settings: RunSettings
    var htmlFile: String?
    /// `--trace`: the interleavings shown after the table (`--html` records them only).
    var showsTrace: Bool
    var profile: Bool
    var json: Bool
}

/// `racelab run`: labs run in children under TSan, judged, and shown as one table (or JSON, HTML).
/// Thin: the work is done by LabRunner and the reporters.
extension RaceLabCommandLine {
    /// `profileAsMarkdown`: the profile (`--profile`) also as a Markdown table (`bench profile`).
    func run(_ arguments: ParsedArguments, profileAsMarkdown: Bool = false) throws(UsageError) -> Int32 {
        let request = try runRequest(arguments)
        for lab in request.exerciseLabs {
            if let failed = rebuildIfExerciseChanged(lab) { return failed }
        }
        let report = runPlan(request)
        if request.json {
            print(Self.json(report))
        } else {
            printTable(report, request, profileAsMarkdown: profileAsMarkdown)
        }
        if let htmlFile = request.htmlFile { try writeHTML(report, to: htmlFile) }
        return report.outcomes.allSatisfy(\.met) ? 0 : 1
    }

    /// The variants of `lab` to run: those `selector` names, and with `mode` those the pass is
    /// for (the async pass, in a lab of threads: its fixes of tasks). nil: the pass is for none
    /// of the lab's variants, skipped in --all; a lab asked for `alone` is refused instead,
    /// before any work.
    func planned(_ lab: Lab, selector: String?, mode: RunMode?, alone: Bool) throws(UsageError) -> [Lab.Variant]? {
        if let mode, !mode.applies(to: lab) {
            guard alone else { return nil }
            let those = try registry.labs.filter { mode.applies(to: $0) }.map(\.id)
            throw UsageError(
                "the \(mode.rawValue) pass is not for \(lab.id); it is for \(those.joined(separator: ", "))")
        }
        let chosen = try variants(selector, in: lab)
        guard let mode else { return chosen }
        let those = chosen.filter { mode.applies(to: $0, in: lab.info) }
        if those.isEmpty, alone {
            let named = lab.variants.filter { mode.applies(to: $0, in: lab.info) }.map(\.name)
            throw UsageError(
                "the \(mode.rawValue) pass is for \(lab.id)'s \(named.joined(separator: ", ")) only, not the variants asked for"
            )
        }
        return those
    }

    /// Every option read and checked, in the order a bad one is reported.
    func runRequest(_ arguments: ParsedArguments) throws(UsageError) -> RunRequest {
        // Where the run writes, before anything is built or run.
        let htmlFile = try arguments[RunCommand.html]
        try checkOutput(file: htmlFile, option: "--html", what: "the HTML report")
        let logFolder = try logFolder(try arguments[RunCommand.logs])
        let labs = try runLabs(arguments)
        let mode = try arguments[RunCommand.mode]
        let selector = try arguments[RunCommand.variant]
        var plan: [(Lab, Lab.Variant, RunMode)] = []
        var exerciseLabs: [Lab] = []
        for lab in labs {
            guard let chosen = try planned(lab, selector: selector, mode: mode, alone: labs.count == 1) else {
                continue
            }
            if chosen.contains(where: { $0.kind == .exercise }) { exerciseLabs.append(lab) }
            for variant in chosen {
                for variantMode in mode.map({ [$0] }) ?? LabRunner.defaultModes(for: variant, in: lab.info) {
                    plan.append((lab, variant, variantMode))
                }
            }
        }
        var settings = RunSettings(
            executable: childProgram, iterations: try arguments[RunCommand.iterations],
            runs: try arguments[RunCommand.runs] ?? 1,
            seed: try arguments[RunCommand.seed] ?? UInt64.random(in: 1...999_999),
            stallTimeout: try arguments[RunCommand.timeout], programName: CommandLine.arguments.first ?? "racelab")
        settings.point = try arguments[RunCommand.point]
        guard settings.point == nil || mode?.isSystematic == true else {
            throw UsageError("--point replays one exploration point: give it with --mode explore")
        }
        settings.trace = arguments[RunCommand.trace] || htmlFile != nil
        if arguments[RunCommand.plain] {
            guard let mode, mode.storyMode == .stress else {
                throw UsageError("--plain plays the stress story unarmed: give it with --mode stress or --mode async")
            }
            settings.plain = true
        }
        if let ways = try arguments[RunCommand.schedule] {
            guard mode == .stress, !settings.plain else {
                throw UsageError(
                    "--schedule orders the stress pass's preemption: give it with --mode stress (not --plain)")
            }
            settings.schedule = ways.count == 1 ? ways[0] : nil
        }
        try requireTSan()
        settings.jobs = try jobs(arguments)
        settings.logFolder = logFolder
        return RunRequest(
            labs: labs, plan: plan, exerciseLabs: exerciseLabs, settings: settings, htmlFile: htmlFile,
            showsTrace: arguments[RunCommand.trace], profile: arguments[RunCommand.profile],
            json: arguments[RunCommand.json])
    }

    /// `--logs DIR`: a folder that is there and writable.
    func logFolder(_ path: String?) throws(UsageError) -> URL? {
        guard let path else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
            access(path, W_OK) == 0
        else {
            throw UsageError(
                "--logs keeps each child's standard error in a folder: '\(path)' is not a folder you can write")
        }
        return URL(fileURLWithPath: path)
    }

    /// `<lab>` or `--all`, one of them.
    func runLabs(_ arguments: ParsedArguments) throws(UsageError) -> [Lab] {
        if arguments[RunCommand.all] {
            guard arguments.positionals.isEmpty else { throw UsageError("give a lab or --all, not both") }
            return try registry.labs
        }
        guard let id = arguments.positionals.first else {
            throw UsageError("which lab? give one of \(try registry.ids.joined(separator: ", ")), or --all")
        }
        return [try lab(id)]
    }

    /// Which variants `--variant` names in `lab`.
    func variants(_ selector: String?, in lab: Lab) throws(UsageError) -> [Lab.Variant] {
        switch selector {
        case nil: return lab.variants.filter { $0.kind == .broken || $0.kind == .fixed }
        case "all": return lab.variants.filter { !$0.kind.isCorpus }
        case "corpus":
            let matching = lab.variants.filter(\.kind.isCorpus)
            guard !matching.isEmpty else { throw UsageError("lab '\(lab.id)' has no grading corpus in this build") }
            return matching
        case let name?:
            if let kind = VariantKind(rawValue: name) {
                let matching = lab.variants.filter { $0.kind == kind }
                guard !matching.isEmpty else {
                    throw UsageError("lab '\(lab.id)' has no \(name) variant in this build")
                }
                return matching
            }
            guard let variant = lab.variant(named: name) else {
                let kinds = VariantKind.allCases.map(\.rawValue)
                let valid = kinds + ["all", "corpus"] + lab.variants.map(\.name).filter { !kinds.contains($0) }
                throw UsageError(
                    "unknown variant '\(name)' for lab '\(lab.id)'; valid: \(valid.joined(separator: ", "))")
            }
            return [variant]
        }
    }

    /// Every row run, a live count of the runs on a terminal; the report of them all.
    func runPlan(_ request: RunRequest) -> RunReport {
        let settings = request.settings
        let progress = ProgressLine(enabled: isatty(2) != 0)
        let started = Date()
        let outcomes = LabRunner.run(LabRunner.rows(request.plan, settings: settings), jobs: settings.jobs) {
            done, total in
            progress.show("\(done)/\(total) runs finished (\(settings.jobs) at a time)")
        }
        progress.clear()
        return RunReport(
            command: CommandLine.arguments.joined(separator: " "), seed: settings.seed,
            runsPerVariant: settings.runs, elapsedSeconds: Date().timeIntervalSince(started), outcomes: outcomes,
            lessons: Dictionary(uniqueKeysWithValues: request.labs.map { ($0.id, $0.info.lessonFile.path) }),
            compiler: compilerFindings(request.labs))
    }

    /// The table, and what `--trace` and `--profile` add after it.
    func printTable(_ report: RunReport, _ request: RunRequest, profileAsMarkdown: Bool) {
        let outcomes = report.outcomes
        let colour = isatty(1) != 0 && environment["NO_COLOR"] == nil
        print(
            "RaceLab: \(request.labs.count) lab(s), \(report.runsPerVariant) run(s) per variant and mode, base seed \(report.seed), ThreadSanitizer on\n"
        )
        if let note = PlatformChecks.here.note { print(note + "\n") }
        print(TableReporter(colour: colour).render(outcomes, compiler: report.compiler))
        if request.showsTrace { print("\n" + SwimlaneRenderer.render(outcomes)) }
        let failed = outcomes.filter { !$0.met }.count
        print(
            String(
                format: "%@ in %.1fs.", failed == 0 ? "All expectations met" : "\(failed) expectation(s) NOT met",
                report.elapsedSeconds))
        if request.profile {
            let profile = ProfileTable(outcomes)
            print("\n" + profile.render())
            if profileAsMarkdown { print("\nThe same, as Markdown:\n\n" + profile.markdown()) }
        }
    }
}
