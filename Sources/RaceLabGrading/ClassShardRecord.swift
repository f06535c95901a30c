import Foundation
import RaceLabHarness

/// What `racelab grade-all --shard K/N` writes beside its reports (`_shard.json`): which shard
/// the folder is, its students in order, and everything that must be the same in every shard
/// of one class for `racelab grade-merge` to put them together.
public struct ClassShardRecord: Codable, Sendable, Equatable {
    /// No report can be named this: report names start with "_" only as "__..." or "_dot_..."
    /// (`ClassGrader.fileName(for:)`).
    public static let fileName = "_shard.json"

    public var format = 1
    /// K of N.
    public var shard: Int
    public var of: Int
    public var seed: UInt64
    /// The kit's manifest digest (`KitManifest.digest`).
    public var kitManifest: String
    /// The labs graded: summary.csv's columns.
    public var labs: [String]
    public var reportFormat: String
    public var policy: GradingPolicy
    public var exerciseChecks: Bool
    /// The whole class, every shard's entries: how many, and a digest of their names.
    public var classSize: Int
    public var classDigest: String
    /// This shard's entries, in grade-all's order: the rows of its summary.csv.
    public var students: [String]

    public var classShard: ClassShard? { ClassShard(index: shard, count: of) }
}

extension ClassShardRecord {
    /// The record of `shard` of `grader`'s class (`all`: every entry of the submissions folder).
    public init(
        shard: ClassShard, grader: ClassGrader, labs: [String], all: [SubmissionFolder.Entry]
    ) {
        self.shard = shard.index
        of = shard.count
        seed = grader.settings.seed
        kitManifest = grader.trusted.digest
        self.labs = labs
        reportFormat = grader.settings.format.rawValue
        policy = grader.policy
        exerciseChecks = grader.settings.exerciseChecks
        classSize = all.count
        classDigest = Self.digest(of: all.map(\.name))
        students = shard.share(of: all).map(\.name)
    }

    /// A digest of a list of names (each length-prefixed: a name may hold any character).
    static func digest(of names: [String]) -> String {
        var hasher = SHA256()
        for name in names { hasher.update("\(name.utf8.count):\(name)\n") }
        return SHA256.hexString(hasher.finalize())
    }

    public func write(into folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: folder.appendingPathComponent(Self.fileName), options: .atomic)
    }

    /// The record in `folder`; nil when it has none.
    public static func read(in folder: URL) throws -> ClassShardRecord? {
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(ClassShardRecord.self, from: Data(contentsOf: url))
    }
}
