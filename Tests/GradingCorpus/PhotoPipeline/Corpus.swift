import LabKit
import PhotoPipeline

/// photo-pipeline's grading corpus: each fix's file is named after its variant.
public let photoPipelineCorpus = LabSolutions(PhotoPipelineLab.self, [
    LabVariant(.validFix, name: "valid-one-operation-per-row") { PhotoPipelineValidOneOperationPerRow(environment: $0) },
    LabVariant(.validFix, name: "valid-gcd-work-items") { PhotoPipelineValidGCDWorkItems(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-bookkeeping-off-main") { PhotoPipelineWrongBookkeepingOffMain(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-cancel-does-not-stop") { PhotoPipelineWrongCancelDoesNotStop(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-failed-stays-placeholder") { PhotoPipelineWrongFailedStaysPlaceholder(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-filter-without-dependency") { PhotoPipelineWrongFilterWithoutDependency(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-shared-record-while-in-progress") { PhotoPipelineWrongSharedRecordWhileInProgress(environment: $0) },
])
