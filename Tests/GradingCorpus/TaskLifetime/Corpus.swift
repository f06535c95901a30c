import LabKit
import TaskLifetime

/// task-lifetime's grading corpus: each fix's file is named after its variant.
public let taskLifetimeCorpus = LabSolutions(TaskLifetimeLab.self, [
    LabVariant(.validFix, name: "valid-cancel-weak-self") { TaskLifetimeValidCancelWeakSelf(environment: $0) },
    LabVariant(.validFix, name: "valid-cancel-check-each-update") { TaskLifetimeValidCancelCheckEachUpdate(environment: $0) },
    LabVariant(.validFix, name: "valid-generation-token") { TaskLifetimeValidGenerationToken(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-weak-self-no-cancel") { TaskLifetimeWrongWeakSelfNoCancel(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-cancel-no-check") { TaskLifetimeWrongCancelNoCheck(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-guard-let-self-at-top") { TaskLifetimeWrongGuardLetSelfAtTop(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-task-detached") { TaskLifetimeWrongTaskDetached(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-cancel-in-deinit") { TaskLifetimeWrongCancelInDeinit(environment: $0) },
])
