import Foundation
import LabKit
import RaceLabHarness

/// `racelab stress`'s declaration: its options, each read by its symbol.
enum StressCommand {
    static let runs = Option.number("runs", "R", "runs at most (default 100)", in: 1...1_000_000)
    static let seed = CommonOptions.seed
    static let timeout = Option.seconds(
        "timeout", "SECONDS", "a run still going after this is a hang (default 10)", in: 0.1...86_400)
    static let plain = Flag("plain", "run without RaceLab's preemption (to compare)")
    static let schedule = Option(
        "schedule", "WAY",
        "pauses (each thread a seeded pace of random pauses), priority (one thread at a time by seeded priorities that change at a few points: bugs that need preemptions in a given order) or both, in turn (default)",
        parse: StressSchedule.parse)
    static let steps = Option.number(
        "steps", "N", "points a run has, for priority's change points (default: counted by the runs)",
        in: 1...StressSchedule.maxSteps)
    static let keepGoing = Flag("keep-going", "do all the runs, counting how often each problem shows")
    static let ignore = Option(
        "ignore", "KINDS", "kinds of problem that do not count: report,crash,hang,exit (e.g. a known thread leak)",
        parse: ProgramStress.ignoredCategories)
    static let json = Flag("json", "every run as JSON")

    static let spec = CommandSpec(
        name: "stress", arguments: "-- PROGRAM [ARGS...]", positionals: 1...10_000,
        summary:
            "run any program built with ThreadSanitizer (Swift, C, C++) again and again with RaceLab's preemption at its synchronisation points; the first problem explained, with its seed",
        options: [runs, seed, timeout, plain, schedule, steps, keepGoing, ignore, json],
        details:
            "exit status: 0 no run found a problem, 1 one did (a ThreadSanitizer report, a crash, a hang, an exit status\nother than 0), 2 bad usage (a program that is not built with ThreadSanitizer among it)."
    )
}

extension RaceLabCommandLine {
    /// `racelab stress [options] -- PROGRAM [ARGS...]`. Thin: the work is done by ProgramStress.
    func stress(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        #if os(Linux)
            let stress = try programStress(arguments)
            let json = arguments[StressCommand.json]
            let live = ProgressLine(enabled: isatty(2) != 0 && !json)
            if !json {
                print(
                    "racelab stress: \(arguments.positionals.joined(separator: " ")): up to \(stress.runs) run(s), "
                        + (stress.preempts
                            ? "RaceLab's preemption at synchronisation points (\(stress.schedules.map(\.rawValue).joined(separator: " and ")), seed \(stress.seed)"
                            : "plain"))
            }
            let result = stress.run { run, finding in
                if let finding {
                    live.line("run \(run.index): \(finding)")
                } else {
                    live.show("run \(run.index) of \(stress.runs): no problem")
                }
            }
            live.clear()
            let report = ProgramStressReport(stress: stress, result: result, programName: CommandLine.arguments[0])
            if json {
                print(Self.json(result))
            } else {
                if let finding = report.findingText { print("\n" + finding + "\n") }
                print(report.summaryText)
            }
            return result.findings == 0 ? 0 : 1
        #else
            throw UsageError(
                "racelab stress needs Linux: it loads its preemption into the program with LD_PRELOAD, which this system does not offer; run it in the dev container (see README)"
            )
        #endif
    }

    /// The program and every option read and checked, in the order a bad one is reported.
    func programStress(_ arguments: ParsedArguments) throws(UsageError) -> ProgramStress {
        let words = arguments.positionals
        let program = URL(
            fileURLWithPath: words[0], relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        )
        .standardizedFileURL
        if let problem = StressPreload.problem(with: program) {
            throw UsageError(
                "\(problem); racelab stress runs a program built with ThreadSanitizer, e.g. racelab stress -- .build/debug/MyTool"
            )
        }
        let plain = arguments[StressCommand.plain]
        let schedules = try arguments[StressCommand.schedule]
        let steps = try arguments[StressCommand.steps]
        if plain, schedules != nil || steps != nil {
            throw UsageError("--plain runs without RaceLab's preemption: it takes no --schedule or --steps")
        }
        if let schedules, steps != nil, !schedules.contains(.priority) {
            throw UsageError("--steps is for the priority schedule: give --schedule priority or both")
        }
        let preload = StressPreload.library(besides: Self.executableURL)
        if !plain, let problem = StressPreload.problem(withLibrary: preload) {
            throw UsageError("\(problem), or use --plain")
        }
        var stress = ProgramStress(
            program: program, arguments: Array(words.dropFirst()), runs: try arguments[StressCommand.runs] ?? 100,
            seed: try arguments[StressCommand.seed] ?? UInt64.random(in: 1...999_999),
            timeout: try arguments[StressCommand.timeout] ?? ProgramStress.defaultTimeout,
            preempts: !plain, keepsGoing: arguments[StressCommand.keepGoing], preload: preload)
        stress.ignored = try arguments[StressCommand.ignore] ?? []
        if let schedules { stress.schedules = schedules }
        stress.steps = steps
        return stress
    }
}

extension RaceLabCommandLine {
    /// `racelab bench stress LIST`: racelab stress beside plain runs on a list of buggy programs.
    func stressBenchmark(_ paths: [String], _ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        guard paths.count == 1 else {
            throw UsageError(
                "bench stress takes one list of programs (lines of NAME PATH [ARGS...]), e.g. racelab bench stress programs.txt"
            )
        }
        if let other = BenchCommand.firstGiven(
            [BenchCommand.labs, BenchCommand.load, BenchCommand.jobs, BenchCommand.userRoot], in: arguments)
        {
            throw UsageError("bench stress takes --runs, --seeds, --seed and --json only, not --\(other)")
        }
        guard let data = FileManager.default.contents(atPath: paths[0]) else {
            throw UsageError(
                "cannot read '\(paths[0])'; bench stress takes a list of programs (lines of NAME PATH [ARGS...])")
        }
        let list = URL(fileURLWithPath: paths[0]).standardizedFileURL
        let programs = try StressBenchmark.programs(
            inList: String(decoding: data, as: UTF8.self), folder: list.deletingLastPathComponent())
        for program in programs {
            if let problem = StressPreload.problem(with: URL(fileURLWithPath: program.path)) {
                throw UsageError("\(program.name): \(problem)")
            }
        }
        let preload = StressPreload.library(besides: Self.executableURL)
        if let problem = StressPreload.problem(withLibrary: preload) { throw UsageError(problem) }
        let benchmark = StressBenchmark(
            programs: programs, runs: try arguments[BenchCommand.runs] ?? 100,
            series: try arguments[BenchCommand.seeds] ?? 3,
            seed: try arguments[BenchCommand.seed] ?? UInt64.random(in: 1...999_999), timeout: 3, preload: preload)
        let live = ProgressLine(enabled: isatty(2) != 0)
        let started = Date()
        let rows = benchmark.measure { live.phase("bench stress", $0) }
        live.clear()
        if arguments[BenchCommand.json] {
            print(Self.json(rows))
        } else {
            print(
                "racelab bench stress: \(programs.count) program(s), \(benchmark.series) series of up to \(benchmark.runs) runs each way, seed \(benchmark.seed) (series s: seed + 10000 s), \(String(format: "%.0f", Date().timeIntervalSince(started))) s"
            )
            print("Each cell: in how many series it showed (first run of each series; – not within the runs).\n")
            print(benchmark.table(rows))
        }
        return 0
    }
}
