import Foundation
import LabCatalog
import LabKit

#if RACELAB_SOLUTIONS
    import SolutionCatalog
#endif
#if RACELAB_CORPUS
    import CorpusCatalog
#endif

#if RACELAB_CORPUS
    let labs = labCatalog.adding(solutionCatalog).adding(corpusCatalog)
#elseif RACELAB_SOLUTIONS
    let labs = labCatalog.adding(solutionCatalog)
#else
    let labs = labCatalog
#endif
exit(ChildCommand(labs: labs).main(Array(CommandLine.arguments.dropFirst())))
