import Foundation
import RaceLabHarness

extension RaceLabCommandLine {
    /// `racelab stress [options] -- PROGRAM [ARGS...]`.
    func stress(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        #if os(Linux)
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
            let plain = arguments.has("plain")
            let preload = StressPreload.library(besides: Self.executableURL)
            if !plain, let problem = StressPreload.problem(withLibrary: preload) {
                throw UsageError("\(problem), or use --plain")
            }
            var stress = ProgramStress(
                program: program, arguments: Array(words.dropFirst()),
                runs: try arguments.int("runs", in: 1...1_000_000) ?? 100,
                seed: try arguments.uint64("seed") ?? UInt64.random(in: 1...999_999),
                timeout: try arguments.double("timeout", in: 0.1...86_400) ?? ProgramStress.defaultTimeout,
                preempts: !plain, keepsGoing: arguments.has("keep-going"), preload: preload)
            let ignored = Set(
                (arguments.string("ignore") ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
            if let unknown = ignored.first(where: { !ProgramStress.categories.contains($0) }) {
                throw UsageError(
                    "--ignore takes a comma-separated list of report, crash, hang, exit, not '\(unknown)'")
            }
            stress.ignored = ignored
            let json = arguments.has("json")
            let live = ProgressLine(enabled: isatty(2) != 0 && !json)
            if !json {
                print(
                    "racelab stress: \(words.joined(separator: " ")): up to \(stress.runs) run(s), "
                        + (plain ? "plain" : "RaceLab's preemption at synchronisation points, seed \(stress.seed)"))
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
}

extension RaceLabCommandLine {
    /// `racelab bench stress LIST`: racelab stress beside plain runs on a list of buggy programs.
    func stressBenchmark(_ paths: [String], _ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        guard paths.count == 1 else {
            throw UsageError(
                "bench stress takes one list of programs (lines of NAME PATH [ARGS...]), e.g. racelab bench stress programs.txt"
            )
        }
        if let other = ["labs", "load", "jobs", "user-root"].first(where: { arguments.string($0) != nil }) {
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
            programs: programs, runs: try arguments.int("runs", in: 1...100_000) ?? 100,
            series: try arguments.int("seeds", in: 1...100) ?? 3,
            seed: try arguments.uint64("seed") ?? UInt64.random(in: 1...999_999), timeout: 3, preload: preload)
        let live = ProgressLine(enabled: isatty(2) != 0)
        let started = Date()
        let rows = benchmark.measure { live.phase("bench stress", $0) }
        live.clear()
        if arguments.has("json") {
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
