import Foundation
import RaceLabGrading
import RaceLabHarness

/// `racelab grade-merge`: the shards of a class put together. Thin: the work is done by
/// ClassShardMerge.
extension RaceLabCommandLine {
    func gradeMerge(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let output = URL(fileURLWithPath: arguments.string("output") ?? "grades").standardizedFileURL
        try checkOutput(folder: output, option: "--output", what: "the merged grades")
        let merged: ClassShardMerge.Summary
        do {
            merged = try ClassShardMerge.merge(arguments.positionals.map { URL(fileURLWithPath: $0) }, into: output)
        } catch {
            throw UsageError(error.description)
        }
        print(
            "racelab grade-merge: \(merged.shards) shard(s), \(merged.students) submission(s), "
                + "\(merged.files) report file(s); summary \(merged.summaryFile.path)"
        )
        if !merged.harnessErrors.isEmpty {
            stderrLine(
                "racelab: harness failure for \(merged.harnessErrors.joined(separator: ", ")): see summary.csv")
            return 1
        }
        return 0
    }
}
