import LabKit

/// The run options that both racelab and its child read (`--mode`, `--point`): each parsed and
/// refused in one place, with one wording.
extension ParsedArguments {
    /// `--mode`, which must be given: one of `RunMode`'s cases.
    public func runMode() throws(UsageError) -> RunMode {
        let valid = RunMode.allCases.map(\.rawValue)
        guard let mode = try choice("mode", from: valid).flatMap(RunMode.init(rawValue:)) else {
            throw UsageError("run needs --mode, one of \(valid.joined(separator: ", "))")
        }
        return mode
    }

    /// `--point PAUSE:HIT`, if given.
    public func explorationPoint() throws(UsageError) -> ExplorationPoint? {
        guard let text = string("point") else { return nil }
        guard let point = ExplorationPoint(text) else {
            throw UsageError("--point must be PAUSE:HIT (two whole numbers from 1), not '\(text)'")
        }
        return point
    }
}
