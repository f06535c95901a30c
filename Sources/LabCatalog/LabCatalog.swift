import RaceLabKit

import Cancellation
import ListAdder
import Mandelbrot
import OffMainDealloc
import PhotoPipeline
import StaleResults
import UIOffMain

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
])
