import Foundation
import LabKit
import RaceLabHarness

/// `racelab bench corpus`: the grader measured on its own corpus (Tests/GradingCorpus): every
/// valid fix must score full marks and every wrong fix nothing, through exactly what grades an
/// exercise (the exercise checks on its source and compiled object, then every pass).
public struct CorpusBenchmark {
    public struct Entry: Codable, Sendable {
        public var lab: String
        public var variant: String
        public var kind: VariantKind
        /// What the fix does, or why it is wrong (its file's first comment line).
        public var about: String
        public var score: Double
        public var maxScore: Double
        public var status: LabGrade.Status
        public var message: String
        public var seconds: Double

        /// A valid fix below full marks.
        public var falseReject: Bool { kind == .validFix && score < maxScore }
        /// A wrong fix with any points.
        public var falseAccept: Bool { kind == .wrongFix && score > 0 }
    }

    public var grader: Grader
    /// The package (for the corpus's source files) and the build folder (for its objects).
    public var root: URL
    public var buildFolder: URL
    public var calibrations: CalibrationFile?

    public init(grader: Grader, root: URL, buildFolder: URL, calibrations: CalibrationFile?) {
        self.grader = grader
        self.root = root
        self.buildFolder = buildFolder
        self.calibrations = calibrations
    }

    public func run(_ labs: [Lab], onProgress: @escaping @Sendable (String) -> Void = { _ in }) -> [Entry] {
        var entries: [Entry] = []
        for lab in labs {
            for variant in lab.variants where variant.kind.isCorpus {
                let started = Date()
                onProgress("\(lab.id) \(variant.name)")
                let (text, violations) = checked(lab, variant)
                let plan = StressPlan.make(lab, calibration: calibrations?.current(for: lab), policy: grader.policy)
                let grade =
                    violations.isEmpty
                    ? grader.grade(lab, variant: variant, stress: plan) {
                        onProgress("\(lab.id) \(variant.name): \($0)")
                    }
                    : grader.rejected(lab, variant: variant, stress: plan, violations: violations)
                entries.append(
                    Entry(
                        lab: lab.id, variant: variant.name, kind: variant.kind, about: Self.about(text),
                        score: grade.score, maxScore: grade.maxScore, status: grade.status, message: grade.message,
                        seconds: Date().timeIntervalSince(started)))
            }
        }
        return entries
    }

    /// A corpus fix's source and what the exercise checks find in it (its source and its
    /// compiled object), as `racelab check` and `racelab grade` check an exercise.
    public func checked(_ lab: Lab, _ variant: Lab.Variant) -> (text: String, violations: [PolicyViolation]) {
        let folder = lab.info.folder.lastPathComponent
        let path = "Tests/GradingCorpus/\(folder)/\(variant.name).swift"
        let text = (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
        var violations = ExercisePolicy.check(source: text, file: path, labModule: folder)
        let module = "\(folder)Corpus"
        let object = buildFolder.appendingPathComponent("\(module).build/\(variant.name).swift.o")
        if let compiled = try? ObjectFile(contentsOf: object) {
            violations += ExercisePolicy.check(
                object: compiled, file: "\(module)/\(variant.name).swift.o", module: module)
        }
        return (text, violations)
    }

    /// "VALID: a serial queue owns the list." from the file's first comment.
    static func about(_ text: String) -> String {
        guard let first = text.split(separator: "\n").first(where: { $0.hasPrefix("//") }) else { return "" }
        return first.dropFirst(2).trimmingCharacters(in: .whitespaces)
    }

    /// The accuracy table: per lab, valid fixes at full marks, wrong fixes at zero; every false
    /// accept and false reject named; the totals and the wall time.
    public static func table(_ entries: [Entry], seconds: Double) -> String {
        let labs = entries.map(\.lab).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let width = max(18, (labs.map(\.count).max() ?? 0) + 2)
        var out = [pad("LAB", width) + "VALID (full marks)  WRONG (zero)  FALSE ACCEPTS  FALSE REJECTS  SECONDS"]
        for lab in labs {
            let mine = entries.filter { $0.lab == lab }
            let valid = mine.filter { $0.kind == .validFix }
            let wrong = mine.filter { $0.kind == .wrongFix }
            out.append(
                pad(lab, width) + pad("\(valid.filter { !$0.falseReject }.count)/\(valid.count)", 20)
                    + pad("\(wrong.filter { !$0.falseAccept }.count)/\(wrong.count)", 14)
                    + pad("\(mine.filter(\.falseAccept).count)", 15) + pad("\(mine.filter(\.falseReject).count)", 15)
                    + String(format: "%.0f", mine.map(\.seconds).reduce(0, +)))
        }
        let valid = entries.filter { $0.kind == .validFix }
        let wrong = entries.filter { $0.kind == .wrongFix }
        out.append(
            pad("TOTAL", width) + pad("\(valid.filter { !$0.falseReject }.count)/\(valid.count)", 20)
                + pad("\(wrong.filter { !$0.falseAccept }.count)/\(wrong.count)", 14)
                + pad("\(entries.filter(\.falseAccept).count)", 15) + pad("\(entries.filter(\.falseReject).count)", 15)
                + String(format: "%.0f", entries.map(\.seconds).reduce(0, +)))
        let wrongWithPoints = entries.filter { $0.kind == .wrongFix && $0.score > 0 }
        out.append("")
        out.append(
            "Wrong fixes with any points: \(wrongWithPoints.count). Wall time: \(String(format: "%.0f", seconds)) s.")
        for entry in entries where entry.falseAccept || entry.falseReject {
            out.append("")
            out.append(
                "\(entry.falseAccept ? "FALSE ACCEPT" : "FALSE REJECT") \(entry.lab) \(entry.variant) (\(entry.about)): "
                    + "\(Grader.points(entry.score))/\(Grader.points(entry.maxScore)), \(entry.status.rawValue)")
            out.append("  \(entry.message)")
        }
        return out.joined(separator: "\n")
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
