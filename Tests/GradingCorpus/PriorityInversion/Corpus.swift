import LabKit
import PriorityInversion

/// priority-inversion's grading corpus: each fix's file is named after its variant.
public let priorityInversionCorpus = LabSolutions(PriorityInversionLab.self, [
    LabVariant(.validFix, name: "valid-raise-high") { PriorityInversionValidRaiseHigh(environment: $0) },
    LabVariant(.validFix, name: "valid-fresh-urgent-decode") { PriorityInversionValidFreshUrgentDecode(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-quality-of-service") { PriorityInversionWrongQualityOfService(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-prefetch-normal") { PriorityInversionWrongPrefetchNormal(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-prefetch-high") { PriorityInversionWrongPrefetchHigh(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-decode-on-main") { PriorityInversionWrongDecodeOnMain(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-wider-queue") { PriorityInversionWrongWiderQueue(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-tapped-photo-guessed") { PriorityInversionWrongTappedPhotoGuessed(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-decoder-thread-keeps-controller") { PriorityInversionWrongDecoderThreadKeepsController(environment: $0) },
])
