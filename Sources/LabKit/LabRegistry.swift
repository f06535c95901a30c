import Foundation

/// A lab as everything outside the child process sees it: its facts and its variants' names.
/// The parent learns these from `racelab-child catalog` and never links lab code.
public struct Lab: Codable, Sendable, Equatable {
    public struct Variant: Codable, Sendable, Hashable {
        public let kind: VariantKind
        public let name: String
        /// The language mode its code is built in: a lab's Swift 6 fix (FixedSwift6*.swift) is
        /// in Swift 6 mode; everything else in Swift 5 mode.
        public let languageMode: LanguageMode
        /// Its code runs as Swift tasks (`LabVariant.runsTasks`), whatever the lab's other code.
        public let runsTasks: Bool

        public init(kind: VariantKind, name: String, languageMode: LanguageMode = .swift5, runsTasks: Bool = false) {
            self.kind = kind
            self.name = name
            self.languageMode = languageMode
            self.runsTasks = runsTasks
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(VariantKind.self, forKey: .kind)
            name = try container.decode(String.self, forKey: .name)
            languageMode = try container.decodeIfPresent(LanguageMode.self, forKey: .languageMode) ?? .swift5
            runsTasks = try container.decodeIfPresent(Bool.self, forKey: .runsTasks) ?? false
        }
    }

    public let info: LabInfo
    /// Broken first, then fixed, then the exercise; within a kind, in the order registered.
    public let variants: [Variant]

    public init(info: LabInfo, variants: [Variant]) {
        let order: [VariantKind] = [.broken, .fixed, .exercise, .validFix, .wrongFix]
        self.info = info
        self.variants = variants.enumerated().sorted {
            (order.firstIndex(of: $0.element.kind)!, $0.offset) < (order.firstIndex(of: $1.element.kind)!, $1.offset)
        }.map(\.element)
    }

    public var id: String { info.id }

    public func variant(named name: String) -> Variant? { variants.first { $0.name == name } }
}

/// The labs a build knows about, looked up by id.
public struct LabRegistry: Codable, Sendable, Equatable {
    public let labs: [Lab]

    public init(_ labs: [Lab]) {
        precondition(Set(labs.map(\.id)).count == labs.count, "duplicate lab ids")
        self.labs = labs
    }

    public func lab(_ id: String) -> Lab? { labs.first { $0.id == id } }

    public var ids: [String] { labs.map(\.id) }
}
