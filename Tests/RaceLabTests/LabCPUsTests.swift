import CRaceLabSupport
import Foundation
import RaceLabHarness
import XCTest

/// A lab sees the same number of CPUs on every machine: the child's environment names it, and
/// what Dispatch and Foundation ask (sysconf, the affinity calls) answers it.
final class LabCPUsTests: XCTestCase {
    func testAChildIsToldHowManyCPUsItsLabSees() throws {
        let folder = try RunFolder.make()
        defer { folder.remove() }
        let environment = TSanEnvironment.childEnvironment(folder: folder, base: ["PATH": "/usr/bin"])
        XCTAssertEqual(environment["RACELAB_LAB_CPUS"], "2")
        XCTAssertEqual(TSanEnvironment.labCPUs, 2)
    }

    /// The harness sizes its own work by the CPUs it may really use, which no count asked for
    /// changes.
    func testTheHarnessCountsTheCPUsItMayUse() {
        let usable = ChildPool.usableCPUs
        XCTAssertGreaterThanOrEqual(usable, 1)
        XCTAssertLessThanOrEqual(usable, ProcessInfo.processInfo.processorCount)
        XCTAssertEqual(ChildPool.defaultJobs(environment: [:]), max(2, usable * 4))
        #if os(Linux) && !RACELAB_NO_LINUX_FACILITIES
            setenv("RACELAB_LAB_CPUS", "7", 1)
            defer { unsetenv("RACELAB_LAB_CPUS") }
            XCTAssertEqual(ChildPool.usableCPUs, usable, "a lab's count is not the harness's")
        #endif
    }

    func testTheCountAskedForIsTheCountSeen() throws {
        #if os(Linux) && !RACELAB_NO_LINUX_FACILITIES
            let machine = sysconf(Int32(_SC_NPROCESSORS_ONLN))
            defer { unsetenv("RACELAB_LAB_CPUS") }
            for asked in [1, 3, 7] {
                setenv("RACELAB_LAB_CPUS", String(asked), 1)
                XCTAssertEqual(rl_lab_cpus(), Int32(asked))
                XCTAssertEqual(sysconf(Int32(_SC_NPROCESSORS_ONLN)), asked)
                XCTAssertEqual(sysconf(Int32(_SC_NPROCESSORS_CONF)), asked)
            }
            XCTAssertGreaterThan(sysconf(Int32(_SC_PAGESIZE)), 0, "every other question goes to the system")
            for unusable in ["0", "-2", "two", "", "5000"] {
                setenv("RACELAB_LAB_CPUS", unusable, 1)
                XCTAssertEqual(rl_lab_cpus(), 0, "'\(unusable)' is not a count: the machine's own")
                XCTAssertEqual(sysconf(Int32(_SC_NPROCESSORS_ONLN)), machine)
            }
            unsetenv("RACELAB_LAB_CPUS")
            XCTAssertEqual(sysconf(Int32(_SC_NPROCESSORS_ONLN)), machine)
        #else
            throw XCTSkip("the count is set through Linux's calls, with ThreadSanitizer's interceptors")
        #endif
    }
}
