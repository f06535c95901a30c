import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabGrading
@testable import RaceLabHarness
@testable import RaceLabReports
@testable import TSanReports

/// The report sections the explanation needs beyond the two accesses: which locks were taken
/// and held, locks held during a race, and a sleep that alone kept two accesses apart.
final class TSanReportParserSectionsTests: XCTestCase {
    func reports(_ name: String) throws -> [TSanReport] { TSanReportParser.parse(try Fixture.text(name)) }

    func testLockOrderAcquisitionsNameTheLockTakenTheLockHeldAndTheThread() throws {
        let report = try XCTUnwrap(try reports("lock-order-inversion.log").first)
        let acquisitions = report.accesses
        XCTAssertEqual(acquisitions.map(\.mutex), ["M1", "M0", "M0", "M1"])
        XCTAssertEqual(acquisitions.map(\.heldMutex), ["M0", nil, "M1", nil])
        // "previously acquired by the same thread" names no thread: it is the one just before.
        XCTAssertEqual(acquisitions.map(\.thread), ["thread T1", "thread T1", "thread T2", "thread T2"])
        XCTAssertEqual(acquisitions.map(\.isPrevious), [false, true, false, true])
        XCTAssertEqual(acquisitions[1].frames.dropFirst().first?.shortLocation, "main.swift:9")
    }

    func testLocksHeldDuringARaceAreKeptAndTheirCreationIsNotAnAccess() throws {
        let report = try XCTUnwrap(try reports("half-locked.log").first)
        XCTAssertEqual(report.accesses.count, 2, "\"Mutex M0 created at\" is not a third access")
        XCTAssertEqual(report.accesses.map(\.heldMutexes), [nil, ["write M0"]])
        XCTAssertEqual(report.accesses[1].thread, "thread T1")
        let mutex = try XCTUnwrap(report.mutexes?.first)
        XCTAssertEqual(mutex.mutex, "M0")
        XCTAssertEqual(mutex.frames.first?.function, "pthread_mutex_init")
        XCTAssertEqual(report.threads.count, 2)
    }

    func testTheSleepThatKeptAccessesApartIsKept() throws {
        let report = try XCTUnwrap(try reports("data-race-global.log").first)
        XCTAssertEqual(report.sleepFrames?.first?.function, "usleep")
        XCTAssertEqual(report.sleepFrames?.dropFirst().first?.shortLocation, "main.swift:10")
        XCTAssertEqual(report.accesses.count, 2)
        XCTAssertNil(try reports("thread-leak.log").first?.sleepFrames)
    }

    func testReportsSavedBeforeTheseFieldsExistedStillDecode() throws {
        let report = try XCTUnwrap(try reports("lock-order-inversion.log").first)
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        json["sleepFrames"] = nil
        json["mutexes"] = nil
        json["accesses"] = (json["accesses"] as? [[String: Any]])?.map { access in
            access.filter { !["mutex", "heldMutex", "heldMutexes"].contains($0.key) }
        }
        let old = try JSONSerialization.data(withJSONObject: json)
        XCTAssertEqual(try JSONDecoder().decode(TSanReport.self, from: old).accesses.count, report.accesses.count)
    }
}
