import Foundation
import LabKit

/// The exercise policy applied to a lab's exercise as it is on disk: its source files
/// (`Labs/<Lab>/Exercise*.swift`) and, once built, its compiled module (`<Lab>Exercises`).
public enum ExerciseChecks {
    /// The module an exercise is compiled into (Package.swift's naming).
    public static func exerciseModule(of lab: Lab) -> String { lab.info.folder.lastPathComponent + "Exercises" }

    /// The lab's own module, which its exercise may import.
    public static func labModule(of lab: Lab) -> String { lab.info.folder.lastPathComponent }

    /// Exercise*.swift in the lab's folder, sorted.
    public static func exerciseFiles(of lab: Lab) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: lab.info.folder.path)) ?? []
        return names.filter { $0.hasPrefix("Exercise") && $0.hasSuffix(".swift") }.sorted().map {
            lab.info.folder.appendingPathComponent($0)
        }
    }

    /// Source violations of the lab's exercise files; `root` makes the file names relative.
    public static func source(of lab: Lab, root: URL?) -> [PolicyViolation] {
        exerciseFiles(of: lab).flatMap { url -> [PolicyViolation] in
            let name = root.map { PackageRoot.relative(url.path, to: $0) } ?? url.path
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                return [
                    PolicyViolation(
                        rule: "import", file: name, line: nil, construct: "an unreadable file",
                        why: "the exercise must be UTF-8 Swift source")
                ]
            }
            return ExercisePolicy.check(source: text, file: name, labModule: labModule(of: lab))
        }
    }

    /// Binary violations of the lab's compiled exercise in `buildFolder` (`.build/debug`), or
    /// nil when there is nothing to inspect (not built here, or not an ELF platform). Each is
    /// placed at the first source line that names what it refers to, when one does.
    public static func binary(of lab: Lab, buildFolder: URL, root: URL? = nil) -> [PolicyViolation]? {
        guard let found = compiled(of: lab, buildFolder: buildFolder) else { return nil }
        let sources = exerciseFiles(of: lab).compactMap { url -> (String, String)? in
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
            return (root.map { PackageRoot.relative(url.path, to: $0) } ?? url.path, SwiftSourceScanner.codeOnly(text))
        }
        return found.map { locate($0, in: sources) }
    }

    /// `violation` at the first line of `sources` (file, code only) that names what it refers
    /// to ("a call to kill": `kill`; "Foundation.URL (files and URLs)": `URL`); unchanged if none.
    /// A member named with its labels ("Swift.String.init(contentsOfFile:encoding:)") is looked
    /// for first on a line with its first label too (`String(contentsOfFile:`), so that another
    /// line merely naming the type is not taken for it.
    static func locate(_ violation: PolicyViolation, in sources: [(file: String, code: String)]) -> PolicyViolation {
        let subject =
            violation.construct.hasPrefix("a call to ")
            ? String(violation.construct.dropFirst(10)) : violation.construct
        guard let token = subject.split(whereSeparator: { $0 == " " || $0 == "(" }).first,
            let name = token.split(separator: ".").map(String.init).last(where: { !Self.accessorWords.contains($0) }),
            name.count > 1
        else { return violation }
        let after = subject[token.endIndex...]
        let label = after.hasPrefix("(") ? after.dropFirst().prefix { $0 == "_" || $0.isLetter || $0.isNumber } : ""
        for words in (label.isEmpty || label == "_" ? [] : [[name, String(label)]]) + [[name]] {
            let patterns = words.compactMap {
                try? NSRegularExpression(pattern: "\\b" + NSRegularExpression.escapedPattern(for: $0) + "\\b")
            }
            guard patterns.count == words.count else { return violation }
            for (file, code) in sources {
                for (index, line) in code.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where patterns.allSatisfy({
                    $0.firstMatch(in: String(line), range: NSRange(line.startIndex..., in: line)) != nil
                }) {
                    return PolicyViolation(
                        rule: violation.rule, file: file, line: index + 1, construct: violation.construct,
                        why: violation.why)
                }
            }
        }
        return violation
    }

    /// Parts of a demangled name that no source spells as such.
    static let accessorWords: Set<String> = [
        "init", "__allocating_init", "getter", "setter", "modify", "read", "subscript", "deinit"
    ]

    /// The binary checks on each object of the lab's exercise module.
    static func compiled(of lab: Lab, buildFolder: URL) -> [PolicyViolation]? {
        let module = exerciseModule(of: lab)
        let folder = buildFolder.appendingPathComponent("\(module).build")
        let objects = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasSuffix(".o")
        }.sorted()
        guard !objects.isEmpty else {
            #if os(Linux)
                // Fail closed: a check that found nothing to read must not read as a clean one.
                return [
                    PolicyViolation(
                        rule: "compiled-exercise", file: "\(module).build", line: nil,
                        construct: "no object files in \(folder.path)",
                        why: ExercisePolicy.rule("compiled-exercise").why)
                ]
            #else
                return nil  // Mach-O: the binary check is Linux-only
            #endif
        }
        var found: [PolicyViolation] = []
        for name in objects {
            do {
                let object = try ObjectFile(contentsOf: folder.appendingPathComponent(name))
                found += ExercisePolicy.check(object: object, file: "\(module)/\(name)", module: module)
            } catch {
                #if os(Linux)
                    found.append(
                        PolicyViolation(
                            rule: "custom-section", file: "\(module)/\(name)", line: nil,
                            construct: "an unreadable object file",
                            why: error.description))
                #else
                    return nil  // Mach-O: the binary check is Linux-only
                #endif
            }
        }
        return found
    }

}

extension ExerciseChecks {
    /// Every lab of `labs` whose exercise breaks the policy, in source or (when `buildFolder`
    /// holds its compiled module) in the binary.
    public static func rejections(of labs: [Lab], root: URL?, buildFolder: URL?) -> [String: [PolicyViolation]] {
        var out: [String: [PolicyViolation]] = [:]
        for lab in labs {
            var violations = source(of: lab, root: root)
            if let buildFolder { violations += binary(of: lab, buildFolder: buildFolder, root: root) ?? [] }
            if !violations.isEmpty { out[lab.id] = violations }
        }
        return out
    }
}
