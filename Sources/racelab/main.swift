import Foundation
import LabCatalog
import RaceLabKit

exit(RaceLabCommandLine(registry: labCatalog).main(Array(CommandLine.arguments.dropFirst())))
