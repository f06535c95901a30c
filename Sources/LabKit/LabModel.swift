import Foundation

/// The roles a variant can play in a lab: its broken code, a reference fix, the student's
/// exercise, and the grading corpus's fixes (Tests/GradingCorpus: other valid fixes, and wrong
/// ones a class would plausibly write), graded as exercises to measure the grader.
public enum VariantKind: String, Codable, Sendable, CaseIterable {
    case broken, fixed, exercise
    case validFix = "valid-fix"
    case wrongFix = "wrong-fix"

    /// What the harness demands of this kind: broken and wrong fixes must be caught, the others
    /// must be clean.
    public var expectation: Expectation { self == .broken || self == .wrongFix ? .detected : .clean }

    /// A fix from the grading corpus (shown only when asked for).
    public var isCorpus: Bool { self == .validFix || self == .wrongFix }
}

/// The Swift language mode a variant's module is built in.
public enum LanguageMode: String, Codable, Sendable {
    case swift5, swift6
}

public enum Expectation: String, Codable, Sendable {
    case detected, clean
}

/// The ways a run can catch a bug.
public enum Detector: String, Codable, Sendable, CaseIterable, Comparable {
    /// ThreadSanitizer printed a report (data race, access race, lock-order inversion, leak...).
    case tsan
    /// A lab invariant failed (wrong value shown, UI touched off main, deinit off main...).
    case invariant
    /// The child process died on a signal (index out of range, SIGSEGV...).
    case crash
    /// The watchdog killed a child that stopped making progress (deadlock, lost wake-up).
    case hang

    public static func < (lhs: Detector, rhs: Detector) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// How a scenario is driven.
public enum RunMode: String, Codable, CodingKeyRepresentable, Sendable, CaseIterable {
    /// The driver waits at named checkpoints, so the bad interleaving happens every run.
    case scripted
    /// The scripted story again and again, each time with one of its pauses moved to another
    /// checkpoint arrival: every single-preemption point of the story, in turn.
    case explore
    /// Checkpoints become seeded random delays and actions come at random moments.
    case stress
    /// Swift concurrency's jobs run one at a time, in orders chosen by seed (labs of tasks only).
    case async

    /// Everything about the pass, declared in its own file with its behaviour in the child; what
    /// the harness derives from it is in RunModeTraits.swift. A new pass is a case above, its
    /// line here (the compiler asks for it), and its file.
    public var policy: PassPolicy {
        switch self {
        case .scripted: ScriptedPass.policy
        case .explore: ExplorePass.policy
        case .stress: StressPass.policy
        case .async: AsyncPass.policy
        }
    }
}

/// Everything about a lab that is not code: shown by `racelab list`, used by reports. The parent
/// learns it from `racelab-child catalog` (it links no lab code), hence Codable.
public struct LabInfo: Codable, Sendable, Equatable {
    public let id: String
    public let title: String
    /// Where the story comes from in the source material, e.g. "source article 000, listings 2-8".
    public let source: String
    /// One line: what goes wrong in the broken variant.
    public let bug: String
    /// What must hold, in words (each is checked by the scenario).
    public let invariants: [String]
    /// Which detectors are expected to catch the broken variant.
    public let expectedDetectors: [Detector]
    /// The lab's folder (lesson and variant sources live there).
    public let folder: URL
    /// Iterations per run when none are given.
    public let defaultIterations: [RunMode: Int]
    /// Seconds without progress before the watchdog kills a child (when --timeout is not given).
    /// Labs whose broken variant hangs on purpose set it low, so each run costs little.
    public let watchdogSeconds: Double
    /// The lab's code runs as Swift tasks (async functions, actors, task groups): the async pass,
    /// which orders Swift concurrency's jobs, is for it.
    public let runsTasks: Bool

    public init(
        id: String,
        title: String,
        source: String,
        bug: String,
        invariants: [String],
        expectedDetectors: [Detector],
        defaultIterations: [RunMode: Int] = [:],
        watchdogSeconds: Double = 10,
        runsTasks: Bool = false,
        scenarioFile: StaticString = #filePath
    ) {
        self.id = id
        self.title = title
        self.source = source
        self.bug = bug
        self.invariants = invariants
        self.expectedDetectors = expectedDetectors
        // A lab that sets only some modes keeps the passes' defaults for the others.
        self.defaultIterations = RunMode.table(\.defaultIterations).merging(defaultIterations) { $1 }
        self.watchdogSeconds = watchdogSeconds
        self.runsTasks = runsTasks
        self.folder = URL(fileURLWithPath: "\(scenarioFile)").deletingLastPathComponent()
    }

    public var lessonFile: URL { folder.appendingPathComponent("README.md") }
}
