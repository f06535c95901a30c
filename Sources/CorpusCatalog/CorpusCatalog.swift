// swift-format-ignore-file
// (not formatted: one registration line per lab, however long)
import LabKit

import AsyncOperationCorpus
import AtomicPropertyCorpus
import CancellationCorpus
import CheckThenActCorpus
import CompletionUICorpus
import ConcurrentPerformCorpus
import DeadlockCorpus
import ListAdderCorpus
import MandelbrotCorpus
import OffMainDeallocCorpus
import OnceOnlyInitCorpus
import PhotoPipelineCorpus
import PriorityInversionCorpus
import PropertyStrategiesCorpus
import ReaderWriterCorpus
import StaleResultsCorpus
import TooManyThreadsCorpus
import UIOffMainCorpus
import WorkerThreadCorpus
import WrongQueueCorpus

/// The grading corpus of every lab: other valid fixes and plausible wrong ones, written as a
/// class of students would, graded as exercises by `racelab bench corpus`. One line per lab.
/// A student kit ships without it (racelab export leaves it out, with Tests/GradingCorpus).
public let corpusCatalog: [LabSolutions] = [
    listAdderCorpus,
    staleResultsCorpus,
    tooManyThreadsCorpus,
    cancellationCorpus,
    offMainDeallocCorpus,
    uiOffMainCorpus,
    workerThreadCorpus,
    asyncOperationCorpus,
    readerWriterCorpus,
    mandelbrotCorpus,
    photoPipelineCorpus,
    onceOnlyInitCorpus,
    wrongQueueCorpus,
    checkThenActCorpus,
    atomicPropertyCorpus,
    deadlockCorpus,
    concurrentPerformCorpus,
    completionUICorpus,
    propertyStrategiesCorpus,
    priorityInversionCorpus,
]
