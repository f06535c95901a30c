import Foundation

exit(RaceLabCommandLine().main(Array(CommandLine.arguments.dropFirst())))
