import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// Points and run counts of a grade. The same for `racelab check` and `racelab grade`.
///
/// One verdict per lab: a bug seen in any pass means the lab is not fixed, and it scores 0.
/// Partial credit (each clean pass its own points) is an instructor's explicit choice
/// (`--partial-credit`), and the report then says so.
public struct GradingPolicy: Sendable, Equatable {
    /// Each pass's child processes (`PassPolicy.gradeRuns`): the scripted pass's each play the
    /// lab's scripted iterations, the explore pass's each explore every single-preemption point,
    /// the stress pass's each play `StressPlan.iterationsPerRun` iterations.
    public var passRuns: [RunMode: Int] = RunMode.table(\.gradeRuns)
    /// What each clean pass scores (`PassPolicy.gradePoints`).
    public var passPoints: [RunMode: Double] = RunMode.table(\.gradePoints)
    /// The stress pass's total is at least this many times the lab's default iterations.
    public var stressFloorRuns = 2
    /// ...and never below this many in all: some wrong fixes are caught only by a hold that lands
    /// in their window (a few iterations in ten) or a rare interleaving, whatever a lab's default
    /// (which `make run` soaks, and may keep low for speed).
    public var stressFloorIterations = 200
    /// Award each clean pass its points even when another pass caught the bug.
    public var partialCredit = false
    /// The largest acceptable chance that an unfixed exercise passes the stress pass.
    public var target = 1e-6
    /// A cap, so a lab whose broken variant is rarely caught cannot make grading endless.
    public var maxStressIterationsPerRun = 20_000

    public init() {}

    public var pointsPerLab: Double { Grader.passes.map(points(for:)).reduce(0, +) }

    /// The child processes that grade one lab when the jobs allow them all at once (a systematic
    /// run split into its most shards).
    public var childrenPerLab: Int {
        Grader.passes.map { runs(for: $0) * ($0.isSystematic ? LabRunner.maxExploreShards : 1) }.reduce(0, +)
    }

    public func points(for mode: RunMode) -> Double { passPoints[mode] ?? 0 }

    public func runs(for mode: RunMode) -> Int { passRuns[mode] ?? 0 }

    /// A pass's runs in a grade: the lab's calibrated plan's for a calibrated pass (stress), the
    /// policy's own count otherwise.
    public func runs(for mode: RunMode, stress: StressPlan) -> Int {
        mode.isCalibrated ? stress.runs : runs(for: mode)
    }

    /// A pass's iterations per run in a grade: the calibrated plan's, or the lab's default.
    public func iterations(of lab: Lab, for mode: RunMode, stress: StressPlan) -> Int {
        mode.isCalibrated ? stress.iterationsPerRun : lab.info.defaultIterations[mode] ?? 1
    }
}

/// How many stress iterations a lab's exercise gets, and why.
public struct StressPlan: Codable, Sendable, Equatable {
    public var runs: Int
    public var iterationsPerRun: Int
    /// The lab's own default (a floor: fixed variants are proven clean over at least this).
    public var labDefault: Int
    public var target: Double
    /// Total iterations the calibration says are needed to reach the target (nil: not measured,
    /// or the broken variant was never caught in stress mode).
    public var iterationsNeeded: Int?
    /// log10 of the chance that an unfixed exercise passes the stress pass (estimate, 95% upper
    /// bound); nil without a calibration. Clamped to -999.
    public var log10ChanceEstimate: Double?
    public var log10ChanceUpperBound: Double?
    /// What the numbers rest on, in words.
    public var basis: String
    /// Measured during this grade (no current entry in Grading/calibration.json).
    public var calibratedNow: Bool

    public var totalIterations: Int { runs * iterationsPerRun }

    public static func make(
        _ lab: Lab, calibration: StressCalibration?, policy: GradingPolicy, calibratedNow: Bool = false
    ) -> StressPlan {
        let labDefault = lab.info.defaultIterations[.stress] ?? 200
        let runs = max(policy.runs(for: .stress), 1)
        let floor = max(labDefault * max(policy.stressFloorRuns, 1), policy.stressFloorIterations)
        let floorPerRun = (floor + runs - 1) / runs
        guard let calibration else {
            return StressPlan(
                runs: runs, iterationsPerRun: floorPerRun, labDefault: labDefault, target: policy.target,
                iterationsNeeded: nil, log10ChanceEstimate: nil, log10ChanceUpperBound: nil,
                basis: "not calibrated: the lab's default iterations; run `racelab calibrate` to measure",
                calibratedNow: calibratedNow)
        }
        let needed = calibration.iterationsNeeded(target: policy.target)
        var perRun = floorPerRun
        if let needed { perRun = max(floorPerRun, (needed + runs - 1) / runs) }
        perRun = min(perRun, max(policy.maxStressIterationsPerRun, floorPerRun))
        let chance = calibration.log10ChanceUnfixedPasses(iterations: runs * perRun)
        var basis = calibration.summary
        if needed == nil {
            basis +=
                "; the broken variant was never caught in stress mode, so the stress pass cannot tell an unfixed exercise (the scripted pass can)"
        }
        return StressPlan(
            runs: runs, iterationsPerRun: perRun, labDefault: labDefault, target: policy.target,
            iterationsNeeded: needed, log10ChanceEstimate: max(chance.estimate, -999),
            log10ChanceUpperBound: max(chance.upperBound, -999), basis: basis, calibratedNow: calibratedNow)
    }

    /// "at most 3e-12 (estimate 1e-15)", or "not measured".
    public var chanceText: String {
        guard let upper = log10ChanceUpperBound, let estimate = log10ChanceEstimate else { return "not measured" }
        func bound(_ text: String) -> String { text.hasPrefix("< ") ? "below " + text.dropFirst(2) : "at most " + text }
        return
            "\(bound(StressCalibration.formatChance(log10: upper))) (estimate \(StressCalibration.formatChance(log10: estimate)))"
    }
}

/// One problem found in one run, in plain words.
public struct GradeProblem: Codable, Sendable, Equatable {
    public var lab: String
    public var variant: String
    public var seed: UInt64
    public var iteration: Int?
    /// Which detectors fired ("tsan", "invariant", ...), or "error" / "forged".
    public var detectors: [String]
    /// What went wrong, one statement a line (indented continuation lines start with two spaces).
    public var lines: [String]
    public var reproduce: String
    /// The failed check in one phrase, for the lab's message.
    public var headline: String? = nil
    /// Explore pass: the point that caught it ("1:3").
    public var point: String? = nil
}

/// One pass of one lab's exercise.
public struct PassGrade: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case passed, failed
        /// Could not be judged (the child did not start, sent no result...).
        case error
        /// A run's result channel carried a forged result.
        case forged
        /// Not run: the exercise was rejected by the exercise checks.
        case rejected
        /// Not run: an earlier pass of the lab already caught the bug, so the lab scores 0
        /// whatever this pass would say (not with partial credit, where every pass runs).
        case skipped
    }

    public var mode: RunMode
    public var runs: Int
    public var iterationsPerRun: Int
    public var status: Status
    public var score: Double
    public var maxScore: Double
    /// "clean in 3 of 3 runs", "a bug was caught in 2 of 3 runs".
    public var summary: String
    /// The first failing run in full, then one per other failing run.
    public var problems: [GradeProblem]
    public var elapsedSeconds: Double
    /// Set when the harness itself failed (a child could not start, no ThreadSanitizer): the
    /// grade as a whole is then a harness failure, not a verdict on the exercise.
    public var harnessFailure: String?
    /// A run of the pass may have been disturbed from outside (`RunVerdict.interference`).
    public var interference: String? = nil
    /// Checks the grader makes that this system could not make in the pass's runs; nil on Linux.
    public var wentWithout: [MissingCheck]? = nil

    public var name: String { "\(mode.rawValue) pass" }
    /// "3 runs x 3 iterations".
    public var size: String {
        "\(runs) run\(runs == 1 ? "" : "s") x \(iterationsPerRun) iteration\(iterationsPerRun == 1 ? "" : "s")"
    }
}

/// One lab's grade.
public struct LabGrade: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case passed, partial, failed
        /// The submission was changed outside its exercises, or a run forged its result.
        case tampered
        /// The exercise holds something the exercise policy refuses (`violations`); not run.
        case rejected
        /// The harness could not judge it.
        case error
    }

    public var lab: String
    public var title: String
    public var bug: String
    public var variant: String
    /// "Labs/ListAdder/Exercise.swift".
    public var exerciseFile: String
    public var status: Status
    public var score: Double
    public var maxScore: Double
    /// One paragraph: the verdict, naming the bug, and what to do next.
    public var message: String
    public var passes: [PassGrade]
    public var stress: StressPlan
    /// Why the exercise was rejected (status `rejected`): each with file, line and construct.
    public var violations: [PolicyViolation]? = nil

    /// Every pass ran to its end undisturbed: the grade rests on the exercise alone.
    public var undisturbed: Bool { passes.allSatisfy { $0.harnessFailure == nil && $0.interference == nil } }

    /// Checks the grader makes for this lab that this system could not: why a PASS here is
    /// provisional. Empty on Linux.
    public var wentWithout: [MissingCheck] { Set(passes.flatMap { $0.wentWithout ?? [] }).sorted() }
}

/// Whether the graded package is the kit as handed out, apart from its exercises.
public struct GradeIntegrity: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case verified, tampered
        /// No manifest to compare with (not a student kit).
        case unchecked
        /// grade-all: the submission differs outside its exercises, and those files were not
        /// used (only its exercise files are taken into the kit); noted, not penalised.
        case ignored
    }

    public var status: Status
    public var manifestDigest: String?
    public var findings: [TamperFinding]
    public var message: String

    public init(status: Status, manifestDigest: String?, findings: [TamperFinding], message: String) {
        self.status = status
        self.manifestDigest = manifestDigest
        self.findings = findings
        self.message = message
    }
}

/// Everything `racelab grade` found: the `--format json` output, and what grade-all collects.
public struct GradeReport: Codable, Sendable {
    public var tool = "racelab grade"
    public var createdAt: String
    public var command: String
    public var student: String?
    public var seed: UInt64
    public var policy: GradingPolicy
    public var integrity: GradeIntegrity
    public var labs: [LabGrade]
    public var score: Double
    public var maxScore: Double
    public var elapsedSeconds: Double
    /// The harness could not grade (a child could not start, no ThreadSanitizer...): exit 1.
    public var harnessFailure: String?
    public var notes: [String]

    public init(
        command: String, student: String? = nil, seed: UInt64, policy: GradingPolicy, integrity: GradeIntegrity,
        labs: [LabGrade], elapsedSeconds: Double, harnessFailure: String? = nil, notes: [String] = []
    ) {
        self.createdAt = ISO8601DateFormatter().string(from: Date())
        self.command = command
        self.student = student
        self.seed = seed
        self.policy = policy
        self.integrity = integrity
        self.labs = labs
        self.score = labs.map(\.score).reduce(0, +)
        self.maxScore = labs.map(\.maxScore).reduce(0, +)
        self.elapsedSeconds = elapsedSeconds
        self.harnessFailure = harnessFailure
        self.notes = notes
    }
}
