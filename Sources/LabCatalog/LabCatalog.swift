import RaceLabKit

import AtomicProperty
import Cancellation
import CheckThenAct
import Deadlock
import ListAdder
import Mandelbrot
import OffMainDealloc
import OnceOnlyInit
import PhotoPipeline
import ReaderWriter
import StaleResults
import UIOffMain
import WrongQueue

/// Every lab this build knows. Adding a lab: copy a lab folder (it becomes a module by itself),
/// rename its types, then add its import above and one line here.
public let labCatalog = LabRegistry([
    Lab(ListAdderLab.self),
    Lab(UIOffMainLab.self),
    Lab(StaleResultsLab.self),
    Lab(CancellationLab.self),
    Lab(OffMainDeallocLab.self),
    Lab(PhotoPipelineLab.self),
    Lab(MandelbrotLab.self),
    Lab(ReaderWriterLab.self),
    Lab(OnceOnlyInitLab.self),
    Lab(WrongQueueLab.self),
    Lab(CheckThenActLab.self),
    Lab(AtomicPropertyLab.self),
    Lab(DeadlockLab.self),
])
