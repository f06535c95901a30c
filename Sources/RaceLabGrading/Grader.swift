import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// Grades exercise variants: per lab every pass (`passes`: the bad interleaving forced at the
/// lab's checkpoints, every single-preemption point of it, and random timing for as many
/// iterations as the calibration says an unfixed exercise cannot survive). A pass scores its
/// points only when every run is clean.
/// `racelab check` (one lab, for the student) and `racelab grade` (for the record) share it.
public struct Grader {
    /// The lab program the children run; nil for a grader that only records grades decided
    /// without running (every lab refused, reused or uncompiled): it starts no child.
    public var executable: URL?
    public var policy: GradingPolicy
    public var seed: UInt64
    /// How the user invoked racelab, for the reproduce commands.
    public var programName: String
    /// The package's folder, for relative file names in messages (nil: absolute).
    public var root: URL?
    /// Children at once (`ChildPool`).
    public var jobs = 1

    public init(
        executable: URL?, policy: GradingPolicy = GradingPolicy(), seed: UInt64, programName: String = "racelab",
        root: URL? = nil
    ) {
        self.executable = executable
        self.policy = policy
        self.seed = seed
        self.programName = programName
        self.root = root
    }

    /// The grader as `racelab check` sets it up: one lab's children all at once (unless `jobs`,
    /// from --jobs, or RACELAB_JOBS says otherwise), a lab's marks all or nothing.
    public static func forCheck(
        executable: URL, seed: UInt64, programName: String, root: URL?, jobs: Int?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Grader {
        var grader = Grader(executable: executable, seed: seed, programName: programName, root: root)
        grader.jobs = jobs ?? ChildPool.jobs(forAll: grader.policy.childrenPerLab, environment: environment)
        return grader
    }

    /// The grader as `racelab grade` sets it up: `jobs` children at once (default
    /// `ChildPool.defaultJobs`) across every lab it grades, partial credit when asked for.
    public static func forGrade(
        executable: URL, partialCredit: Bool = false, seed: UInt64, programName: String, root: URL?, jobs: Int?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Grader {
        var policy = GradingPolicy()
        policy.partialCredit = partialCredit
        var grader = Grader(executable: executable, policy: policy, seed: seed, programName: programName, root: root)
        grader.jobs = jobs ?? ChildPool.defaultJobs(environment: environment)
        return grader
    }

    /// The variant graded for `lab`: the first exercise (the one Scenario.swift lists).
    public static func exercise(of lab: Lab) -> Lab.Variant? { lab.variants.first { $0.kind == .exercise } }

    /// The exercise's file, relative to the package ("Labs/ListAdder/Exercise.swift").
    public func exerciseFile(of lab: Lab) -> String { ungraded.exerciseFile(of: lab) }

    /// The stress plan for `lab`: the stored calibration if current, else measured now.
    public func stressPlan(
        for lab: Lab, calibrations: CalibrationFile?, measureIfMissing: Bool,
        onProgress: @escaping @Sendable (String) -> Void = { _ in }
    ) -> (StressPlan, StressCalibration?) {
        if let calibration = calibrations?.current(for: lab) {
            return (StressPlan.make(lab, calibration: calibration, policy: policy), nil)
        }
        guard measureIfMissing, let executable else {
            return (StressPlan.make(lab, calibration: nil, policy: policy), nil)
        }
        var settings = Calibrator.Settings()
        settings.jobs = jobs
        let measured = Calibrator.measure(lab, executable: executable, settings: settings) {
            onProgress("\(lab.id): calibrating, \($0)")
        }
        return (StressPlan.make(lab, calibration: measured, policy: policy, calibratedNow: measured != nil), measured)
    }

    /// The passes of a grade, in order: every pass (the story, every single-preemption point of
    /// it, random timing). A fix that is safe only where the story pauses fails the second
    /// deterministically.
    public static let passes: [RunMode] = RunMode.allCases.filter(\.policy.isGraded)

    /// Every pass of one lab's exercise (`variant`: another variant stands in, in tests).
    public func grade(
        _ lab: Lab, variant: Lab.Variant, stress: StressPlan,
        onProgress: @escaping @Sendable (String) -> Void = { _ in }
    ) -> LabGrade {
        grade([(lab, variant, stress)], onProgress: onProgress)[0]
    }

    /// Every pass of several labs' exercises, all their children `jobs` at a time.
    public func grade(
        _ items: [(Lab, Lab.Variant, StressPlan)], onProgress: @escaping @Sendable (String) -> Void = { _ in }
    ) -> [LabGrade] {
        guard !items.isEmpty else { return [] }
        guard let executable else { preconditionFailure("a grader without a lab program cannot run a lab") }
        let rows = items.flatMap { lab, variant, stress in
            Self.passes.map { mode -> LabRunner.Row in
                var settings = RunSettings(
                    executable: executable, iterations: iterations(lab, mode, stress), runs: runs(mode, stress),
                    seed: seed &+ mode.seedOffset, programName: programName)
                settings.jobs = jobs
                return LabRunner.Row(lab: lab, variant: variant, mode: mode, settings: settings)
            }
        }
        let labs = items.map(\.0.id).joined(separator: ", ")
        // One verdict per lab: once a pass catches the bug, the lab's passes not yet started are
        // skipped, and a catch by the scripted pass also stops the others under way and leaves
        // them out (LabRunner.run; with partial credit every pass runs, as each scores on its own).
        let groups = policy.partialCredit ? nil : items.indices.flatMap { index in Self.passes.map { _ in index } }
        let outcomes = LabRunner.run(rows, jobs: jobs, stopGroups: groups) { done, total in
            onProgress("\(labs): run \(done) of \(total)")
        }
        return items.enumerated().map { index, item in
            let (lab, variant, stress) = item
            let passes = Self.passes.enumerated().map { offset, mode in
                pass(
                    outcomes[index * Self.passes.count + offset], lab: lab, runs: runs(mode, stress),
                    iterations: iterations(lab, mode, stress),
                    points: policy.points(for: mode))
            }
            return labGrade(lab, variant: variant, passes: passes, stress: stress)
        }
    }

    func runs(_ mode: RunMode, _ stress: StressPlan) -> Int { policy.runs(for: mode, stress: stress) }

    func iterations(_ lab: Lab, _ mode: RunMode, _ stress: StressPlan) -> Int {
        policy.iterations(of: lab, for: mode, stress: stress)
    }

    /// Grades decided without running anything, for this grader's policy and package.
    public var ungraded: UngradedLabs { UngradedLabs(policy: policy, root: root) }

    /// A lab scored zero without running anything (a tampered submission).
    public func notGraded(_ lab: Lab, variant: Lab.Variant, stress: StressPlan, status: LabGrade.Status, reason: String)
        -> LabGrade
    { ungraded.notGraded(lab, variant: variant, stress: stress, status: status, reason: reason) }

    /// A lab whose exercise the exercise checks refused: zero, not run, and why.
    public func rejected(_ lab: Lab, variant: Lab.Variant, stress: StressPlan, violations: [PolicyViolation])
        -> LabGrade
    { ungraded.rejected(lab, variant: variant, stress: stress, violations: violations) }

    /// Every lab of `labs` with `violations` (`ExerciseChecks.rejections`), scored zero without
    /// running, by lab id: `report`'s `preset`. A lab without an exercise is left to `report`.
    public func rejectedGrades(of labs: [Lab], violations: [String: [PolicyViolation]], calibrations: CalibrationFile?)
        -> [String: LabGrade]
    {
        var grades: [String: LabGrade] = [:]
        for lab in labs {
            guard let found = violations[lab.id], let variant = Self.exercise(of: lab) else { continue }
            let plan = StressPlan.make(lab, calibration: calibrations?.current(for: lab), policy: policy)
            grades[lab.id] = rejected(lab, variant: variant, stress: plan, violations: found)
        }
        return grades
    }

    // MARK: Judging

    /// Whatever the variant's kind (a stand-in broken or fixed variant in tests), a pass demands
    /// what an exercise must be: clean in every run.
    /// `runs`: how many were planned (a skipped pass ran none of them).
    func pass(_ outcome: VariantOutcome, lab: Lab, runs planned: Int, iterations: Int, points: Double) -> PassGrade {
        let total = outcome.runs.count
        let forged = outcome.runs.contains(where: \.wasForged)
        let detected = outcome.runs.filter { $0.harnessError == nil && $0.detected }.count
        let clean = total > 0 && outcome.harnessErrors == 0 && detected == 0
        let status: PassGrade.Status
        let summary: String
        if total == 0 {
            status = .skipped
            summary = "not run, or stopped and left out: an earlier pass already caught the bug"
        } else if forged {
            status = .forged
            summary = "a run printed a result line the harness did not sign (a forged result): not a pass"
        } else if clean {
            status = .passed
            summary = "clean in \(total) of \(total) runs"
        } else if detected > 0 {
            status = .failed
            summary =
                "a bug was caught in \(detected) of \(total) run\(total == 1 ? "" : "s")"
                + (outcome.harnessErrors > 0 ? "; \(outcome.harnessErrors) could not be judged" : "")
        } else {
            status = .error
            summary = "\(outcome.harnessErrors) of \(total) runs could not be judged"
        }
        let offending = outcome.runs.filter { $0.harnessError != nil || $0.detected }
        let problems = offending.enumerated().map { index, run in problem(run, lab: lab, full: index == 0) }
        let harnessFailure = outcome.runs.first { $0.harnessProblem?.isHarnessFailure == true }?.harnessError
        var grade = PassGrade(
            mode: outcome.mode, runs: total == 0 ? planned : total, iterationsPerRun: iterations, status: status,
            score: status == .passed ? points : 0, maxScore: points, summary: summary, problems: problems,
            elapsedSeconds: outcome.runs.map(\.elapsedSeconds).reduce(0, +), harnessFailure: harnessFailure)
        grade.interference = outcome.runs.lazy.compactMap(\.interference).first
        let without = Set(outcome.runs.flatMap { $0.wentWithout ?? [] })
        grade.wentWithout = without.isEmpty ? nil : without.sorted()
        return grade
    }

    /// One verdict for the lab: every pass clean, or not fixed. A bug seen in any pass scores 0
    /// (each pass's own points only with `policy.partialCredit`).
    func labGrade(_ lab: Lab, variant: Lab.Variant, passes originalPasses: [PassGrade], stress: StressPlan) -> LabGrade
    {
        var passes = originalPasses
        let allClean = passes.allSatisfy { $0.status == .passed }
        if !allClean && !policy.partialCredit {
            for index in passes.indices { passes[index].score = 0 }
        }
        let score = passes.map(\.score).reduce(0, +)
        let maxScore = passes.map(\.maxScore).reduce(0, +)
        let status: LabGrade.Status
        if passes.contains(where: { $0.status == .forged }) {
            status = .tampered
        } else if allClean {
            status = .passed
        } else if passes.contains(where: { $0.status == .error }) && !passes.contains(where: { $0.status == .failed }) {
            status = .error
        } else {
            status = score > 0 ? .partial : .failed
        }
        let points = "\(Self.points(score))/\(Self.points(maxScore))"
        let file = exerciseFile(of: lab)
        var message: String
        switch status {
        case .passed:
            message =
                "\(lab.id): \(points), fixed. The bug (\(lab.info.bug)) did not show in \(passes.map { "the \($0.name) (\($0.size))" }.joined(separator: " or "))."
        case .tampered:
            message = "\(lab.id): \(points), tampered: a run of \(file) printed a forged result line."
            if let first = passes.first(where: { $0.status == .forged })?.problems.first {
                message += " Lab \(lab.id), variant \(variant.name), seed \(first.seed); reproduce: \(first.reproduce)"
            }
        default:
            // The headline is what failed, in the student's terms; the lab's stock bug comes after.
            let failing = passes.filter { $0.status != .passed && $0.status != .skipped }
            let first = failing.first { $0.status == .failed }?.problems.first ?? failing.first?.problems.first
            let headline = first?.headline ?? failing.first?.summary ?? "a pass was not clean"
            let seenIn = failing.map(\.name).joined(separator: ", ")
            message = "\(lab.id): \(points), not fixed yet: \(headline) (seen in the \(seenIn) of \(file))."
            if status == .partial {
                message += " Partial credit (an instructor's choice): each clean pass scored its points."
            }
            message += " The lab's bug, for reference: \(lab.info.bug)."
            if let first {
                message +=
                    " First failing run: lab \(lab.id), variant \(variant.name), seed \(first.seed)"
                    + (first.point.map { ", point \($0)" } ?? "") + "; reproduce: \(first.reproduce)"
            }
        }
        return LabGrade(
            lab: lab.id, title: lab.info.title, bug: lab.info.bug, variant: variant.name, exerciseFile: file,
            status: status, score: score, maxScore: maxScore, message: message, passes: passes, stress: stress)
    }

    /// One run's problems in plain words: the detector, the TSan race tied to the exercise's own
    /// lines, the invariant, the crash; the seed and the command that replays it.
    func problem(_ run: RunVerdict, lab: Lab, full: Bool) -> GradeProblem {
        var lines: [String] = []
        var detectors = run.detections.map(\.detector.rawValue)
        if let error = run.harnessError {
            if run.wasForged {
                detectors.append("forged")
                lines.append("the run printed a result line the harness did not sign, so it cannot count: \(error)")
            } else {
                detectors.append("error")
                lines.append("the run could not be judged: \(error)")
            }
        }
        let headline = headline(run, lab: lab) ?? lines.first
        guard full else {
            let line = run.detections.first.map { "\($0.detector.rawValue): \($0.summary)" } ?? lines.first ?? "clean"
            return GradeProblem(
                lab: run.lab, variant: run.variant, seed: run.seed, iteration: run.detections.first?.iteration,
                detectors: detectors,
                lines: [line], reproduce: run.reproduce, headline: headline, point: run.point)
        }
        for detection in run.detections {
            switch detection.detector {
            case .tsan:
                let reports = run.reports.prefix(2)
                if reports.isEmpty { lines.append("ThreadSanitizer reported a race: \(detection.summary)") }
                for report in reports {
                    let kind = report.kind == .other ? report.title : report.kind.rawValue
                    lines.append("ThreadSanitizer found a \(kind):")
                    for access in report.accesses.prefix(2) { lines.append("  " + describe(access, lab: lab)) }
                    // A report of another kind (mutex misuse, a leak) has no accesses: its summary line.
                    if report.accesses.isEmpty { lines.append("  " + ReportSummary.oneLine(report)) }
                }
                if run.reports.count > 2 { lines.append("  (+\(run.reports.count - 2) more report(s))") }
            case .invariant:
                for failure in run.failures.prefix(2) {
                    let place = failure.shortLocation
                    let own = isExercise(failure.file, lab: lab) ? "at your line \(place)" : "checked at \(place)"
                    lines.append("a lab check failed: \(failure.message) (\(own))")
                }
                if run.failures.count > 2 { lines.append("  (+\(run.failures.count - 2) more failed check(s))") }
            case .crash:
                lines.append("the program crashed: \(detection.summary)")
            case .hang:
                lines.append("the program stopped making progress and was killed: \(detection.summary)")
            }
        }
        if let interference = run.interference {
            lines.append(
                "note: \(interference); if that was not your code (running out of memory, say), ask for this lab to be graded again"
            )
        }
        return GradeProblem(
            lab: run.lab, variant: run.variant, seed: run.seed, iteration: run.detections.compactMap(\.iteration).min(),
            detectors: detectors,
            lines: lines, reproduce: run.reproduce, headline: headline, point: run.point)
    }

    /// What failed in `run`, in one phrase a student can act on: the check that failed (with
    /// its own words), the race at the student's own line, the crash and its cause.
    func headline(_ run: RunVerdict, lab: Lab) -> String? {
        if let failure = run.failures.first {
            return "a lab check failed: \(failure.message)"
        }
        if run.fired(.tsan) {
            if let report = run.reports.first {
                let kind = report.kind == .other ? report.title : report.kind.rawValue
                // The student's own line, one with a line number first (TSan has none for some accesses).
                let own = report.accesses.flatMap(\.frames).filter { self.isExercise($0.file, lab: lab) }
                if let line = (own.first { ($0.line ?? 0) > 0 } ?? own.first)?.shortLocation {
                    return "ThreadSanitizer saw a \(kind) at your "
                        + (line.contains(":") ? "line \(line)" : "code in \(line)")
                }
                return "ThreadSanitizer saw a \(kind) in your code's threads"
            }
            return "ThreadSanitizer reported a race"
        }
        if let crash = run.detections.first(where: { $0.detector == .crash }) {
            return "the program crashed: \(crash.summary)"
        }
        if let hang = run.detections.first(where: { $0.detector == .hang }) {
            return
                "the program stopped making progress (a deadlock, a lost wake-up, or a thread that never stops or waits): \(hang.summary)"
        }
        return run.harnessError.map { "the run could not be judged: \($0)" }
    }

    /// "your line Exercise.swift:39: thread T2 read in closure #1 in ListAdderExercise.recalculate()".
    func describe(_ access: TSanReport.Access, lab: Lab) -> String {
        let action = access.description.hasPrefix("Mutex") ? "lock" : (access.isWrite ? "write" : "read")
        let who = access.thread ?? "a thread"
        if let own = access.frames.first(where: { isExercise($0.file, lab: lab) }) {
            let place = own.shortLocation ?? "?"
            return (place.contains(":") ? "your line \(place)" : "your code in \(place)")
                + ": \(who) \(action) in \(own.demangled)"
        }
        if let frame = access.frames.first(where: { $0.file != nil }) ?? access.frames.first {
            return "\(frame.shortLocation ?? frame.module ?? "?"): \(who) \(action) in \(frame.demangled)"
        }
        return "\(who) \(action)"
    }

    /// A file of the lab's exercise (Labs/<Lab>/Exercise*.swift).
    func isExercise(_ file: String?, lab: Lab) -> Bool {
        guard let file else { return false }
        // atos (Apple) gives base names only; only this lab's code runs in its child.
        if !file.contains("/") { return file.hasPrefix("Exercise") && file.hasSuffix(".swift") }
        let folder = lab.info.folder.path.hasSuffix("/") ? lab.info.folder.path : lab.info.folder.path + "/"
        guard file.hasPrefix(folder) else { return false }
        let name = String(file.dropFirst(folder.count))
        return !name.contains("/") && name.hasPrefix("Exercise")
    }

    /// 5 -> "5", 2.5 -> "2.5".
    public static func points(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }
}
