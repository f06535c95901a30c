import LabKit
import WorkerThread

/// worker-thread's grading corpus: each fix's file is named after its variant.
public let workerThreadCorpus = LabSolutions(WorkerThreadLab.self, [
    LabVariant(.validFix, name: "valid-semaphores") { WorkerThreadValidSemaphores(environment: $0) },
    LabVariant(.validFix, name: "valid-buffer-until-ready") { WorkerThreadValidBufferUntilReady(environment: $0) },
    LabVariant(.validFix, name: "valid-mutex-and-polling-start") { WorkerThreadValidMutexAndPollingStart(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-sleep-in-start") { WorkerThreadWrongSleepInStart(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-keeps-polling") { WorkerThreadWrongKeepsPolling(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-detach-in-stop") { WorkerThreadWrongDetachInStop(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-unlocked-ready-wait") { WorkerThreadWrongUnlockedReadyWait(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-no-source") { WorkerThreadWrongNoSource(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-stop-from-caller") { WorkerThreadWrongStopFromCaller(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-own-queue-naps") { WorkerThreadWrongOwnQueueNaps(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-signal-then-detach") { WorkerThreadWrongSignalThenDetach(environment: $0) },
    LabVariant(.wrongFix, name: "wrong-polls-after-a-nap") { WorkerThreadWrongPollsAfterANap(environment: $0) },
])
