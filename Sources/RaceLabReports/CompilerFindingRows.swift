import CompilerCheck
import LabKit
import RaceLabHarness

extension Array where Element == CompilerFinding {
    /// The findings the outcome rows call for, once per lab part, in the rows' order (a lab's
    /// three fixed rows share one finding; corpus rows have none).
    func inOrder(of outcomes: [VariantOutcome]) -> [CompilerFinding] {
        var shown: [CompilerFinding] = []
        for outcome in outcomes {
            guard let finding = finding(lab: outcome.lab, part: outcome.labPart),
                !shown.contains(where: { $0.lab == finding.lab && $0.part == finding.part })
            else { continue }
            shown.append(finding)
        }
        return shown
    }
}
