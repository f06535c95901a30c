import XCTest

@testable import RaceLabGrading

/// The allowed list of Swift API, on demangled names as the toolchain writes them.
final class ExerciseAPITests: XCTestCase {
    let own: Set<String> = ["ListAdderExercises", "ListAdder"]

    func testTheEntityIsWhatTheSymbolIsAbout() {
        XCTAssertEqual(
            ExerciseAPI.entities(in: "type metadata accessor for Foundation.NSLock").map(\.module), ["Foundation"])
        XCTAssertEqual(
            ExerciseAPI.entities(in: "static Foundation.Thread.detachNewThread(@Sendable () -> ()) -> ()").first?.path,
            ["Thread", "detachNewThread"])
        let witness = ExerciseAPI.entities(
            in: "protocol witness table for Foundation.NSLock : Foundation.NSLocking in Foundation")
        XCTAssertEqual(witness.map { $0.path.first }, ["NSLock", "NSLocking"])
        let extended = ExerciseAPI.entities(
            in: "(extension in Foundation):Swift.String.init(format: Swift.String, _: Swift.CVarArg...) -> Swift.String"
        )
        XCTAssertEqual(extended.first?.extensionModule, "Foundation")
        XCTAssertEqual(extended.first?.module, "Swift")
        // A type after a colon is a type, not a conformance; generic parameters are no module.
        XCTAssertEqual(
            ExerciseAPI.entities(in: "dispatch thunk of Swift.Collection.startIndex.getter : A.Index").count, 1)
        XCTAssertEqual(ExerciseAPI.entities(in: "type metadata for Any"), [])
        // What a specialization is made on can hold " of " itself: the entity is after the
        // description's own " of ".
        let specialized = ExerciseAPI.entities(
            in: "function signature specialization <Arg[0] = [Closure Propagated : closure #1 () -> () in "
                + "variable initialization expression of ListAdder.x, Argument Types : []]> of "
                + "generic specialization <Swift.String, [Swift.String]> of "
                + "Swift.Array.append<A where A == A1.Element, A1: Swift.Sequence>(contentsOf: __owned A1) -> ()")
        XCTAssertEqual(specialized.first?.module, "Swift")
        XCTAssertEqual(specialized.first?.path, ["Array", "append"])
    }

    /// A member's labels, read from its signature as the demangler writes it (generic clauses,
    /// function types and nested brackets skipped).
    func testArgumentLabelsAreReadFromTheSignature() {
        let cases: [(String, [String]?)] = [
            ("<A where A == A1.Element, A1: Swift.Sequence>(contentsOf: __owned A1) -> ()", ["contentsOf"]),
            ("(_: Swift.Range<Swift.Int>, with: __owned A1) -> ()", ["_", "with"]),
            (
                "(contentsOf: __shared FoundationEssentials.URL, options: X.ReadingOptions) throws -> X",
                ["contentsOf", "options"]
            ),
            ("(FoundationEssentials.Data) -> ()", ["_"]),
            ("() -> ()", []),
            (
                "(into: Swift.Optional<Swift.UnsafeMutablePointer<Swift.String>>, caseSensitive: Swift.Bool) "
                    + "-> Swift.Int", ["into", "caseSensitive"]
            ),
            ("(_: (Swift.String?, inout Swift.Bool) -> (), count: [Swift.String : Swift.Int]) -> ()", ["_", "count"]),
            (" : Swift.Int", nil)
        ]
        for (rest, labels) in cases {
            XCTAssertEqual(ExerciseAPI.argumentLabels(in: rest), labels, rest)
        }
    }

    func testAllowedNamesPass() {
        for name in [
            "Foundation.NSObject.replacementObject(for: Foundation.NSKeyedArchiver) -> Any?",
            "Foundation.Operation.__previousOperation.getter : Swift.Unmanaged<Foundation.Operation>?",
            "static Dispatch.DispatchQueue.global(qos: Dispatch.DispatchQoS.QoSClass) -> Dispatch.DispatchQueue",
            "protocol witness table for Swift.String : Swift.TextOutputStreamable in Swift",
            "Synchronization._MutexHandle._lock() -> ()",
            "LabKit.ScreenLabel.setText(Swift.String) -> ()",
            "ListAdder.ListAdderController.add(Swift.Int) -> ()",
            "(extension in Foundation):Swift.String.init(format: Swift.String, _: Swift.CVarArg...) -> Swift.String",
            "type metadata accessor for FoundationEssentials.Date",
            // The label of a file API on collections is no file (symbols from compiled snippets).
            "Swift.Array.append<A where A == A1.Element, A1: Swift.Sequence>(contentsOf: __owned A1) -> ()",
            "Swift.ContiguousArray.append<A where A == A1.Element, A1: Swift.Sequence>(contentsOf: __owned A1) -> ()",
            "(extension in Swift):Swift.RangeReplaceableCollection.insert<A where A1: Swift.Collection, "
                + "A.Element == A1.Element>(contentsOf: __owned A1, at: A.Index) -> ()",
            "generic specialization <Swift.String, [Swift.String]> of Swift.Array.append<A where A == A1.Element, "
                + "A1: Swift.Sequence>(contentsOf: __owned A1) -> ()",
            "function signature specialization <Arg[1] = Owned To Guaranteed> of generic specialization "
                + "<Swift.String, [Swift.String]> of Swift.Array.replaceSubrange<A where A == A1.Element, "
                + "A1: Swift.Collection>(_: Swift.Range<Swift.Int>, with: __owned A1) -> ()",
            "Swift.String.append(contentsOf: Swift.Substring) -> ()",
            "Swift.Substring.append<A where A: Swift.Sequence, A.Element == Swift.Character>(contentsOf: A) -> ()",
            "FoundationEssentials.Data.append(contentsOf: Swift.Array<Swift.UInt8>) -> ()",
            "FoundationEssentials.Data._Representation.append(contentsOf: Swift.UnsafeRawBufferPointer) -> ()",
            "Swift.String.write<A where A: Swift.TextOutputStream>(to: inout A) -> ()",
            "Foundation.NSString.appendingPathComponent(Swift.String) -> Swift.String"
        ] {
            XCTAssertNil(ExerciseAPI.refusal(of: name, ownModules: own), name)
        }
    }

    func testRefusedNamesSayWhatTheyReach() throws {
        let cases = [
            (
                "Foundation.Data.init(contentsOf: Foundation.URL, options: Foundation.NSData.ReadingOptions) throws "
                    + "-> Foundation.Data",
                "Foundation.Data.init(contentsOf:options:) (reads or writes files, URLs or streams: its signature "
                    + "names Foundation.URL)"
            ),
            (
                "(extension in Foundation):Swift.StringProtocol.write(toFile: Swift.String, atomically: Swift.Bool) "
                    + "throws -> ()",
                "Swift.StringProtocol.write(toFile:atomically:) from Foundation (reads or writes files)"
            ),
            // As the toolchain's symbols name them (Linux: Data and String's file members are
            // FoundationEssentials'; NSString, NSArray and NSDictionary are Foundation's).
            (
                "FoundationEssentials.Data.write(to: FoundationEssentials.URL, options: "
                    + "FoundationEssentials.Data.WritingOptions) throws -> ()",
                "FoundationEssentials.Data.write(to:options:) (reads or writes files"
            ),
            (
                "(extension in FoundationEssentials):Swift.String.init(contentsOfFile: __shared Swift.String, "
                    + "encoding: (extension in FoundationEssentials):Swift.String.Encoding) throws -> Swift.String",
                "Swift.String.init(contentsOfFile:encoding:) from FoundationEssentials (reads or writes files)"
            ),
            (
                "(extension in FoundationEssentials):Swift.StringProtocol.write<A where A1: Swift.StringProtocol>("
                    + "toFile: A1, atomically: Swift.Bool, encoding: (extension in FoundationEssentials):"
                    + "Swift.String.Encoding) throws -> ()",
                "Swift.StringProtocol.write(toFile:atomically:encoding:) from FoundationEssentials (reads or writes "
                    + "files)"
            ),
            (
                "Foundation.NSString.__allocating_init(contentsOfFile: Swift.String, encoding: Swift.UInt) throws "
                    + "-> Foundation.NSString",
                "Foundation.NSString.init(contentsOfFile:encoding:) (reads or writes files)"
            ),
            (
                "Foundation.NSArray.__allocating_init(contentsOfFile: Swift.String) "
                    + "-> Swift.Optional<Foundation.NSArray>",
                "Foundation.NSArray.init(contentsOfFile:) (reads or writes files)"
            ),
            (
                "Foundation.NSDictionary.__allocating_init(contentsOf: FoundationEssentials.URL) "
                    + "-> Foundation.NSDictionary?",
                "Foundation.NSDictionary.init(contentsOf:) (reads or writes files, URLs or streams"
            ),
            ("Foundation.NSString.resolvingSymlinksInPath.getter : Swift.String", "(reads the file system)"),
            (
                "(extension in FoundationEssentials):Swift.String.init(FoundationEssentials.URL.Template.VariableName) "
                    + "-> Swift.String",
                "its signature names FoundationEssentials.URL.Template.VariableName: files, URLs"
            ),
            // Not declared in Foundation, but made on a URL: refused as the type.
            (
                "generic specialization <FoundationEssentials.URL, [FoundationEssentials.URL]> of Swift.Array.append"
                    + "<A where A == A1.Element, A1: Swift.Sequence>(contentsOf: __owned A1) -> ()",
                "FoundationEssentials.URL (files, URLs"
            ),
            ("type metadata accessor for Foundation.Process", "Foundation.Process (other processes)"),
            ("static Foundation.ProcessInfo.processInfo.getter : Foundation.ProcessInfo", "the environment"),
            ("static Swift.CommandLine.arguments.getter : [Swift.String]", "Swift.CommandLine"),
            ("Swift.Mirror.init(reflecting: Any) -> Swift.Mirror", "reflection"),
            ("static Foundation.Thread.exit() -> ()", "Thread.exit"),
            (
                "static Dispatch.DispatchSource.makeSignalSource(signal: Swift.Int32, queue: Dispatch.DispatchQueue?) -> Dispatch.DispatchSourceSignal",
                "signal"
            ),
            ("RaceLabHarness.ChildChannel.encode(LabKit.ScenarioOutcome) -> Swift.String", "the module RaceLabHarness"),
            ("Glibc.errno.getter : Swift.Int32", "the module Glibc"),
            ("static LabKit.Checkpoint.hit(Swift.StaticString) -> Swift.Int", "the harness's own part of LabKit"),
            ("type metadata accessor for Foundation.URLSession", "Foundation.URLSession"),
            ("Foundation.NSClassFromString(Swift.String) -> Swift.AnyObject.Type?", "by its name")
        ]
        for (name, expected) in cases {
            let refusal = try XCTUnwrap(ExerciseAPI.refusal(of: name, ownModules: own), name)
            XCTAssertTrue(refusal.contains(expected), "\(name): \(refusal)")
        }
    }
}
