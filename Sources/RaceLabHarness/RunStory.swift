import Foundation
import LabKit

/// The parent's own account of a run, from the heartbeats the child sent as it went (each
/// iteration is announced as it starts, with its exploration point), checked against the one
/// result line. A result is believed only when the run it describes was seen happening: a line
/// written by lab code at the start (before any iteration) or one that claims more iterations or
/// other points than were announced has no trail, and is a forgery whatever it says.
public enum RunStory {
    /// Why `result` cannot be the result of the run the heartbeats showed; nil when it can.
    public static func problem(
        with result: ScenarioOutcome, plan: ScenarioPlan, announcedIterations: Set<Int>,
        announcedPoints: Set<String>
    ) -> String? {
        guard result.iterationsRun >= 1 else { return "it claims no iteration ran; every run runs at least one" }
        let unannounced = (1...result.iterationsRun).filter { !announcedIterations.contains($0) }
        if !unannounced.isEmpty {
            let what =
                unannounced.count == result.iterationsRun ? "none of them was" : "\(unannounced.count) of them were not"
            return "it claims \(result.iterationsRun) iteration(s) ran, but \(what) announced by the heartbeats"
        }
        if let last = announcedIterations.max(), last > result.iterationsRun {
            return "the heartbeats announced iteration \(last), but it claims only \(result.iterationsRun) ran"
        }
        if let point = result.explored.first(where: { !announcedPoints.contains($0) }) {
            return "it claims point \(point) was explored, but no heartbeat announced it"
        }
        let detected = !result.failures.isEmpty || result.tsanReports > 0
        if !detected && !plan.mode.isSystematic && result.iterationsRun < max(plan.iterations, 1) {
            return
                "it claims a clean run of \(result.iterationsRun) iteration(s), but the plan asked for \(plan.iterations) and nothing stopped it early"
        }
        if result.iterationsRun > max(plan.iterations, 1) && !plan.mode.isSystematic {
            return "it claims \(result.iterationsRun) iterations, more than the \(plan.iterations) planned"
        }
        return nil
    }
}
