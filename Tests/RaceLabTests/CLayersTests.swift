import Foundation
import XCTest

/// The C layer (Sources/CRaceLabSupport) is built in layers, and calls go down only: each `.c`
/// file says its layer in a comment ("// Layer N"), and every call it makes to an `rl_` function
/// defined in another file goes to a file of a lower layer. So there is no cycle among the
/// files, and a file can be read knowing only the layers below it. The layers:
/// 0 thread facts (clock, ids, /proc) and stand-alone facilities; 1 clocks of the harness's
/// own, accounts and the thread table; 2 holds, preemption, queue kinds; 3 checkpoints and the
/// deferred releases; 4 quiet; 5 the interposers and the story.
final class CLayersTests: XCTestCase {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/CRaceLabSupport").standardized

    func testEveryCallGoesToALowerLayer() throws {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder.path) where name.hasSuffix(".c") {
            files[name] = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        }
        let layers = CLayers(files: files)
        XCTAssertEqual(layers.unlayered, [], "each C file says its layer in a comment: // Layer N")
        XCTAssertEqual(layers.definedTwice, [], "an rl_ function is defined in one file")
        XCTAssertEqual(layers.upwardCalls, [], "calls go to files of lower layers only")
        // The check sees the calls (a parser that found none would pass anything).
        XCTAssertGreaterThan(layers.definitions.count, 80)
        XCTAssertGreaterThan(layers.calls.count, 40)
    }

    func testACallUpOrSidewaysIsFound() {
        let layers = CLayers(files: [
            "Low.c": "// Layer 0\nRL_INVISIBLE int rl_low(void) { return rl_high(); }\n",
            "High.c":
                "// Layer 1\nint rl_high(void) {\n    return rl_low();\n}\nstatic int rl_private(void) { return 0; }\n",
            "Beside.c": "// Layer 1\nvoid rl_beside(int a,\n    int b) { rl_high(); /* rl_low() */ }\n",
            "None.c": "void rl_none(void) {}\n"
        ])
        XCTAssertEqual(
            layers.upwardCalls.sorted(),
            [
                "Beside.c (layer 1) calls rl_high of High.c (layer 1)",
                "Low.c (layer 0) calls rl_high of High.c (layer 1)"
            ])
        XCTAssertEqual(layers.unlayered, ["None.c"])
        XCTAssertNil(layers.definitions["rl_private"])
    }
}

/// The files' layers, `rl_` definitions and calls, read from the source text.
struct CLayers {
    var layer: [String: Int] = [:]
    var unlayered: [String] = []
    /// Each non-static `rl_` function defined, and its file.
    var definitions: [String: String] = [:]
    var definedTwice: [String] = []
    /// (caller's file, callee) for every call to an `rl_` function of another file.
    var calls: [(file: String, callee: String)] = []

    init(files: [String: String]) {
        for (file, text) in files.sorted(by: { $0.key < $1.key }) {
            if let match = text.firstMatch(of: /\/\/ Layer (\d)/) {
                layer[file] = Int(match.1)
            } else {
                unlayered.append(file)
            }
            let code = Self.withoutComments(text)
            for match in code.matches(of: /(?m)^[^\s#}][^;{}()]*?\b(rl_\w+)\s*\([^;{}]*\)\s*\{/) {
                let name = String(match.1)
                guard !code[match.range].prefix(while: { $0 != "(" }).contains("static") else { continue }
                if let other = definitions[name], other != file { definedTwice.append("\(name): \(other), \(file)") }
                definitions[name] = definitions[name] ?? file
            }
        }
        for (file, text) in files.sorted(by: { $0.key < $1.key }) {
            let code = Self.withoutComments(text)
            let names = Set(code.matches(of: /\b(rl_\w+)\s*\(/).map { String($0.1) })
            for name in names.sorted() {
                if let home = definitions[name], home != file { calls.append((file, name)) }
            }
        }
    }

    /// "A.c (layer 2) calls rl_x of B.c (layer 3)" for each call that does not go down.
    var upwardCalls: [String] {
        calls.compactMap { call in
            guard let home = definitions[call.callee], let from = layer[call.file], let to = layer[home], to >= from
            else { return nil }
            return "\(call.file) (layer \(from)) calls \(call.callee) of \(home) (layer \(to))"
        }
    }

    private static func withoutComments(_ text: String) -> String {
        text.replacing(/\/\*[\s\S]*?\*\//, with: " ").replacing(/\/\/[^\n]*/, with: "")
            .replacing(/"(?:[^"\\\n]|\\.)*"/, with: "\"\"")
    }
}
