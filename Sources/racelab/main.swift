import Foundation
import LabCatalog
import RaceLabKit

// First, before any lab code can run: a child takes its result-signing key from stdin and closes it.
ChannelAuthentication.receiveKeyIfAsked()
exit(RaceLabCommandLine(registry: labCatalog).main(Array(CommandLine.arguments.dropFirst())))
