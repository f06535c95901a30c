/// An option as one symbol: a command lists it in its `CommandSpec` (its usage line, help and
/// "valid:" list come from it) and reads it with the same symbol, so an option misspelt where it
/// is read does not compile, and its validation and its error's wording are the same wherever it
/// is read.
///
///     static let runs = Option.number("runs", "N", "child processes per variant", in: 1...10_000)
///     static let json = Flag("json", "machine-readable output")
///     static let spec = CommandSpec(name: "run", summary: "...", options: [runs, json])
///     let runs = try arguments[RunCommand.runs] ?? 1   // Int?: nil when not given
///     if arguments[RunCommand.json] { ... }            // Bool
public protocol DeclaredOption: Sendable {
    var declaration: OptionSpec { get }
}

/// An option without a value (`--json`): given or not.
public struct Flag: DeclaredOption {
    public let declaration: OptionSpec

    public init(_ name: String, _ help: String) { declaration = .flag(name, help) }
}

/// An option with a value (`--runs 5`, `--runs=5`), read as a `Value` or refused in one line.
public struct Option<Value: Sendable>: DeclaredOption {
    public let declaration: OptionSpec
    let parse: @Sendable (String) throws(UsageError) -> Value

    /// `value`: what it looks like in the usage line ("N", "FILE"); `parse`: the given text as a
    /// `Value`, or a `UsageError` that names the option and says what is valid.
    public init(
        _ name: String, _ value: String, _ help: String,
        parse: @escaping @Sendable (String) throws(UsageError) -> Value
    ) {
        declaration = .value(name, value, help)
        self.parse = parse
    }

    public var name: String { declaration.name }
}

extension Option where Value == String {
    /// Any text (a path, a name, a list read later).
    public static func text(_ name: String, _ value: String, _ help: String) -> Self {
        Option(name, value, help) { $0 }
    }
}

extension Option where Value == Int {
    /// A whole number within `range`.
    public static func number(_ name: String, _ value: String, _ help: String, in range: ClosedRange<Int>) -> Self {
        Option(name, value, help) { text throws(UsageError) in
            guard let number = Int(text), range.contains(number) else {
                throw UsageError(
                    "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return number
        }
    }
}

extension Option where Value == UInt64 {
    /// A whole number from 0 (a seed).
    public static func unsigned(_ name: String, _ value: String, _ help: String) -> Self {
        Option(name, value, help) { text throws(UsageError) in
            guard let number = UInt64(text) else {
                throw UsageError("--\(name) must be a whole number from 0 to \(UInt64.max), not '\(text)'")
            }
            return number
        }
    }
}

extension Option where Value == Double {
    /// A number of seconds within `range`.
    public static func seconds(_ name: String, _ value: String, _ help: String, in range: ClosedRange<Double>) -> Self {
        Option(name, value, help) { text throws(UsageError) in
            guard let seconds = Double(text), range.contains(seconds) else {
                throw UsageError(
                    "--\(name) must be a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not '\(text)'"
                )
            }
            return seconds
        }
    }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of `Value`'s cases, by its raw value.
    public static func choice(_ name: String, _ value: String, _ help: String) -> Self {
        Option(name, value, help) { text throws(UsageError) in
            guard let chosen = Value(rawValue: text) else {
                let choices = Value.allCases.map(\.rawValue)
                throw UsageError("--\(name) must be one of \(choices.joined(separator: ", ")), not '\(text)'")
            }
            return chosen
        }
    }
}

extension ParsedArguments {
    /// Whether the flag was given.
    public subscript(flag: Flag) -> Bool {
        declares(flag)
        return flags.contains(flag.declaration.name)
    }

    /// The option's value, checked; nil when it was not given.
    public subscript<Value>(option: Option<Value>) -> Value? {
        get throws(UsageError) {
            guard let text = text(of: option) else { return nil }
            return try option.parse(text)
        }
    }

    /// The option's value as typed, unchecked (for a message that quotes it); nil when not given.
    public func text<Value>(of option: Option<Value>) -> String? {
        declares(option)
        return values[option.name]
    }

    /// Whether the option was given at all (for options one sub-command of a command refuses).
    public func isGiven(_ option: any DeclaredOption) -> Bool {
        declares(option)
        let name = option.declaration.name
        return values[name] != nil || flags.contains(name)
    }

    /// An option the command does not declare would read as never given: a mistake of ours,
    /// caught by the first test that reads it.
    private func declares(_ option: any DeclaredOption) {
        assert(
            spec.options.contains { $0.name == option.declaration.name },
            "--\(option.declaration.name) is not an option of \(spec.program) \(spec.name)")
    }
}
