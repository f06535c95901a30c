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
import CheckThenAct
import CheckThenActSolutions
import CompletionUI
import CompletionUISolutions
import CompletionUISwift6Solutions
import ConcurrentPerform
import ConcurrentPerformSolutions
import Deadlock
import DeadlockSolutions
import ListAdder
import ListAdderSolutions
import Mandelbrot
import MandelbrotSolutions
import MandelbrotSwift6Solutions
import OffMainDealloc
import OffMainDeallocSolutions
import OnceOnlyInit
import OnceOnlyInitSolutions
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
import StaleResults
import StaleResultsSolutions
import UIOffMain
import UIOffMainSolutions
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
    LabSolutions(ListAdderLab.self, ListAdderLab.solutions),
    LabSolutions(UIOffMainLab.self, UIOffMainLab.solutions),
    LabSolutions(StaleResultsLab.self, StaleResultsLab.solutions),
    LabSolutions(CancellationLab.self, CancellationLab.solutions),
    LabSolutions(OffMainDeallocLab.self, OffMainDeallocLab.solutions),
    LabSolutions(CheckThenActLab.self, CheckThenActLab.solutions),
    LabSolutions(AtomicPropertyLab.self, AtomicPropertyLab.solutions, swift6: AtomicPropertyLab.swift6Solutions),
    LabSolutions(ConcurrentPerformLab.self, ConcurrentPerformLab.solutions),
    LabSolutions(OnceOnlyInitLab.self, OnceOnlyInitLab.solutions),
    LabSolutions(ReaderWriterLab.self, ReaderWriterLab.solutions),
    LabSolutions(DeadlockLab.self, DeadlockLab.solutions),
    LabSolutions(WrongQueueLab.self, WrongQueueLab.solutions),
    LabSolutions(WorkerThreadLab.self, WorkerThreadLab.solutions),
    LabSolutions(TooManyThreadsLab.self, TooManyThreadsLab.solutions),
    LabSolutions(AsyncOperationLab.self, AsyncOperationLab.solutions, swift6: AsyncOperationLab.swift6Solutions),
    LabSolutions(CompletionUILab.self, CompletionUILab.solutions, swift6: CompletionUILab.swift6Solutions),
    LabSolutions(PriorityInversionLab.self, PriorityInversionLab.solutions, swift6: PriorityInversionLab.swift6Solutions),
    LabSolutions(PropertyStrategiesLab.self, PropertyStrategiesLab.solutions, swift6: PropertyStrategiesLab.swift6Solutions),
    LabSolutions(PhotoPipelineLab.self, PhotoPipelineLab.solutions, swift6: PhotoPipelineLab.swift6Solutions),
    LabSolutions(MandelbrotLab.self, MandelbrotLab.solutions, swift6: MandelbrotLab.swift6Solutions),
]
