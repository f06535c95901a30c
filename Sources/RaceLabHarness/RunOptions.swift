import LabKit

/// The run options that both racelab and its child read (`--mode`, `--point`): each checked and
/// refused in one place, with one wording; each program gives its own help.
extension Option where Value == RunMode {
    /// `--mode`: one of `RunMode`'s cases.
    public static func runMode(_ help: String) -> Self { .choice("mode", RunMode.choices, help) }
}

extension Option where Value == ExplorationPoint {
    /// `--point PAUSE:HIT`.
    public static func explorationPoint(_ help: String) -> Self {
        Option("point", "P:K", help) { text throws(UsageError) in
            guard let point = ExplorationPoint(text) else {
                throw UsageError("--point must be PAUSE:HIT (two whole numbers from 1), not '\(text)'")
            }
            return point
        }
    }
}
