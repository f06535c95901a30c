import TSanReports

/// A bad command line: printed as one line, exit status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One option of a command, declared once: the parser, the usage line, the help and the
/// "valid:" list of an error all come from it. A command declares it through the symbol it
/// reads it with, a `Flag` or an `Option` (TypedOptions.swift).
public struct OptionSpec: Sendable {
    public let name: String
    /// What its value looks like ("N", "a,b", "FILE"); nil for a flag.
    public let value: String?
    /// What it does, one or more sentences (wrapped by `CommandSpec.help`).
    public let help: String

    public static func value(_ name: String, _ value: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help)
    }

    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help)
    }

    /// "--seed S", "--json".
    public var synopsis: String { "--\(name)" + (value.map { " \($0)" } ?? "") }
}

/// One command, declared once: its arguments, its options with their help, and a line saying
/// what it does. Its usage line, its help and its usage errors are made from this.
public struct CommandSpec: Sendable {
    /// The program the command belongs to ("racelab").
    public var program: String
    public var name: String
    /// The arguments before the options, as the usage line shows them ("<lab>", "[FILE|-]").
    public var arguments: String
    public var positionals: ClosedRange<Int>
    /// What the command does, in one line (the overview's entry).
    public var summary: String
    public var options: [OptionSpec]
    /// What else its help says: exit statuses, defaults several options share.
    public var details: String

    public init(
        program: String = "racelab", name: String, arguments: String = "", positionals: ClosedRange<Int> = 0...0,
        summary: String, options: [OptionSpec] = [], details: String = ""
    ) {
        self.program = program
        self.name = name
        self.arguments = arguments
        self.positionals = positionals
        self.summary = summary
        self.options = options
        self.details = details
    }

    /// A command whose options are typed symbols (`Flag`, `Option`): the symbols it reads them with.
    public init(
        program: String = "racelab", name: String, arguments: String = "", positionals: ClosedRange<Int> = 0...0,
        summary: String, options: [any DeclaredOption], details: String = ""
    ) {
        self.init(
            program: program, name: name, arguments: arguments, positionals: positionals, summary: summary,
            options: options.map(\.declaration), details: details)
    }

    public var valueOptions: [String] { options.filter { $0.value != nil }.map(\.name) }
    public var flags: [String] { options.filter { $0.value == nil }.map(\.name) }

    /// "racelab check <lab> [--seed S] [--jobs N]"; the options first when the arguments start
    /// with "--" (everything after it is another program's): "racelab stress [--runs R] -- PROGRAM".
    public var usage: String {
        let optionWords = options.map { "[\($0.synopsis)]" }
        let words =
            arguments.hasPrefix("-- ")
            ? [program, name] + optionWords + [arguments] : [program, name, arguments] + optionWords
        return words.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `racelab help NAME`: the usage line, what it does, each option, the details.
    public var help: String {
        let width = 100
        var lines = ["usage: \(usage)", ""] + TextWrapper.wrap(summary, width: width, breakLongWords: false)
        if !options.isEmpty {
            lines += ["", "options:"]
            let column = min((options.map(\.synopsis.count).max() ?? 0) + 4, 36)
            let hanging = String(repeating: " ", count: column)
            for option in options {
                let head = "  " + option.synopsis
                if head.count + 2 > column { lines.append(head) }
                lines += TextWrapper.wrap(
                    option.help, width: width,
                    indent: head.count + 2 > column
                        ? hanging : head.padding(toLength: column, withPad: " ", startingAt: 0),
                    continuation: hanging, breakLongWords: false)
            }
        }
        if !details.isEmpty { lines += [""] + details.components(separatedBy: "\n") }
        return lines.joined(separator: "\n")
    }
}

/// A parsed command line: `--name value`, `--name=value`, `--flag`, and positionals.
/// Small on purpose (no package dependencies). Options are read by their symbols
/// (`arguments[RunCommand.runs]`, TypedOptions.swift), which validate and explain.
public struct ParsedArguments: Sendable {
    public let spec: CommandSpec
    public private(set) var positionals: [String] = []
    /// By option name; read through the options' symbols, never by a name spelt out.
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []

    public init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
        self.spec = spec
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                if argument.hasPrefix("-") && argument != "-" && !onlyPositionals && Int(argument) == nil {
                    throw UsageError("unknown option '\(argument)' for '\(spec.name)'; valid: \(validOptions)")
                }
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if spec.flags.contains(name) {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if spec.valueOptions.contains(name) {
                guard let value = inlineValue ?? (index < arguments.count ? arguments[index] : nil) else {
                    throw UsageError("--\(name) needs a value")
                }
                if inlineValue == nil { index += 1 }
                guard values[name] == nil else { throw UsageError("--\(name) was given twice") }
                values[name] = value
            } else {
                throw UsageError("unknown option '--\(name)' for '\(spec.name)'; valid: \(validOptions)")
            }
        }
        guard spec.positionals.contains(positionals.count) else {
            if positionals.count > spec.positionals.upperBound {
                throw UsageError(
                    "unexpected argument '\(positionals[spec.positionals.upperBound])'; usage: \(spec.usage)")
            }
            throw UsageError("missing argument; usage: \(spec.usage)")
        }
    }

    private var validOptions: String {
        let all = spec.options.map { "--\($0.name)" }
        return all.isEmpty ? "none" : all.joined(separator: ", ")
    }
}
