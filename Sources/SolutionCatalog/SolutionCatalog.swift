// swift-format-ignore-file
// (not formatted: one registration line per lab, however long)
import LabKit

import AsyncOperation
import AsyncOperationSolutions
import AsyncOperationSwift6Solutions
import AtomicProperty
import AtomicPropertySolutions
import AtomicPropertySwift6Solutions
import Cancellation
import CancellationSolutions
import CancellationSwift6Solutions
import CheckThenAct
import CheckThenActSolutions
import CheckThenActSwift6Solutions
import CompletionUI
import CompletionUISolutions
import CompletionUISwift6Solutions
import ConcurrentPerform
import ConcurrentPerformSolutions
import ConcurrentPerformSwift6Solutions
import Deadlock
import DeadlockSolutions
import DeadlockSwift6Solutions
import ListAdder
import ListAdderSolutions
import ListAdderSwift6Solutions
import Mandelbrot
import MandelbrotSolutions
import MandelbrotSwift6Solutions
import OffMainDealloc
import OffMainDeallocSolutions
import OffMainDeallocSwift6Solutions
import OnceOnlyInit
import OnceOnlyInitSolutions
import OnceOnlyInitSwift6Solutions
import PhotoPipeline
import PhotoPipelineSolutions
import PhotoPipelineSwift6Solutions
import PriorityInversion
import PriorityInversionSolutions
import PriorityInversionSwift6Solutions
import PropertyStrategies
import PropertyStrategiesSolutions
import PropertyStrategiesSwift6Solutions
import ReaderWriter
import ReaderWriterSolutions
import ReaderWriterSwift6Solutions
import StaleResults
import StaleResultsSolutions
import StaleResultsSwift6Solutions
import UIOffMain
import UIOffMainSolutions
import UIOffMainSwift6Solutions
import TooManyThreads
import TooManyThreadsSolutions
import TooManyThreadsSwift6Solutions
import WorkerThread
import WorkerThreadSolutions
import WorkerThreadSwift6Solutions
import WrongQueue
import WrongQueueSolutions
import WrongQueueSwift6Solutions
import ActorReentrancy
import ActorReentrancySolutions
import ActorReentrancySwift6Solutions
import ContinuationMisuse
import ContinuationMisuseSolutions
import ContinuationMisuseSwift6Solutions
import UncheckedSendable
import UncheckedSendableSolutions
import UncheckedSendableSwift6Solutions
import TaskLifetime
import TaskLifetimeSolutions
import TaskLifetimeSwift6Solutions
import CooperativeCancellation
import CooperativeCancellationSolutions
import CooperativeCancellationSwift6Solutions

/// The reference fixes of every lab, registered here, outside the labs' own modules, so an
/// exercise cannot declare, replace or hide one. A student kit ships without this folder and
/// without any Fixed*.swift (racelab export leaves them out). One line per lab, in the learning
/// path's order (LabCatalog.swift; CatalogTests checks it).
public let solutionCatalog: [LabSolutions] = [
    LabSolutions(ListAdderLab.self, ListAdderLab.solutions, swift6: ListAdderLab.swift6Solutions),
    LabSolutions(UIOffMainLab.self, UIOffMainLab.solutions, swift6: UIOffMainLab.swift6Solutions),
    LabSolutions(StaleResultsLab.self, StaleResultsLab.solutions, swift6: StaleResultsLab.swift6Solutions),
    LabSolutions(CancellationLab.self, CancellationLab.solutions, swift6: CancellationLab.swift6Solutions),
    LabSolutions(OffMainDeallocLab.self, OffMainDeallocLab.solutions, swift6: OffMainDeallocLab.swift6Solutions),
    LabSolutions(CheckThenActLab.self, CheckThenActLab.solutions, swift6: CheckThenActLab.swift6Solutions),
    LabSolutions(AtomicPropertyLab.self, AtomicPropertyLab.solutions, swift6: AtomicPropertyLab.swift6Solutions),
    LabSolutions(ConcurrentPerformLab.self, ConcurrentPerformLab.solutions, swift6: ConcurrentPerformLab.swift6Solutions),
    LabSolutions(OnceOnlyInitLab.self, OnceOnlyInitLab.solutions, swift6: OnceOnlyInitLab.swift6Solutions),
    LabSolutions(ReaderWriterLab.self, ReaderWriterLab.solutions, swift6: ReaderWriterLab.swift6Solutions),
    LabSolutions(DeadlockLab.self, DeadlockLab.solutions, swift6: DeadlockLab.swift6Solutions),
    LabSolutions(WrongQueueLab.self, WrongQueueLab.solutions, swift6: WrongQueueLab.swift6Solutions),
    LabSolutions(WorkerThreadLab.self, WorkerThreadLab.solutions, swift6: WorkerThreadLab.swift6Solutions),
    LabSolutions(TooManyThreadsLab.self, TooManyThreadsLab.solutions, swift6: TooManyThreadsLab.swift6Solutions),
    LabSolutions(AsyncOperationLab.self, AsyncOperationLab.solutions, swift6: AsyncOperationLab.swift6Solutions),
    LabSolutions(CompletionUILab.self, CompletionUILab.solutions, swift6: CompletionUILab.swift6Solutions),
    LabSolutions(PriorityInversionLab.self, PriorityInversionLab.solutions, swift6: PriorityInversionLab.swift6Solutions),
    LabSolutions(PropertyStrategiesLab.self, PropertyStrategiesLab.solutions, swift6: PropertyStrategiesLab.swift6Solutions),
    LabSolutions(PhotoPipelineLab.self, PhotoPipelineLab.solutions, swift6: PhotoPipelineLab.swift6Solutions),
    LabSolutions(MandelbrotLab.self, MandelbrotLab.solutions, swift6: MandelbrotLab.swift6Solutions),
    LabSolutions(ActorReentrancyLab.self, ActorReentrancyLab.solutions, swift6: ActorReentrancyLab.swift6Solutions),
    LabSolutions(ContinuationMisuseLab.self, ContinuationMisuseLab.solutions, swift6: ContinuationMisuseLab.swift6Solutions),
    LabSolutions(UncheckedSendableLab.self, UncheckedSendableLab.solutions, swift6: UncheckedSendableLab.swift6Solutions),
    LabSolutions(TaskLifetimeLab.self, TaskLifetimeLab.solutions, swift6: TaskLifetimeLab.swift6Solutions),
    LabSolutions(CooperativeCancellationLab.self, CooperativeCancellationLab.solutions, swift6: CooperativeCancellationLab.swift6Solutions),
]
