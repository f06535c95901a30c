import LabKit
import Mandelbrot

/// mandelbrot's grading corpus: each fix's file is named after its variant.
public let mandelbrotCorpus = LabSolutions(MandelbrotLab.self, [
    LabVariant(.validFix, name: "valid-global-queue-tickets") { MandelbrotValidGlobalQueueTickets(environment: $0) },
    LabVariant(.validFix, name: "valid-mutex-front-buffer") { MandelbrotValidMutexFrontBuffer(environment: $0) },
    LabVariant(.validFix, name: "valid-serial-queue-skip-when-gone") { MandelbrotValidSerialQueueSkipWhenGone(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-lock-render-only") { MandelbrotWrongLockRenderOnly(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-local-buffer-unordered") { MandelbrotWrongLocalBufferUnordered(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-keeps-queued-renders") { MandelbrotWrongKeepsQueuedRenders(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-assign-on-worker") { MandelbrotWrongAssignOnWorker(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-global-queue-no-view-check") { MandelbrotWrongGlobalQueueNoViewCheck(environment: $0) },
])
