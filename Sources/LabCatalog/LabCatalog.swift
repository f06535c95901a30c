import LabKit

import AsyncOperation
import AsyncOperationExercises
import AtomicProperty
import AtomicPropertyExercises
import Cancellation
import CancellationExercises
import CheckThenAct
import CheckThenActExercises
import CompletionUI
import CompletionUIExercises
import ConcurrentPerform
import ConcurrentPerformExercises
import Deadlock
import DeadlockExercises
import ListAdder
import ListAdderExercises
import Mandelbrot
import MandelbrotExercises
import OffMainDealloc
import OffMainDeallocExercises
import OnceOnlyInit
import OnceOnlyInitExercises
import PhotoPipeline
import PhotoPipelineExercises
import PriorityInversion
import PriorityInversionExercises
import PropertyStrategies
import PropertyStrategiesExercises
import ReaderWriter
import ReaderWriterExercises
import StaleResults
import StaleResultsExercises
import TooManyThreads
import TooManyThreadsExercises
import UIOffMain
import UIOffMainExercises
import WorkerThread
import WorkerThreadExercises
import WrongQueue
import WrongQueueExercises

/// Every lab this build knows, with the student's exercise. Adding a lab: copy a lab folder
/// (Package.swift makes its modules), rename its types, then import its two modules above and
/// add one line here (and its reference fixes, one line in SolutionCatalog.swift).
/// The order is the learning path (README, "The labs"): the order of `racelab list` and `make run`.
public let labCatalog = PlayableLabRegistry([
    PlayableLab(ListAdderLab.self, exercise: makeListAdderExercise),
    PlayableLab(UIOffMainLab.self, exercise: makeUIOffMainExercise),
    PlayableLab(StaleResultsLab.self, exercise: makeStaleResultsExercise),
    PlayableLab(CancellationLab.self, exercise: makeCancellationExercise),
    PlayableLab(OffMainDeallocLab.self, exercise: makeOffMainDeallocExercise),
    PlayableLab(CheckThenActLab.self, exercise: makeCheckThenActExercise),
    PlayableLab(AtomicPropertyLab.self, exercise: makeAtomicPropertyExercise),
    PlayableLab(ConcurrentPerformLab.self, exercise: makeConcurrentPerformExercise),
    PlayableLab(OnceOnlyInitLab.self, exercise: makeOnceOnlyInitExercise),
    PlayableLab(ReaderWriterLab.self, exercise: makeReaderWriterExercise),
    PlayableLab(DeadlockLab.self, exercise: makeDeadlockExercise),
    PlayableLab(WrongQueueLab.self, exercise: makeWrongQueueExercise),
    PlayableLab(WorkerThreadLab.self, exercise: makeWorkerThreadExercise),
    PlayableLab(TooManyThreadsLab.self, exercise: makeTooManyThreadsExercise),
    PlayableLab(AsyncOperationLab.self, exercise: makeAsyncOperationExercise),
    PlayableLab(CompletionUILab.self, exercise: makeCompletionUIExercise),
    PlayableLab(PriorityInversionLab.self, exercise: makePriorityInversionExercise),
    PlayableLab(PropertyStrategiesLab.self, exercise: makePropertyStrategiesExercise),
    PlayableLab(PhotoPipelineLab.self, exercise: makePhotoPipelineExercise),
    PlayableLab(MandelbrotLab.self, exercise: makeMandelbrotExercise),
], viewReleaseTaughtBy: OffMainDeallocLab.info.id)  // from that lab on, exercises keep views' release on main
