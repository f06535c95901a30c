@_spi(LabAuthoring) import LabKit

extension ScenarioOutcome {
    /// A child's result that found nothing in 3 iterations, under ThreadSanitizer.
    static var cleanThreeIterations: ScenarioOutcome {
        var result = ScenarioOutcome()
        result.iterationsRun = 3
        result.tsanEnabled = true
        return result
    }
}
