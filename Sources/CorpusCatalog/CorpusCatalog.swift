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
import ActorReentrancyCorpus
import ContinuationMisuseCorpus
import UncheckedSendableCorpus
import TaskLifetimeCorpus
import CooperativeCancellationCorpus

/// The grading corpus of every lab: other valid fixes and plausible wrong ones, written as a
/// class of students would, graded as exercises by `racelab bench corpus`. One line per lab, in the
/// learning path's order (LabCatalog.swift; CatalogTests checks it).
/// A student kit ships without it (racelab export leaves it out, with Tests/GradingCorpus).
public let corpusCatalog: [LabSolutions] = [
    listAdderCorpus,
    uiOffMainCorpus,
    staleResultsCorpus,
    cancellationCorpus,
    offMainDeallocCorpus,
    checkThenActCorpus,
    atomicPropertyCorpus,
    concurrentPerformCorpus,
    onceOnlyInitCorpus,
    readerWriterCorpus,
    deadlockCorpus,
    wrongQueueCorpus,
    workerThreadCorpus,
    tooManyThreadsCorpus,
    asyncOperationCorpus,
    completionUICorpus,
    priorityInversionCorpus,
    propertyStrategiesCorpus,
    photoPipelineCorpus,
    mandelbrotCorpus,
    actorReentrancyCorpus,
    continuationMisuseCorpus,
    uncheckedSendableCorpus,
    taskLifetimeCorpus,
    cooperativeCancellationCorpus,
]
