import Foundation
import Labs
import RaceLabKit

exit(RaceLabCommandLine(registry: labCatalog).main(Array(CommandLine.arguments.dropFirst())))
