import Foundation

/// One way of writing the lab's code: broken, a fixed variant, or the student's exercise.
/// `Environment` is whatever the lab hands its variants (screen, slow-work helpers).
public struct LabVariant<Environment, Subject> {
    public let kind: VariantKind
    /// Unique within the lab: "broken", "fixed", "fixed-gcd", "exercise".
    public let name: String
    public let make: (Environment) -> Subject
    /// Its code runs as Swift tasks on the global executor (a detached task, a task group, an
    /// actor): the async pass is for it too, in a lab whose other code is threads.
    public let runsTasks: Bool

    public init(
        _ kind: VariantKind, name: String? = nil, runsTasks: Bool = false,
        make: @escaping (Environment) -> Subject
    ) {
        self.kind = kind
        self.name = name ?? kind.rawValue
        self.runsTasks = runsTasks
        // Its queues are watched for operations Foundation forgets to start (OperationWakeups).
        self.make = { environment in
            let subject = make(environment)
            OperationWakeups.watch(subject)
            return subject
        }
    }
}

/// What a lab folder's Scenario.swift implements: the lab's facts, its own (broken) variants,
/// and the scenario (user actions + invariants) that drives any variant the same way.
///
/// The exercise and the reference fixes live in modules of their own (`<Lab>Exercises`,
/// `<Lab>Solutions`) and are registered from outside the lab (`PlayableLab`, `LabSolutions`), so
/// nothing an exercise declares can add, replace or hide a variant.
public protocol LabScenario {
    associatedtype Environment
    associatedtype Subject

    static var info: LabInfo { get }
    /// The lab's own variants: the broken code.
    static var variants: [LabVariant<Environment, Subject>] { get }

    /// Run one iteration of the scenario against `variant` on the main thread.
    static func play(_ variant: LabVariant<Environment, Subject>, in run: ScenarioRun)
}

/// Variants registered from outside a lab: its reference fixes (the solution catalog) or its
/// grading corpus (the corpus catalog). A student kit has neither.
public struct LabSolutions: @unchecked Sendable {
    /// The lab these are for (catalogs are checked against the learning path by it).
    @_spi(LabAuthoring) public let labID: String
    let variants: [Lab.Variant]
    let players: [String: (ScenarioRun) -> Void]

    /// `swift6`: the fixes of the lab's Swift 6 module (FixedSwift6*.swift), built in that mode.
    public init<Scenario: LabScenario>(
        _ scenario: Scenario.Type, _ solutions: [LabVariant<Scenario.Environment, Scenario.Subject>],
        swift6: [LabVariant<Scenario.Environment, Scenario.Subject>] = []
    ) {
        precondition(
            solutions.allSatisfy { $0.kind == .fixed || $0.kind.isCorpus },
            "\(scenario.info.id): solutions must be fixed variants or corpus fixes")
        precondition(swift6.allSatisfy { $0.kind == .fixed }, "\(scenario.info.id): a Swift 6 fix is a fixed variant")
        labID = scenario.info.id
        variants =
            solutions.map { Lab.Variant(kind: $0.kind, name: $0.name, runsTasks: $0.runsTasks) }
            + swift6.map { Lab.Variant(kind: $0.kind, name: $0.name, languageMode: .swift6, runsTasks: $0.runsTasks) }
        players = PlayableLab.players(scenario, solutions + swift6)
    }
}

/// A lab with its code, as the child process runs it.
public struct PlayableLab: @unchecked Sendable {
    public private(set) var lab: Lab
    private var players: [String: (ScenarioRun) -> Void]

    /// The lab's own variants plus the student's exercise (`make` builds one from the environment).
    public init<Scenario: LabScenario>(
        _ scenario: Scenario.Type, exercise: @escaping (Scenario.Environment) -> Scenario.Subject
    ) {
        precondition(
            scenario.variants.allSatisfy { $0.kind == .broken },
            "\(scenario.info.id): a scenario lists only its broken variants")
        let all = scenario.variants + [LabVariant(.exercise, make: exercise)]
        lab = Lab(
            info: scenario.info,
            variants: all.map { Lab.Variant(kind: $0.kind, name: $0.name, runsTasks: $0.runsTasks) })
        players = Self.players(scenario, all)
    }

    /// A lab of one story and no variants of its own: how RaceLabTesting runs a user's test
    /// through the same passes (`variant` names the one way to play it, a clean one).
    @_spi(LabAuthoring) public init(info: LabInfo, variant: String, story: @escaping (ScenarioRun) -> Void) {
        lab = Lab(info: info, variants: [Lab.Variant(kind: .fixed, name: variant)])
        players = [variant: story]
    }

    static func players<Scenario: LabScenario>(
        _ scenario: Scenario.Type, _ variants: [LabVariant<Scenario.Environment, Scenario.Subject>]
    ) -> [String: (ScenarioRun) -> Void] {
        var players: [String: (ScenarioRun) -> Void] = [:]
        for variant in variants {
            precondition(players[variant.name] == nil, "\(scenario.info.id): duplicate variant name \(variant.name)")
            players[variant.name] = { run in scenario.play(variant, in: run) }
        }
        return players
    }

    /// This lab with its reference fixes added.
    func adding(_ solutions: LabSolutions) -> PlayableLab {
        var copy = self
        for variant in solutions.variants {
            precondition(copy.players[variant.name] == nil, "\(lab.id): duplicate variant name \(variant.name)")
        }
        copy.players.merge(solutions.players) { first, _ in first }
        copy.lab = Lab(info: lab.info, variants: lab.variants + solutions.variants)
        return copy
    }

    /// Whether this lab's exercise (and grading corpus) must release every screen on the main
    /// thread, as its reference fixes always must: true once the learning path has taught the
    /// rule (`PlayableLabRegistry(_:viewReleaseTaughtBy:)`).
    public internal(set) var exerciseKeepsViewReleaseOnMain = false

    public var info: LabInfo { lab.info }
    public var id: String { lab.id }
    public var variants: [Lab.Variant] { lab.variants }
    public func variant(named name: String) -> Lab.Variant? { lab.variant(named: name) }

    /// Run one iteration of the scenario (main thread only).
    public func play(variant name: String, in run: ScenarioRun) {
        guard let player = players[name] else { preconditionFailure("\(lab.id) has no variant \(name)") }
        player(run)
    }
}

/// The labs the child can run.
public struct PlayableLabRegistry: Sendable {
    public let labs: [PlayableLab]

    /// `labs` in the order of the learning path. From the lab `viewReleaseTaughtBy` on (the one
    /// that teaches "a view dies on the main thread"), exercises are graded on that rule too;
    /// before it a learner has not met it, and a screen released off main is only a note.
    public init(_ labs: [PlayableLab], viewReleaseTaughtBy teacher: String? = nil) {
        precondition(Set(labs.map(\.id)).count == labs.count, "duplicate lab ids")
        let taughtAt = teacher.map { id in
            guard let index = labs.firstIndex(where: { $0.id == id }) else {
                preconditionFailure("no lab \(id) teaches the view rule")
            }
            return index
        }
        self.labs = labs.enumerated().map { index, lab in
            var lab = lab
            lab.exerciseKeepsViewReleaseOnMain =
                lab.exerciseKeepsViewReleaseOnMain || taughtAt.map { index >= $0 } ?? false
            return lab
        }
    }

    /// With every lab's reference fixes (from the solution catalog) added.
    public func adding(_ solutions: [LabSolutions]) -> PlayableLabRegistry {
        for entry in solutions {
            precondition(labs.contains { $0.id == entry.labID }, "solutions for an unknown lab \(entry.labID)")
        }
        return PlayableLabRegistry(
            labs.map { lab in
                solutions.filter { $0.labID == lab.id }.reduce(lab) { $0.adding($1) }
            })
    }

    public func lab(_ id: String) -> PlayableLab? { labs.first { $0.id == id } }

    /// What the parent needs to know: every lab's facts and variants.
    public var registry: LabRegistry { LabRegistry(labs.map(\.lab)) }
}
