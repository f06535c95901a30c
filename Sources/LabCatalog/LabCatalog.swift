// swift-format-ignore-file
// (not formatted: one registration line per lab, however long)
import LabKit

// The exercise modules are the students': only their factory is imported from each (a scoped
// import), so nothing else an exercise declares can stand in for a name used here.

import AsyncOperation
import func AsyncOperationExercises.makeAsyncOperationExercise
import AtomicProperty
import func AtomicPropertyExercises.makeAtomicPropertyExercise
import Cancellation
import func CancellationExercises.makeCancellationExercise
import CheckThenAct
import func CheckThenActExercises.makeCheckThenActExercise
import CompletionUI
import func CompletionUIExercises.makeCompletionUIExercise
import ConcurrentPerform
import func ConcurrentPerformExercises.makeConcurrentPerformExercise
import Deadlock
import func DeadlockExercises.makeDeadlockExercise
import ListAdder
import func ListAdderExercises.makeListAdderExercise
import Mandelbrot
import func MandelbrotExercises.makeMandelbrotExercise
import OffMainDealloc
import func OffMainDeallocExercises.makeOffMainDeallocExercise
import OnceOnlyInit
import func OnceOnlyInitExercises.makeOnceOnlyInitExercise
import PhotoPipeline
import func PhotoPipelineExercises.makePhotoPipelineExercise
import PriorityInversion
import func PriorityInversionExercises.makePriorityInversionExercise
import PropertyStrategies
import func PropertyStrategiesExercises.makePropertyStrategiesExercise
import ReaderWriter
import func ReaderWriterExercises.makeReaderWriterExercise
import StaleResults
import func StaleResultsExercises.makeStaleResultsExercise
import TooManyThreads
import func TooManyThreadsExercises.makeTooManyThreadsExercise
import UIOffMain
import func UIOffMainExercises.makeUIOffMainExercise
import WorkerThread
import func WorkerThreadExercises.makeWorkerThreadExercise
import WrongQueue
import func WrongQueueExercises.makeWrongQueueExercise
import ActorReentrancy
import func ActorReentrancyExercises.makeActorReentrancyExercise
import ContinuationMisuse
import func ContinuationMisuseExercises.makeContinuationMisuseExercise
import UncheckedSendable
import func UncheckedSendableExercises.makeUncheckedSendableExercise
import TaskLifetime
import func TaskLifetimeExercises.makeTaskLifetimeExercise
import CooperativeCancellation
import func CooperativeCancellationExercises.makeCooperativeCancellationExercise

/// Every lab this build knows, with the student's exercise. Adding a lab: copy a lab folder
/// (Package.swift makes its modules), rename its types, then import its two modules above and
/// add one line here (and its reference fixes, one line in SolutionCatalog.swift).
/// The order is the learning path (README, "The labs"): the order of `racelab list` and `make run`.
public let labCatalog = LabKit.PlayableLabRegistry([
    LabKit.PlayableLab(ListAdder.ListAdderLab.self, exercise: ListAdderExercises.makeListAdderExercise),
    LabKit.PlayableLab(UIOffMain.UIOffMainLab.self, exercise: UIOffMainExercises.makeUIOffMainExercise),
    LabKit.PlayableLab(StaleResults.StaleResultsLab.self, exercise: StaleResultsExercises.makeStaleResultsExercise),
    LabKit.PlayableLab(Cancellation.CancellationLab.self, exercise: CancellationExercises.makeCancellationExercise),
    LabKit.PlayableLab(OffMainDealloc.OffMainDeallocLab.self, exercise: OffMainDeallocExercises.makeOffMainDeallocExercise),
    LabKit.PlayableLab(CheckThenAct.CheckThenActLab.self, exercise: CheckThenActExercises.makeCheckThenActExercise),
    LabKit.PlayableLab(AtomicProperty.AtomicPropertyLab.self, exercise: AtomicPropertyExercises.makeAtomicPropertyExercise),
    LabKit.PlayableLab(ConcurrentPerform.ConcurrentPerformLab.self, exercise: ConcurrentPerformExercises.makeConcurrentPerformExercise),
    LabKit.PlayableLab(OnceOnlyInit.OnceOnlyInitLab.self, exercise: OnceOnlyInitExercises.makeOnceOnlyInitExercise),
    LabKit.PlayableLab(ReaderWriter.ReaderWriterLab.self, exercise: ReaderWriterExercises.makeReaderWriterExercise),
    LabKit.PlayableLab(Deadlock.DeadlockLab.self, exercise: DeadlockExercises.makeDeadlockExercise),
    LabKit.PlayableLab(WrongQueue.WrongQueueLab.self, exercise: WrongQueueExercises.makeWrongQueueExercise),
    LabKit.PlayableLab(WorkerThread.WorkerThreadLab.self, exercise: WorkerThreadExercises.makeWorkerThreadExercise),
    LabKit.PlayableLab(TooManyThreads.TooManyThreadsLab.self, exercise: TooManyThreadsExercises.makeTooManyThreadsExercise),
    LabKit.PlayableLab(AsyncOperation.AsyncOperationLab.self, exercise: AsyncOperationExercises.makeAsyncOperationExercise),
    LabKit.PlayableLab(CompletionUI.CompletionUILab.self, exercise: CompletionUIExercises.makeCompletionUIExercise),
    LabKit.PlayableLab(PriorityInversion.PriorityInversionLab.self, exercise: PriorityInversionExercises.makePriorityInversionExercise),
    LabKit.PlayableLab(PropertyStrategies.PropertyStrategiesLab.self, exercise: PropertyStrategiesExercises.makePropertyStrategiesExercise),
    LabKit.PlayableLab(PhotoPipeline.PhotoPipelineLab.self, exercise: PhotoPipelineExercises.makePhotoPipelineExercise),
    LabKit.PlayableLab(Mandelbrot.MandelbrotLab.self, exercise: MandelbrotExercises.makeMandelbrotExercise),
    LabKit.PlayableLab(ActorReentrancy.ActorReentrancyLab.self, exercise: ActorReentrancyExercises.makeActorReentrancyExercise),
    LabKit.PlayableLab(ContinuationMisuse.ContinuationMisuseLab.self, exercise: ContinuationMisuseExercises.makeContinuationMisuseExercise),
    LabKit.PlayableLab(UncheckedSendable.UncheckedSendableLab.self, exercise: UncheckedSendableExercises.makeUncheckedSendableExercise),
    LabKit.PlayableLab(TaskLifetime.TaskLifetimeLab.self, exercise: TaskLifetimeExercises.makeTaskLifetimeExercise),
    LabKit.PlayableLab(CooperativeCancellation.CooperativeCancellationLab.self, exercise: CooperativeCancellationExercises.makeCooperativeCancellationExercise),
], viewReleaseTaughtBy: OffMainDealloc.OffMainDeallocLab.info.id)  // from that lab on, exercises keep views' release on main
