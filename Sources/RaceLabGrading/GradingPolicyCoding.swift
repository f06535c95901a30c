import LabKit

/// A policy's JSON (in every grade report and class record, read by other tools): one pair of
/// fields per pass, "<mode>Runs" and "<mode>Points" ("scriptedRuns", "stressPoints"), beside the
/// policy's other settings, as when each pass had a stored field of its own. Every field must be
/// there, as then.
extension GradingPolicy: Codable {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }

        static func runs(_ mode: RunMode) -> Key { Key("\(mode.rawValue)Runs") }
        static func points(_ mode: RunMode) -> Key { Key("\(mode.rawValue)Points") }
        static let stressFloorRuns = Key("stressFloorRuns")
        static let stressFloorIterations = Key("stressFloorIterations")
        static let partialCredit = Key("partialCredit")
        static let target = Key("target")
        static let maxStressIterationsPerRun = Key("maxStressIterationsPerRun")
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: Key.self)
        self.init()
        for mode in Grader.passes {
            passRuns[mode] = try values.decode(Int.self, forKey: .runs(mode))
            passPoints[mode] = try values.decode(Double.self, forKey: .points(mode))
        }
        stressFloorRuns = try values.decode(Int.self, forKey: .stressFloorRuns)
        stressFloorIterations = try values.decode(Int.self, forKey: .stressFloorIterations)
        partialCredit = try values.decode(Bool.self, forKey: .partialCredit)
        target = try values.decode(Double.self, forKey: .target)
        maxStressIterationsPerRun = try values.decode(Int.self, forKey: .maxStressIterationsPerRun)
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: Key.self)
        for mode in Grader.passes {
            try values.encode(runs(for: mode), forKey: .runs(mode))
            try values.encode(points(for: mode), forKey: .points(mode))
        }
        try values.encode(stressFloorRuns, forKey: .stressFloorRuns)
        try values.encode(stressFloorIterations, forKey: .stressFloorIterations)
        try values.encode(partialCredit, forKey: .partialCredit)
        try values.encode(target, forKey: .target)
        try values.encode(maxStressIterationsPerRun, forKey: .maxStressIterationsPerRun)
    }
}
