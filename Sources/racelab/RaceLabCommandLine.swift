import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// The `racelab` command line: the command named, its arguments parsed against its declaration,
/// the command run (each in a file of its own; CommandCatalog.swift lists them). `main.swift`
/// only hands over the arguments.
///
/// racelab links no lab code: the labs run in `racelab-child` (built beside it), which also
/// tells racelab which labs there are (`registry`, asked once, when a command needs it).
public struct RaceLabCommandLine {
    /// The lab program: the labs, their exercises and reference fixes, run one variant a process.
    let childProgram: URL
    let environment: [String: String]
    private let catalog = CatalogCache()

    public init(
        childProgram: URL = ChildCatalog.programBeside(Self.executableURL),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.childProgram = childProgram
        self.environment = environment
    }

    /// The labs `childProgram` knows.
    var registry: LabRegistry {
        get throws(UsageError) {
            if let known = catalog.registry { return known }
            do {
                let loaded = try ChildCatalog.load(from: childProgram)
                catalog.registry = loaded
                return loaded
            } catch {
                throw UsageError(error.description)
            }
        }
    }

    /// `racelab` alone or `racelab help`: every command in one line, by section.
    static var overview: String {
        var lines = ["racelab: run thread-safety labs under ThreadSanitizer and judge each variant."]
        for section in Command.Section.allCases {
            lines += ["", "\(section.rawValue):"]
            for command in commands where command.section == section {
                let head =
                    "  racelab \(command.spec.name)"
                    + (command.spec.arguments.isEmpty ? "" : " \(command.spec.arguments)")
                let column = 36
                if head.count + 2 > column { lines.append(head) }
                lines += TextWrapper.wrap(
                    command.spec.summary, width: 100,
                    indent: head.count + 2 > column
                        ? String(repeating: " ", count: column)
                        : head.padding(toLength: column, withPad: " ", startingAt: 0),
                    continuation: String(repeating: " ", count: column), breakLongWords: false)
            }
        }
        lines += ["", "racelab help COMMAND (or racelab COMMAND --help): its options and exit status."]
        return lines.joined(separator: "\n")
    }

    /// Runs a command; returns the exit status (0, 1 or 2).
    public func main(_ arguments: [String]) -> Int32 {
        do throws(UsageError) {
            guard let name = arguments.first else {
                print(Self.overview)
                return 0
            }
            let rest = Array(arguments.dropFirst())
            if ["help", "--help", "-h"].contains(name) {
                print(try Self.help(rest))
                return 0
            }
            let command = try Self.command(named: name)
            if rest.contains("--help") || rest.contains("-h") {
                print(command.spec.help)
                return 0
            }
            return try command.run(self, ParsedArguments(rest, spec: command.spec))
        } catch {
            FileHandle.standardError.write(Data("racelab: \(error.message)\n".utf8))
            return 2
        }
    }

    static func command(named name: String) throws(UsageError) -> Command {
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            throw UsageError(
                "unknown command '\(name)'; valid: \(commands.map(\.spec.name).joined(separator: ", ")), help")
        }
        return command
    }

    /// `racelab help [COMMAND]`.
    static func help(_ arguments: [String]) throws(UsageError) -> String {
        guard let name = arguments.first else { return overview }
        guard arguments.count == 1 else {
            throw UsageError("help takes one command name at most (got '\(arguments.joined(separator: " "))')")
        }
        return try command(named: name).spec.help
    }

    // MARK: helpers

    /// This program's own binary (racelab-child is built beside it).
    public static var executableURL: URL {
        #if os(Linux)
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
            Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        #endif
    }

    static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}

/// The labs, once asked of the child program (a class: commands share one answer).
final class CatalogCache: @unchecked Sendable {
    var registry: LabRegistry?
}
