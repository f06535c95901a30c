import LabKit
import PropertyStrategies

/// property-strategies' grading corpus: each fix's file is named after its variant.
public let propertyStrategiesCorpus = LabSolutions(PropertyStrategiesLab.self, [
    LabVariant(.validFix, name: "valid-locked-settings") { PropertyStrategiesValidLockedSettings(environment: $0) },
    LabVariant(.validFix, name: "valid-formatter-per-thread") { PropertyStrategiesValidFormatterPerThread(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-atomic-total") { PropertyStrategiesWrongAtomicTotal(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-shared-formatter") { PropertyStrategiesWrongSharedFormatter(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-delay-still-reconfigured") { PropertyStrategiesWrongDelayStillReconfigured(environment: $0) },
    LabVariant(.validFix, name: "valid-atomic-delay") { PropertyStrategiesValidAtomicDelay(environment: $0) },
])
