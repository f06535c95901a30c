import LabKit
import CompletionUI

/// completion-ui's grading corpus: each fix's file is named after its variant.
public let completionUICorpus = LabSolutions(CompletionUILab.self, [
    LabVariant(.validFix, name: "valid-dispatch-main") { CompletionUIValidDispatchMain(screen: $0) },
    LabVariant(.validFix, name: "valid-ui-operation-dependency") { CompletionUIValidUIOperationDependency(screen: $0) },
    LabVariant(.validFix, name: "valid-caller-queue") { CompletionUIValidCallerQueue(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-label-only") { CompletionUIWrongLabelOnly(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-ui-operation-no-dependency") { CompletionUIWrongUIOperationNoDependency(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-skip-off-main") { CompletionUIWrongSkipOffMain(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-serial-ui-queue") { CompletionUIWrongSerialUIQueue(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-check-on-main") { CompletionUIWrongCheckOnMain(screen: $0) },
    LabVariant(.wrongFix, name: "wrong-block-keeps-screen") { CompletionUIWrongBlockKeepsScreen(screen: $0) },
])
