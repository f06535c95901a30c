/// A bad command line: printed as one line, exit status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The options one command accepts.
public struct CommandSpec: Sendable {
    public var name: String
    public var valueOptions: [String]
    public var flags: [String]
    public var positionals: ClosedRange<Int>
    public var usage: String

    public init(
        name: String, valueOptions: [String] = [], flags: [String] = [], positionals: ClosedRange<Int> = 0...0,
        usage: String
    ) {
        self.name = name
        self.valueOptions = valueOptions
        self.flags = flags
        self.positionals = positionals
        self.usage = usage
    }
}

/// A parsed command line: `--name value`, `--name=value`, `--flag`, and positionals.
/// Small on purpose (no package dependencies); typed accessors validate and explain.
public struct ParsedArguments: Sendable {
    public let spec: CommandSpec
    public private(set) var positionals: [String] = []
    public private(set) var values: [String: String] = [:]
    public private(set) var flags: Set<String> = []

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
        let all = (spec.valueOptions + spec.flags).map { "--\($0)" }
        return all.isEmpty ? "none" : all.joined(separator: ", ")
    }

    public func has(_ flag: String) -> Bool { flags.contains(flag) }
    public func string(_ name: String) -> String? { values[name] }

    /// A whole number within `range`, or nil when the option was not given.
    public func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    public func uint64(_ name: String) throws(UsageError) -> UInt64? {
        guard let text = values[name] else { return nil }
        guard let value = UInt64(text) else {
            throw UsageError("--\(name) must be a whole number from 0 to \(UInt64.max), not '\(text)'")
        }
        return value
    }

    public func double(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), range.contains(value) else {
            throw UsageError(
                "--\(name) must be a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not '\(text)'"
            )
        }
        return value
    }

    /// One of `choices`, or nil when the option was not given.
    public func choice(_ name: String, from choices: [String]) throws(UsageError) -> String? {
        guard let text = values[name] else { return nil }
        guard choices.contains(text) else {
            throw UsageError("--\(name) must be one of \(choices.joined(separator: ", ")), not '\(text)'")
        }
        return text
    }
}
