import Foundation

/// One way of writing the lab's code: broken, a fixed variant, or the student's exercise.
/// `Environment` is whatever the lab hands its variants (screen, slow-work helpers).
public struct LabVariant<Environment, Subject> {
    public let kind: VariantKind
    /// Unique within the lab: "broken", "fixed", "fixed-gcd", "exercise".
    public let name: String
    public let make: (Environment) -> Subject

    public init(_ kind: VariantKind, name: String? = nil, make: @escaping (Environment) -> Subject) {
        self.kind = kind
        self.name = name ?? kind.rawValue
        self.make = make
    }
}

/// What a lab folder's Scenario.swift implements: the lab's facts, its variants, and the
/// scenario (user actions + invariants) that drives any variant the same way.
///
/// Reference fixed variants are listed by `solutions`, which each Fixed*.swift provides in an
/// extension; without those files the default (none) applies and everything still builds.
public protocol LabScenario {
    associatedtype Environment
    associatedtype Subject

    static var info: LabInfo { get }
    /// The broken variant and the exercise (the student's copy).
    static var variants: [LabVariant<Environment, Subject>] { get }
    /// Reference fixed variants (removable: the student kit ships without them).
    static var solutions: [LabVariant<Environment, Subject>] { get }

    /// Run one iteration of the scenario against `variant` on the main thread.
    static func play(_ variant: LabVariant<Environment, Subject>, in run: ScenarioRun)
}

extension LabScenario {
    public static var solutions: [LabVariant<Environment, Subject>] { [] }
}

/// A lab with its types erased, as the registry and the driver see it.
public struct Lab: @unchecked Sendable {
    public struct Variant: Sendable, Hashable {
        public let kind: VariantKind
        public let name: String
    }

    public let info: LabInfo
    public let variants: [Variant]
    private let playVariant: (String, ScenarioRun) -> Void

    public init<Scenario: LabScenario>(_ scenario: Scenario.Type) {
        let all = scenario.variants + scenario.solutions
        let order: [VariantKind] = [.broken, .fixed, .exercise]
        let sorted = all.enumerated().sorted {
            (order.firstIndex(of: $0.element.kind)!, $0.offset) < (order.firstIndex(of: $1.element.kind)!, $1.offset)
        }.map(\.element)
        precondition(Set(sorted.map(\.name)).count == sorted.count, "\(scenario.info.id): duplicate variant names")
        self.info = scenario.info
        self.variants = sorted.map { Variant(kind: $0.kind, name: $0.name) }
        self.playVariant = { name, run in
            guard let variant = sorted.first(where: { $0.name == name }) else {
                preconditionFailure("\(scenario.info.id) has no variant \(name)")
            }
            scenario.play(variant, in: run)
        }
    }

    public var id: String { info.id }

    public func variant(named name: String) -> Variant? { variants.first { $0.name == name } }

    /// Run one iteration of the scenario (main thread only).
    public func play(variant name: String, in run: ScenarioRun) { playVariant(name, run) }
}

/// The labs a build knows about, looked up by id.
public struct LabRegistry: Sendable {
    public let labs: [Lab]

    public init(_ labs: [Lab]) {
        precondition(Set(labs.map(\.id)).count == labs.count, "duplicate lab ids")
        self.labs = labs
    }

    public func lab(_ id: String) -> Lab? { labs.first { $0.id == id } }

    public var ids: [String] { labs.map(\.id) }
}
