import CRaceLabSupport
import CompilerCheck
import Foundation
import LabKit
import RaceLabGrading
import RaceLabHarness
import RaceLabReports
import TSanReports

/// `racelab run`: labs run in children under TSan, judged, and shown as one table (or JSON, HTML).
/// Thin: the work is done by LabRunner and the reporters.
extension RaceLabCommandLine {
    // MARK: run

    /// `--jobs N` (children at once), else `RACELAB_JOBS`, else four times the cores.
    func jobs(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        try arguments.int("jobs", in: 1...64) ?? ChildPool.defaultJobs(environment: environment)
    }

    func lab(_ id: String) throws(UsageError) -> Lab {
        guard let lab = try registry.lab(id) else {
            throw UsageError("unknown lab '\(id)'; valid: \(try registry.ids.joined(separator: ", "))")
        }
        return lab
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

    /// `profileAsMarkdown`: the profile (`--profile`) also as a Markdown table (`bench profile`).
    func run(_ arguments: ParsedArguments, profileAsMarkdown: Bool = false) throws(UsageError) -> Int32 {
        // Where the run writes, before anything is built or run.
        let htmlFile = arguments.string("html")
        try checkOutput(file: htmlFile, option: "--html", what: "the HTML report")
        var logFolder: URL?
        if let logs = arguments.string("logs") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: logs, isDirectory: &isDirectory), isDirectory.boolValue,
                access(logs, W_OK) == 0
            else {
                throw UsageError(
                    "--logs keeps each child's standard error in a folder: '\(logs)' is not a folder you can write")
            }
            logFolder = URL(fileURLWithPath: logs)
        }
        let labs: [Lab]
        if arguments.has("all") {
            guard arguments.positionals.isEmpty else { throw UsageError("give a lab or --all, not both") }
            labs = try registry.labs
        } else {
            guard let id = arguments.positionals.first else {
                throw UsageError("which lab? give one of \(try registry.ids.joined(separator: ", ")), or --all")
            }
            labs = [try lab(id)]
        }
        let mode = try arguments.choice("mode", from: RunMode.allCases.map(\.rawValue)).flatMap(RunMode.init(rawValue:))
        let variantSelector = arguments.string("variant")
        var plan: [(Lab, Lab.Variant, RunMode)] = []
        for lab in labs {
            let chosen = try variants(variantSelector, in: lab)
            if chosen.contains(where: { $0.kind == .exercise }), let failed = rebuildIfExerciseChanged(lab) {
                return failed
            }
            for variant in chosen {
                for variantMode in mode.map({ [$0] }) ?? LabRunner.defaultModes(for: variant.kind) {
                    plan.append((lab, variant, variantMode))
                }
            }
        }
        var settings = RunSettings(
            executable: childProgram,
            iterations: try arguments.int("iterations", in: 1...1_000_000),
            runs: try arguments.int("runs", in: 1...10_000) ?? 1,
            seed: try arguments.uint64("seed") ?? UInt64.random(in: 1...999_999),
            stallTimeout: try arguments.double("timeout", in: 1...3600),
            programName: CommandLine.arguments.first ?? "racelab")
        settings.point = try arguments.explorationPoint()
        guard settings.point == nil || mode?.isSystematic == true else {
            throw UsageError("--point replays one exploration point: give it with --mode explore")
        }
        settings.trace = arguments.has("trace") || htmlFile != nil

        try requireTSan()

        let progress = ProgressLine(enabled: isatty(2) != 0)
        let started = Date()
        settings.jobs = try jobs(arguments)
        settings.logFolder = logFolder
        let rows = LabRunner.rows(plan, settings: settings)
        let jobs = settings.jobs
        let outcomes = LabRunner.run(rows, jobs: jobs) { done, total in
            progress.show("\(done)/\(total) runs finished (\(jobs) at a time)")
        }
        progress.clear()
        let allMet = outcomes.allSatisfy(\.met)
        let command = CommandLine.arguments.joined(separator: " ")
        let report = RunReport(
            command: command, seed: settings.seed, runsPerVariant: settings.runs,
            elapsedSeconds: Date().timeIntervalSince(started), outcomes: outcomes,
            lessons: Dictionary(uniqueKeysWithValues: labs.map { ($0.id, $0.info.lessonFile.path) }),
            compiler: compilerFindings(labs))
        if arguments.has("json") {
            print(Self.json(report))
        } else {
            let colour = isatty(1) != 0 && environment["NO_COLOR"] == nil
            print(
                "RaceLab: \(labs.count) lab(s), \(settings.runs) run(s) per variant and mode, base seed \(settings.seed), ThreadSanitizer on\n"
            )
            if let note = PlatformChecks.here.note { print(note + "\n") }
            print(TableReporter(colour: colour).render(outcomes, compiler: report.compiler))
            if arguments.has("trace") { print("\n" + SwimlaneRenderer.render(outcomes)) }
            let failed = outcomes.filter { !$0.met }.count
            print(
                String(
                    format: "%@ in %.1fs.", failed == 0 ? "All expectations met" : "\(failed) expectation(s) NOT met",
                    report.elapsedSeconds))
            if arguments.has("profile") {
                let profile = ProfileTable(outcomes)
                print("\n" + profile.render())
                if profileAsMarkdown { print("\nThe same, as Markdown:\n\n" + profile.markdown()) }
            }
        }
        if let htmlFile { try writeHTML(report, to: htmlFile) }
        return allMet ? 0 : 1
    }
}
