import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

final class SwiftDemanglerTests: XCTestCase {
    func testUsesTheRuntimeDemanglerAndTrimsNoise() {
        XCTAssertEqual(SwiftDemangler.demangle("$s9ListAdder0aB6BrokenC3addyySiF"), "ListAdderBroken.add(Int)")
        XCTAssertEqual(
            SwiftDemangler.demangle(
                "$s9ListAdder0aB6BrokenC11recalculate33_908AB684ADE0C0BF360D07FCC854AF9ALLyyFyyYbcfU_"),
            "closure #1 in ListAdderBroken.recalculate()")
    }

    func testDropsALabModuleThatItsTypeNameRepeats() {
        XCTAssertEqual(
            SwiftDemangler.simplify("ListAdder.ListAdderExercise.add(Swift.Int) -> ()"), "ListAdderExercise.add(Int)")
        XCTAssertEqual(SwiftDemangler.simplify("Other.Thing.run() -> ()"), "Other.Thing.run()")
    }

    func testLeavesOtherNamesAlone() {
        XCTAssertEqual(SwiftDemangler.demangle("pthread_create"), "pthread_create")
        XCTAssertEqual(SwiftDemangler.demangle("$sNOT_A_SYMBOL"), "$sNOT_A_SYMBOL")
    }

    func testAsyncAndCompilerMadeWrappersReadAsTheFunctionTheyRun() {
        XCTAssertEqual(
            SwiftDemangler.demangle("$s9asyncRace8addRound_2toySi_AA10ScoreBoardCtYaFTY2_"),
            "asyncRace.addRound(_: Int, to: asyncRace.ScoreBoard) (after an await)")
        XCTAssertEqual(
            SwiftDemangler.simplify("(1) await resume partial function for Demo.load() async throws -> Swift.Int"),
            "Demo.load() (after an await)")
        XCTAssertEqual(
            SwiftDemangler.simplify("partial apply for closure #1 in Demo.Worker.run() -> ()"),
            "closure #1 in Demo.Worker.run()")
        XCTAssertEqual(SwiftDemangler.simplify("merged Demo.f() -> ()"), "Demo.f()")
    }

    /// A name nested as deep as the length allows is demangled on a thread with a big stack,
    /// and left alone (no crash) where the stack is too small for its depth.
    func testDeeplyNestedNamesNeverOverflowTheStack() throws {
        let deep = "$s" + String(repeating: "Say", count: 248) + "Si" + String(repeating: "G", count: 248) + "D"
        XCTAssertLessThanOrEqual(deep.utf8.count, SwiftDemangler.maximumLength)
        XCTAssertTrue(
            SwiftDemangler.demangleFully(deep).hasPrefix("Swift.Array<Swift.Array<Swift.Array<"),
            "the main thread has room for it")
        let optionals = "$sSi" + String(repeating: "Sg", count: 497) + "D"
        /// Written by the thread before it fulfils the expectation, read after the wait.
        final class Names: @unchecked Sendable { var values: [String] = [] }
        let onSmallStack = Names()
        let done = expectation(description: "demangled on a 256 KB stack")
        let thread = Thread {
            onSmallStack.values = [
                SwiftDemangler.demangleFully(deep), SwiftDemangler.demangleFully(optionals),
                SwiftDemangler.demangleFully("$s9ListAdder0aB6BrokenC3addyySiF")
            ]
            done.fulfill()
        }
        thread.stackSize = 256 * 1024
        thread.start()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(
            onSmallStack.values, [deep, optionals, "ListAdder.ListAdderBroken.add(Swift.Int) -> ()"],
            "too deep for this stack: left mangled; a short name still demangles")
        let huge = "$s" + String(repeating: "Say", count: 100_000) + "Si"
        XCTAssertEqual(SwiftDemangler.demangle(huge), huge, "longer than maximumLength: never handed to the demangler")
    }
}
