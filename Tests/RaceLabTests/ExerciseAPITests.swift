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
            "type metadata accessor for FoundationEssentials.Date"
        ] {
            XCTAssertNil(ExerciseAPI.refusal(of: name, ownModules: own), name)
        }
    }

    func testRefusedNamesSayWhatTheyReach() throws {
        let cases = [
            (
                "Foundation.Data.init(contentsOf: Foundation.URL, options: Foundation.NSData.ReadingOptions) throws -> Foundation.Data",
                "contentsOf"
            ),
            (
                "(extension in Foundation):Swift.StringProtocol.write(toFile: Swift.String, atomically: Swift.Bool) throws -> ()",
                "toFile"
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
