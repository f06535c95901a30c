import Foundation
import LabKit

/// `racelab stress`: a user's program built with ThreadSanitizer, run again and again with
/// RaceLab's preemption loaded into it (or plain, to compare), each run classified, until one
/// finds something or the runs are done.
public struct ProgramStress: Sendable {
    public var program: URL
    public var arguments: [String]
    public var runs: Int
    /// Run i (1-based) uses seed + i - 1: any failing run replays alone with its own seed.
    public var seed: UInt64
    /// Seconds a run may take before it counts as a hang.
    public var timeout: Double
    /// false: plain runs, nothing loaded (what running the program in a loop gives).
    public var preempts: Bool
    /// The ways runs act at the program's synchronisation points, taken in turn (run 1 the first).
    public var schedules: [StressSchedule] = [.pauses, .priority]
    /// How many points a run has, for a priority run's change points; nil: counted by the runs
    /// themselves (the latest run that ended normally), StressSchedule.defaultSteps until then.
    public var steps: Int?
    /// Go on after a finding (to count how often it shows) instead of stopping at the first.
    public var keepsGoing: Bool
    /// Categories of finding that do not count ("report", "crash", "hang", "exit"): a known
    /// thread leak, say, while looking for the crash.
    public var ignored: Set<String> = []
    public static let categories = ["report", "crash", "hang", "exit"]

    /// `--ignore KINDS` of `racelab stress`: a comma-separated list of `categories` ("" is none).
    public static func ignoredCategories(_ text: String) throws(UsageError) -> Set<String> {
        let kinds = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if let unknown = kinds.first(where: { !categories.contains($0) }) {
            throw UsageError("--ignore takes a comma-separated list of report, crash, hang, exit, not '\(unknown)'")
        }
        return Set(kinds)
    }
    public static let defaultTimeout = 10.0
    public var preload: URL

    public init(
        program: URL, arguments: [String], runs: Int, seed: UInt64, timeout: Double, preempts: Bool,
        keepsGoing: Bool, preload: URL
    ) {
        self.program = program
        self.arguments = arguments
        self.runs = runs
        self.seed = seed
        self.timeout = timeout
        self.preempts = preempts
        self.keepsGoing = keepsGoing
        self.preload = preload
    }

    public struct Result: Codable, Sendable {
        public var runs: [ProgramRun]
        public var ignored: [String]
        /// The whole output of the first run that found something.
        public var firstFindingOutput: String?
        public var seconds: Double

        public var firstFinding: ProgramRun? { runs.first { finding(of: $0) != nil } }
        public var findings: Int { runs.count { finding(of: $0) != nil } }
        public func finding(of run: ProgramRun) -> ProgramRun.Finding? { run.finding(ignoring: Set(ignored)) }
    }

    /// The runs, in order; `onRun` hears each as it ends.
    public func run(onRun: (ProgramRun, ProgramRun.Finding?) -> Void = { _, _ in }) -> Result {
        let started = Date()
        var runs: [ProgramRun] = []
        var firstFindingOutput: String?
        var counted: Int?
        for index in 1...max(1, self.runs) {
            let runSeed = seed &+ UInt64(index - 1)
            let (run, output) = runOnce(index: index, seed: runSeed, counted: counted)
            counted = Self.counted(after: run) ?? counted
            runs.append(run)
            onRun(run, run.finding(ignoring: ignored))
            if run.finding(ignoring: ignored) != nil, firstFindingOutput == nil {
                firstFindingOutput = output
                if !keepsGoing { break }
            }
        }
        return Result(
            runs: runs, ignored: ignored.sorted(), firstFindingOutput: firstFindingOutput,
            seconds: Date().timeIntervalSince(started))
    }

    /// The points a run counted, as the next priority run's steps (at most what the schedule
    /// orders); nil if it counted none.
    static func counted(after run: ProgramRun) -> Int? {
        run.points.flatMap { $0 > 0 ? min($0, StressSchedule.maxSteps) : nil }
    }

    /// The schedule of run `index` (1-based).
    public func schedule(ofRun index: Int) -> StressSchedule? {
        preempts && !schedules.isEmpty ? schedules[(index - 1) % schedules.count] : nil
    }

    /// Run `index` alone; `counted`: the points an earlier run counted (for `steps` nil).
    func runOnce(index: Int, seed: UInt64, counted: Int? = nil) -> (ProgramRun, String) {
        let schedule = schedule(ofRun: index)
        let steps = schedule == .priority ? (self.steps ?? counted ?? StressSchedule.defaultSteps) : nil
        var tool = ToolProcess(
            executable: program, arguments: arguments, timeout: timeout, outputLimit: 4 << 20)
        let tally =
            preempts
            ? FileManager.default.temporaryDirectory.appendingPathComponent(
                "racelab-stress-\(getpid())-\(index).tally") : nil
        let inherited = ProcessInfo.processInfo.environment
        // The run is classified from what TSan prints; its own exit status (66 after a report)
        // would hide the program's.
        tool.environment["TSAN_OPTIONS"] = (inherited["TSAN_OPTIONS"].map { $0 + " " } ?? "") + "exitcode=0"
        // Swift's crash backtracer forks under TSan and crashes in its turn, burying the
        // program's own message; off unless the user set it.
        if inherited["SWIFT_BACKTRACE"] == nil { tool.environment["SWIFT_BACKTRACE"] = "enable=no" }
        if let tally {
            let earlier = inherited["LD_PRELOAD"].map { ":" + $0 } ?? ""
            tool.environment["LD_PRELOAD"] = preload.path + earlier
            tool.environment["RACELAB_STRESS_SEED"] = String(seed)
            tool.environment["RACELAB_STRESS_TALLY"] = tally.path
            // Every variable the library reads is set: none inherited from the user's shell can
            // make a run other than its replay.
            tool.environment["RACELAB_STRESS_SCHEDULE"] = (schedule ?? .pauses).rawValue
            tool.environment["RACELAB_STRESS_STEPS"] = steps.map(String.init) ?? ""
            tool.environment["RACELAB_STRESS_CHANGES"] = ""
            tool.environment["RACELAB_STRESS_LIMIT_MS"] = String(StressSchedule.limitMilliseconds(timeout: timeout))
        }
        let result = tool.run(tick: 0.005)
        let counts = tally.flatMap { try? String(contentsOf: $0, encoding: .utf8) }
        if let tally { try? FileManager.default.removeItem(at: tally) }
        var run = ProgramRun(
            index: index, seed: preempts ? seed : nil, tool: result, timeout: timeout, tally: counts)
        run.schedule = schedule
        run.steps = steps
        return (run, result.output)
    }

    /// The command that runs one run again alone.
    public func replay(of run: ProgramRun, programName: String = "racelab") -> String {
        var words: [String] = [programName, "stress"] + (run.seed.map { ["--seed", String($0)] } ?? ["--plain"])
        if let schedule = run.schedule { words += ["--schedule", schedule.rawValue] }
        if let steps = run.steps { words += ["--steps", String(steps)] }
        words +=
            (ignored.isEmpty ? [] : ["--ignore", ignored.sorted().joined(separator: ",")])
            + (timeout == Self.defaultTimeout ? [] : ["--timeout", String(format: "%g", timeout)])
            + ["--runs", "1", "--", program.path] + arguments
        return words.map(Self.quoted).joined(separator: " ")
    }

    static func quoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,@+".contains($0) }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
