/// Reports that read the same are explained once, with a count: TSan often prints one problem
/// many times, with stacks that differ only in frames a learner cannot change. Memory stays
/// bounded whatever the log holds: at most `maximumShown` groups keep their report, and at most
/// `maximumFingerprints` printings are remembered; the rest are only counted.
struct ReportGrouper {
    static let maximumShown = 100
    static let maximumFingerprints = 100_000

    struct Group {
        var report: TSanReport
        var count: Int
    }

    private(set) var groups: [Group] = []
    private(set) var reportCount = 0
    /// Reports of each kind (`Kind.rawValue`), shown or not.
    private(set) var kindCounts: [String: Int] = [:]
    /// Reports that belong to no shown group (the log had more than `maximumShown` different ones).
    private(set) var notShown = 0

    /// What the explanation of a report says, without source lines: equal keys read the same.
    private let explanationKey: (TSanReport) -> String
    private var groupByKey: [String: Int] = [:]
    private struct Printing {
        let group: Int?
        let kind: String
    }
    /// A report's text (addresses aside) seen before: counted without parsing it again.
    private var printingByFingerprint: [ReportFingerprint: Printing] = [:]

    init(explanationKey: @escaping (TSanReport) -> String) {
        self.explanationKey = explanationKey
    }

    mutating func add(_ block: ReportBlock) {
        reportCount += 1
        var fingerprint = block.fingerprint
        if !block.closed { fingerprint.add(byte: UInt8(ascii: "!")) }  // a cut-off report reads differently
        if let known = printingByFingerprint[fingerprint] {
            count(known)
            return
        }
        let report = TSanReportParser.report(from: block)
        let key = explanationKey(report)
        var group = groupByKey[key]
        if group == nil, groups.count < Self.maximumShown {
            group = groups.count
            groups.append(Group(report: report, count: 0))
            groupByKey[key] = group
        }
        let printing = Printing(group: group, kind: report.kind.rawValue)
        if printingByFingerprint.count < Self.maximumFingerprints { printingByFingerprint[fingerprint] = printing }
        count(printing)
    }

    private mutating func count(_ printing: Printing) {
        kindCounts[printing.kind, default: 0] += 1
        if let group = printing.group { groups[group].count += 1 } else { notShown += 1 }
    }
}
