import Foundation
import LabKit
import RaceLabHarness

/// `racelab run --profile`: where the runs' time went. One row per lab, variant and mode, its
/// children's profiles added up, the most wall time first (speed work starts at the top), then
/// the total and each column's share of the total wall time. Built from the verdicts alone.
public struct ProfileTable {
    public struct Row: Sendable, Equatable {
        public var lab: String
        public var variant: String
        public var mode: RunMode
        public var profile: RunProfile
    }

    /// The rows, most wall time first (rows of equal time in the run's order).
    public let rows: [Row]
    public let total: RunProfile

    public init(_ outcomes: [VariantOutcome]) {
        let unsorted = outcomes.compactMap { outcome in
            RunProfile.sum(outcome.runs.compactMap(\.profile)).map {
                Row(lab: outcome.lab, variant: outcome.variant, mode: outcome.mode, profile: $0)
            }
        }
        rows = unsorted.enumerated().sorted {
            ($0.element.profile.wallSeconds, $1.offset) > ($1.element.profile.wallSeconds, $0.offset)
        }.map(\.element)
        total = RunProfile.sum(rows.map(\.profile)) ?? RunProfile()
    }

    /// One column: its title, its figure, and whether that is seconds (with a share of the wall
    /// time) or a count.
    struct Column: Sendable {
        var title: String
        var value: @Sendable (RunProfile) -> Double
        var isSeconds = true
    }

    static let columns = [
        Column(title: "CHILDREN", value: { Double($0.children) }, isSeconds: false),
        Column(title: "WALL", value: \.wallSeconds), Column(title: "CPU", value: \.cpuSeconds),
        Column(title: "START", value: \.startSeconds), Column(title: "STORY", value: \.storySeconds),
        Column(title: "END", value: \.endSeconds), Column(title: "QUIET", value: \.harness.quietSeconds),
        Column(title: "WAITS", value: \.harness.waitSeconds), Column(title: "OTHER", value: \.otherSeconds),
        Column(title: "HELD", value: \.harness.heldThreadSeconds),
        Column(title: "SLEPT", value: \.harness.sleptThreadSeconds),
        Column(title: "PREEMPT", value: { Double($0.harness.preemptions) }, isSeconds: false)
    ]

    static let header = ["LAB", "VARIANT", "MODE"] + columns.map(\.title)

    /// Every line of the table as cells: the rows, the total, the shares.
    var cells: [[String]] {
        func figures(_ profile: RunProfile) -> [String] {
            Self.columns.map { column in
                column.isSeconds ? String(format: "%.2f", column.value(profile)) : String(Int(column.value(profile)))
            }
        }
        let wall = total.wallSeconds
        let shares = Self.columns.map { column in
            column.isSeconds && wall > 0 ? String(format: "%.1f%%", 100 * column.value(total) / wall) : ""
        }
        return rows.map { [$0.lab, $0.variant, $0.mode.rawValue] + figures($0.profile) }
            + [["TOTAL", "", ""] + figures(total), ["SHARE OF WALL", "", ""] + shares]
    }

    /// What the figures are, above the table.
    public var caption: String {
        "Where the time went: seconds added up over each row's child processes (\(total.children) in all), the most "
            + "wall time first.\nHELD and SLEPT are thread-seconds of lab threads, inside STORY; shares are of the "
            + "total wall time."
    }

    /// Below the table, when some children could not say what their story spent.
    public var footnote: String? {
        guard total.childrenWithoutStory > 0 else { return nil }
        return "\(total.childrenWithoutStory) child(ren) sent no figures of their story (a crash, a hang): "
            + "their time from the first heartbeat to the end counts as STORY, with nothing inside it."
    }

    /// As plain text, columns aligned (figures to the right).
    public func render() -> String {
        let lines = [Self.header] + cells
        let widths = Self.header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        let text = lines.map { cells in
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index < 3 ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return ([caption, ""] + text + (footnote.map { ["", $0] } ?? [])).joined(separator: "\n")
    }

    /// As a Markdown table (for docs), with the caption and footnote as paragraphs.
    public func markdown() -> String {
        func line(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }
        let alignment = Self.header.indices.map { $0 < 3 ? "---" : "---:" }
        let table = [line(Self.header), line(alignment)] + cells.map(line)
        return ([caption, ""] + table + (footnote.map { ["", $0] } ?? [])).joined(separator: "\n")
    }
}
