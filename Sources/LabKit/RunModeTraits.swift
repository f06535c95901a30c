/// What the harness asks of a pass outside the child, read from its `PassPolicy` (declared in
/// the pass's own file): nothing here names a pass, so a new one needs no line in this file.
extension RunMode {
    /// See `PassPolicy.seedOffset`.
    public var seedOffset: UInt64 { policy.seedOffset }

    /// See `PassPolicy.isSystematic`.
    public var isSystematic: Bool { policy.isSystematic }

    /// See `PassPolicy.isCalibrated`.
    public var isCalibrated: Bool { policy.isCalibrated }

    /// See `PassPolicy.storyMode`.
    public var storyMode: ScenarioMode { policy.storyMode }

    /// When the pass's children start among others (`sharded`: a systematic pass split into
    /// shards).
    public func startOrder(sharded: Bool) -> Int { sharded ? policy.shardedStartOrder : policy.startOrder }

    /// Whether the pass is for `variant` of `lab` (`PassPolicy.appliesTo`).
    public func applies(to variant: Lab.Variant, in lab: LabInfo) -> Bool { policy.appliesTo(variant, lab) }

    /// Whether the pass is for any of `lab`'s variants.
    public func applies(to lab: Lab) -> Bool { lab.variants.contains { applies(to: $0, in: lab.info) } }

    /// See `PassPolicy.howItTries`.
    public var howItTries: String { policy.howItTries }

    /// One fact of every pass, by mode.
    public static func table<Fact>(_ fact: (PassPolicy) -> Fact) -> [RunMode: Fact] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0, fact($0.policy)) })
    }

    /// Every pass's name, in order, as an option's value is shown: "scripted|explore|stress".
    public static var choices: String { allCases.map(\.rawValue).joined(separator: "|") }
}
