// The checks of scripts/grading-e2e.sh, over the reports it made in WORK (grades-class,
// grades-attacks, grades-unchecked). A Swift script, so the e2e needs nothing but the toolchain:
//
//   swift scripts/grading-e2e-checks.swift WORK        exit 0 when every check holds
import Foundation

let work = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "."
var failures = 0

/// One check's line; a failed one also prints `detail` whole (a message its line shortens), so a
/// CI log that shows only this part of the output still tells why.
func check(_ condition: Bool, _ what: String, detail: String? = nil) {
    print((condition ? "ok    " : "FAIL  ") + what)
    if !condition {
        failures += 1
        if let detail { print("      whole: " + detail) }
    }
}

func short(_ text: Any?, _ length: Int) -> String { String(String(describing: text ?? "").prefix(length)) }

/// summary.csv: one row per student, by student (fields may be quoted, with "" for a quote).
func summary(_ name: String) -> [String: [String: String]] {
    guard let text = try? String(contentsOfFile: "\(work)/grades-\(name)/summary.csv", encoding: .utf8) else { return [:] }
    var records: [[String]] = [], record: [String] = [], field = "", quoted = false
    var characters = Array(text)[...]
    while let c = characters.popFirst() {
        if quoted {
            if c == "\"" { if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false } } else { field.append(c) }
        } else if c == "\"" { quoted = true }
        else if c == "," { record.append(field); field = "" }
        else if c == "\n" { record.append(field); records.append(record); record = []; field = "" }
        else { field.append(c) }
    }
    if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
    guard let header = records.first else { return [:] }
    var rows: [String: [String: String]] = [:]
    for values in records.dropFirst() {
        let row = Dictionary(zip(header, values), uniquingKeysWith: { a, _ in a })
        if let student = row["student"] { rows[student] = row }
    }
    return rows
}

struct Report {
    var data: [String: Any]
    var gradescope: [String: Any]
    var junit: String
    var labs: [[String: Any]] { data["labs"] as? [[String: Any]] ?? [] }
    var notes: [String] { data["notes"] as? [String] ?? [] }
    func number(_ key: String) -> Double { (data[key] as? NSNumber)?.doubleValue ?? -1 }
    /// An attribute of the junit report's <testsuite>.
    func suite(_ attribute: String) -> Int {
        guard let range = junit.range(of: "<testsuite "),
              let value = junit[range.upperBound...].range(of: " \(attribute)=\"") else { return -1 }
        return Int(junit[value.upperBound...].prefix { $0 != "\"" }) ?? -1
    }
}

func report(_ name: String, _ student: String) -> Report {
    let stem = student.hasPrefix(".") ? "_dot_" + student.dropFirst() : (student.hasPrefix("_") ? "_" + student : student)
    let base = "\(work)/grades-\(name)/\(stem)"
    func json(_ path: String) -> [String: Any] {
        (FileManager.default.contents(atPath: path)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
    }
    return Report(data: json(base + ".json"), gradescope: json(base + ".gradescope"),
                  junit: (try? String(contentsOfFile: base + ".junit", encoding: .utf8)) ?? "")
}

func double(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? -1 }

// The class.
var rows = summary("class")
check(Set(rows.keys) == ["solved", "copycat", "untouched", "renamed", ".sneaky", "archive", "linked-sources", "linked-folder", "notes.txt"],
      "every entry is reported, hidden ones too: \(rows.keys.sorted())")
for student in ["solved", "copycat", ".sneaky", "archive"] {
    let r = report("class", student)
    check(rows[student]?["status"] == "graded" && r.number("maxScore") > 0 && r.number("score") == r.number("maxScore"),
          "\(student): full marks \(r.number("score"))/\(r.number("maxScore"))")
    let tests = r.gradescope["tests"] as? [[String: Any]] ?? []
    check(double(r.gradescope["score"]) == r.number("maxScore") && !tests.isEmpty && tests.allSatisfy { $0["status"] as? String == "passed" },
          "\(student): gradescope all passed")
    check(r.suite("failures") == 0 && r.suite("errors") == 0, "\(student): junit nothing failing")
    // Every graded lab's reference fix builds as its exercise (scripts/solve-kit.sh).
    check(!(rows[student]?["note"] ?? "").contains("did not compile"),
          "\(student): every lab compiles: \(short(rows[student]?["note"], 80))")
    for lab in r.labs {
        let stress = lab["stress"] as? [String: Any] ?? [:]
        check(double(stress["iterationsPerRun"]) > 0, "\(student): \(short(lab["lab"], 40)) stress \(short(stress["runs"], 5)) x \(short(stress["iterationsPerRun"], 8))")
    }
}
do {
    let solved = report("class", "solved")
    let integrity = solved.data["integrity"] as? [String: Any] ?? [:]
    let message = integrity["message"] as? String ?? ""
    check(integrity["status"] as? String == "ignored" && message.contains("NOTES.md") && (rows["solved"]?["note"] ?? "").contains("other changes ignored"),
          "solved: its NOTES.md and README edit are noted and ignored, not penalised: \(short(message, 100))")
    // copycat, solved, .sneaky and archive hold the same exercise files: graded once, the grades reused.
    let reused = ["copycat", "solved", ".sneaky", "archive"].filter { report("class", $0).notes.contains { $0.contains("graded before in this run") } }
    check(reused.count >= 2, "identical exercise files are graded once and the grades reused: \(reused)")
    let untouched = report("class", "untouched")
    check(untouched.number("score") == 0 && untouched.labs.allSatisfy { $0["status"] as? String == "failed" }, "untouched: 0, every lab failed")
    check(untouched.suite("failures") == untouched.suite("tests") && untouched.suite("tests") > 0, "untouched: junit every test failing")
    for lab in report("class", "renamed").labs {
        let message = lab["message"] as? String ?? ""
        if lab["lab"] as? String == "list-adder" {
            check(double(lab["score"]) == 0 && message.contains("does not compile"), "renamed: list-adder 0: \(short(message, 100))")
        } else {
            check(double(lab["score"]) == double(lab["maxScore"]), "renamed: \(short(lab["lab"], 40)) still graded \(double(lab["score"]))/\(double(lab["maxScore"]))")
        }
    }
    for student in ["linked-sources", "linked-folder"] {
        let row = rows[student] ?? [:]
        check(row["status"] == "rejected" && row["score"] == "0" && (row["note"] ?? "").contains("link"),
              "\(student): rejected, says why: \(short(row["note"], 110))")
    }
    check(rows["notes.txt"]?["status"] == "skipped", "notes.txt: skipped (not a folder)")
}

// The attacks: every one scores 0, and says why.
rows = summary("attacks")
let expected: [String: (status: String, says: String)] = [
    "silgen-ignore": ("rejected", "@_silgen_name"), "tsan-options": ("rejected", "@_cdecl"), "annotate": ("rejected", "@_silgen_name"),
    "setenv": ("rejected", "setenv"), "testable": ("rejected", "@testable"), "spi": ("rejected", "@_spi"),
    "channel": ("rejected", "write(3"), "load-time": ("rejected", "@_section"), "process": ("rejected", "Process"),
    "graded-detector": ("rejected", "CommandLine"), "exit": ("rejected", "exit:"), "harness-import": ("rejected", "import RaceLabHarness"),
    "escape-loop": ("rejected", "posix_spawn"), "kill-grader": ("rejected", "kill"), "early-result": ("rejected", "write(3"),
    "raw-memory": ("rejected", "no fix reads or writes files"), "shadow-scenario": ("rejected", "exports one name"),
    "silgen-space-tsan-ignore": ("rejected", "@_silgen_name"), "syscall-peek-leak": ("rejected", "@_silgen_name"),
    "keypath-hidden-read": ("rejected", "key paths"), "nsmutablearray-hidden": ("rejected", "NSMutableArray"),
    "skip-slow-adder": ("failed", "app's adder"), "immortal-child": ("failed", "went on for"),
    "report-spoof-escapes": ("failed", "not fixed yet"), "fifo-exercise": ("rejected", "not a regular file"),
    "sparse-readme": ("failed", "not fixed yet"),
    "stdout-forger": ("failed", "not fixed yet"), "solutions": ("rejected", "exports one name"), "half-fixed": ("failed", "not fixed yet"),
]
check(Set(rows.keys) == Set(expected.keys), "every attack graded: \(rows.keys.sorted())")
for (student, want) in expected.sorted(by: { $0.key < $1.key }) where rows[student] != nil {
    let r = report("attacks", student)
    let lab = r.labs.first ?? [:]
    let message = lab["message"] as? String ?? ""
    check(r.number("score") == 0 && double(r.gradescope["score"]) == 0 && lab["status"] as? String == want.status && message.contains(want.says),
          "attack \(student): \(short(lab["status"], 10)) 0/\(Int(double(lab["maxScore"]))): \(short(message, 120))",
          detail: message)
}

// Under a task and a memory limit: the valid fix keeps full marks beside the attacks on tasks,
// memory and output, each of which scores 0 saying why; grade-all writes every row, exits 0.
if let skipped = try? String(contentsOfFile: "\(work)/limited/skipped", encoding: .utf8) {
    print("  (limits: \(skipped.trimmingCharacters(in: .whitespacesAndNewlines)))")
} else {
    rows = summary("limited")
    if let peaks = try? String(contentsOfFile: "\(work)/grades-limited/peaks", encoding: .utf8) {
        print("  (limits: \(peaks.trimmingCharacters(in: .whitespacesAndNewlines)))")
    }
    let limited: [String: String] = [
        "parked-threads": "threads alive at once", "thread-tree": "threads alive at once",
        "memory-hog": "MiB of memory", "stdout-flood": "on standard output",
    ]
    check(Set(rows.keys) == Set(limited.keys).union(["victim-solved"]), "limits: every submission graded: \(rows.keys.sorted())")
    let exitStatus = (try? String(contentsOfFile: "\(work)/grades-limited/exit-status", encoding: .utf8)) ?? "?"
    check(exitStatus.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "limits: grade-all exited 0 (\(short(exitStatus, 10)))")
    let victim = report("limited", "victim-solved").labs.first ?? [:]
    check(double(victim["score"]) == double(victim["maxScore"]) && double(victim["score"]) > 0,
          "limits: the valid fix beside the attackers keeps full marks (\(Int(double(victim["score"])))/\(Int(double(victim["maxScore"]))))")
    for (student, says) in limited.sorted(by: { $0.key < $1.key }) where rows[student] != nil {
        let lab = report("limited", student).labs.first ?? [:]
        let message = lab["message"] as? String ?? ""
        check(double(lab["score"]) == 0 && message.contains(says),
              "limits, attack \(student): \(Int(double(lab["score"])))/\(Int(double(lab["maxScore"]))): \(short(message, 140))",
              detail: message)
    }
}

// A report quotes what a student's code showed: a text report must show, not obey, escape codes.
let spoof = (try? String(contentsOfFile: "\(work)/grades-attacks/report-spoof-escapes.text", encoding: .utf8)) ?? ""
check(!spoof.isEmpty && !spoof.unicodeScalars.contains { $0.value == 0x1B }, "attack report-spoof-escapes: its text report holds no escape character")

// Checks off: the other defences.
for student in ["1-poisoner", "2-half-fixed", "3-thief", "4-channel"] {
    let r = report("unchecked", student)
    let lab = r.labs.first ?? [:]
    check(double(lab["score"]) == 0, "checks off, \(student): 0 (\(short(lab["status"], 10))): \(short(lab["message"], 110))")
    check(r.notes.contains { $0.contains("exercise checks were OFF") }, "checks off, \(student): the report says the checks were off")
}
for student in ["3-thief", "4-channel", "8-early-result"] {
    check(report("unchecked", student).labs.first?["status"] as? String == "tampered", "checks off, \(student): its forged result is caught (tampered)")
}
// The kernel's part: the escape loop and the grader killer run, and are refused by it.
for student in ["6-escape-loop", "7-kill-grader"] {
    let lab = report("unchecked", student).labs.first ?? [:]
    check(double(lab["score"]) == 0 && lab["status"] as? String == "failed",
          "checks off, \(student): 0, its bug caught as if it had done nothing else: \(short(lab["message"], 110))")
}
for student in ["5-solved", "9-solved-last"] {
    let lab = report("unchecked", student).labs.first ?? [:]
    check(double(lab["score"]) == double(lab["maxScore"]) && double(lab["score"]) > 0, "checks off, \(student): full marks after the attackers")
}
let uncheckedRows = summary("unchecked")
let status = (try? String(contentsOfFile: "\(work)/grades-unchecked/exit-status", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
check(status == "0" && uncheckedRows.count == 9 && uncheckedRows.values.allSatisfy { $0["status"] == "graded" },
      "checks off: grade-all exited \(status ?? "?") and graded all \(uncheckedRows.count) of 9 submissions")
let leftovers = (try? String(contentsOfFile: "\(work)/grades-unchecked/leftovers", encoding: .utf8)) ?? "?"
check(leftovers.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "checks off: no process an attacker started outlived its run: \(short(leftovers, 60))")
let isolation = report("unchecked", "6-escape-loop").notes.first { $0.contains("confined") } ?? ""
check(isolation.contains("no new processes") && isolation.contains("signals only to themselves") && !isolation.contains("NOT in force"),
      "the report says what protection was in force: \(short(isolation, 120))")

print(failures == 0 ? "\nall checks passed" : "\n\(failures) check(s) failed")
exit(failures == 0 ? 0 : 1)
