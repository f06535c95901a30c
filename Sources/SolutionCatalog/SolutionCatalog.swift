// swift-format-ignore-file
// (not formatted: one registration line per lab, however long)
import LabKit

import AsyncOperation
import AsyncOperationSolutions
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
import ConcurrentPerform
import ConcurrentPerformSolutions
import Deadlock
import DeadlockSolutions
import ListAdder
import ListAdderSolutions
import ListAdderSwift6Solutions
import Mandelbrot
import MandelbrotSolutions
import OffMainDealloc
import OffMainDeallocSolutions
import OffMainDeallocSwift6Solutions
import OnceOnlyInit
import OnceOnlyInitSolutions
import PhotoPipeline
import PhotoPipelineSolutions
import PriorityInversion
import PriorityInversionSolutions
import PropertyStrategies
import PropertyStrategiesSolutions
import ReaderWriter
import ReaderWriterSolutions
import StaleResults
import StaleResultsSolutions
import StaleResultsSwift6Solutions
import UIOffMain
import UIOffMainSolutions
import UIOffMainSwift6Solutions
import TooManyThreads
import TooManyThreadsSolutions
import WorkerThread
import WorkerThreadSolutions
import WrongQueue
import WrongQueueSolutions

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
    LabSolutions(ConcurrentPerformLab.self, ConcurrentPerformLab.solutions),
    LabSolutions(OnceOnlyInitLab.self, OnceOnlyInitLab.solutions),
    LabSolutions(ReaderWriterLab.self, ReaderWriterLab.solutions),
    LabSolutions(DeadlockLab.self, DeadlockLab.solutions),
    LabSolutions(WrongQueueLab.self, WrongQueueLab.solutions),
    LabSolutions(WorkerThreadLab.self, WorkerThreadLab.solutions),
    LabSolutions(TooManyThreadsLab.self, TooManyThreadsLab.solutions),
    LabSolutions(AsyncOperationLab.self, AsyncOperationLab.solutions),
    LabSolutions(CompletionUILab.self, CompletionUILab.solutions),
    LabSolutions(PriorityInversionLab.self, PriorityInversionLab.solutions),
    LabSolutions(PropertyStrategiesLab.self, PropertyStrategiesLab.solutions),
    LabSolutions(PhotoPipelineLab.self, PhotoPipelineLab.solutions),
    LabSolutions(MandelbrotLab.self, MandelbrotLab.solutions),
]
