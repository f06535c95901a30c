import Foundation
import RaceLabGrading
import RaceLabHarness

/// `racelab grade-merge`'s declaration.
enum GradeMergeCommand {
    static let output = Option.text("output", "DIR", "where the merged reports go (default grades)")
    static let spec = CommandSpec(
        name: "grade-merge", arguments: "SHARD-DIR...", positionals: 1...10_000,
        summary:
            "put the --output folders of grade-all --shard K/N (every K of one N) together: one summary.csv "
            + "and every report, as grade-all of the whole class writes them",
        options: [output],
        details:
            "exit status: 0 merged, 1 merged but a student's grading hit a harness failure (see summary.csv), "
            + "2 bad usage\nor shards that do not fit together (not of one class, one missing or given twice, "
            + "one that did not finish)."
    )
}

/// `racelab grade-merge`: the shards of a class put together. Thin: the work is done by
/// ClassShardMerge.
extension RaceLabCommandLine {
    func gradeMerge(_ arguments: ParsedArguments) throws(UsageError) -> Int32 {
        let output = URL(fileURLWithPath: try arguments[GradeMergeCommand.output] ?? "grades").standardizedFileURL
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
