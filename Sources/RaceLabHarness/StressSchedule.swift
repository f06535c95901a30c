import LabKit

/// What `racelab stress` and `racelab run --schedule` make of a schedule (LabKit).
extension StressSchedule {
    /// `--schedule` of `racelab stress`: one of them, or both (runs take turns, pauses first).
    public static func parse(_ text: String) throws(UsageError) -> [StressSchedule] {
        if text == "both" { return [.pauses, .priority] }
        guard let one = StressSchedule(rawValue: text) else {
            throw UsageError("--schedule takes pauses, priority or both, not '\(text)'")
        }
        return [one]
    }

    /// The number of points a priority run draws its change points from, before a run of the
    /// program has counted them.
    public static let defaultSteps = 200
    /// The most points the schedule orders in a run (PrioritySchedule.c): change points are drawn
    /// among no more than these.
    public static let maxSteps = 200_000

    /// How long into a run the priority schedule orders threads: a quarter of the run's time
    /// limit, at most 3 s, so that one thread at a time never makes a run look hung.
    public static func limitMilliseconds(timeout: Double) -> Int { max(1, min(3000, Int(timeout * 250))) }
}
