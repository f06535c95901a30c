import Foundation
import LabKit
import RaceLabHarness
import TSanReports

/// A whole report from the grader: every lab graded (or decided without running), and the
/// tamper check it is read against.
extension Grader {
    /// Grades `labs` (their exercises) into one report. A tampered package is not run at all:
    /// every lab scores zero and says why.
    /// `preset`: grades decided without running (an exercise the exercise checks refused, one
    /// that does not compile), by lab id; those labs are not run.
    public func report(
        labs: [Lab], integrity: GradeIntegrity, calibrations: CalibrationFile?, command: String,
        student: String? = nil, preset: [String: LabGrade] = [:],
        onProgress: @escaping @Sendable (String) -> Void = { _ in }
    ) -> GradeReport {
        let started = Date()
        var grades: [String: LabGrade] = [:]
        var notes: [String] = []
        var toRun: [(Lab, Lab.Variant, StressPlan)] = []
        for lab in labs {
            guard let variant = Self.exercise(of: lab) else {
                notes.append("\(lab.id) has no exercise variant: not graded")
                continue
            }
            if integrity.status == .tampered {
                let plan = StressPlan.make(lab, calibration: calibrations?.current(for: lab), policy: policy)
                grades[lab.id] = notGraded(
                    lab, variant: variant, stress: plan, status: .tampered,
                    reason:
                        "the submission was changed outside its exercise files (\(TamperCheck.summary(integrity.findings)))"
                )
                continue
            }
            if let decided = preset[lab.id] {
                grades[lab.id] = decided
                continue
            }
            let (plan, _) = stressPlan(
                for: lab, calibrations: calibrations, measureIfMissing: true, onProgress: onProgress)
            if plan.calibratedNow {
                notes.append(
                    "\(lab.id): no current entry in \(CalibrationFile.relativePath); its broken variant was measured just now (`racelab calibrate` stores it)"
                )
            }
            toRun.append((lab, variant, plan))
        }
        for grade in grade(toRun, onProgress: onProgress) { grades[grade.lab] = grade }
        let ordered = labs.compactMap { grades[$0.id] }
        let failure = ordered.flatMap(\.passes).compactMap(\.harnessFailure).first
        return GradeReport(
            command: command, student: student, seed: seed, policy: policy, integrity: integrity, labs: ordered,
            elapsedSeconds: Date().timeIntervalSince(started), harnessFailure: failure, notes: notes)
    }

    /// The tamper check for grading the package at `root`: against `trusted` when given (the
    /// instructor's manifest; the package's own copy must then match it too), else against the
    /// package's own `racelab-kit.json`; unchecked when there is none (not a student kit).
    public static func integrity(of root: URL?, trusted: KitManifest?) -> GradeIntegrity {
        guard let root else {
            return GradeIntegrity(
                status: .unchecked, manifestDigest: nil, findings: [],
                message: "the package's sources were not found, so the tamper check was skipped")
        }
        guard let manifest = trusted ?? KitManifest.read(packageAt: root) else {
            return GradeIntegrity(
                status: .unchecked, manifestDigest: nil, findings: [],
                message: "no \(KitManifest.fileName): this is not a student kit, so the tamper check was skipped")
        }
        let findings = TamperCheck.check(root, against: manifest, checkManifestCopy: trusted != nil)
        if findings.isEmpty {
            return GradeIntegrity(
                status: .verified, manifestDigest: manifest.digest, findings: [],
                message: "only exercise files differ from the kit (\(manifest.files.count) files checked)")
        }
        if !findings.contains(where: { $0.kind == .manifest || TamperCheck.affectsBuild($0.path) }) {
            return GradeIntegrity(
                status: .ignored, manifestDigest: manifest.digest, findings: findings,
                message:
                    "changed outside the exercise files, in files the build does not use (ignored): \(TamperCheck.summary(findings))"
            )
        }
        return GradeIntegrity(
            status: .tampered, manifestDigest: manifest.digest, findings: findings,
            message: "changed outside the exercise files: \(TamperCheck.summary(findings))")
    }
}
