import Foundation
import RaceLabHarness

Interruption.install()
exit(RaceLabCommandLine().main(Array(CommandLine.arguments.dropFirst())))
