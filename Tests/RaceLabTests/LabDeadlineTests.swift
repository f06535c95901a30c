import Foundation
import Synchronization
import XCTest

@_spi(LabAuthoring) @testable import LabKit

/// A lab's time limit counts the lab's own time: waiting for a CPU does not use it up.
final class LabDeadlineTests: XCTestCase {
    func testAnIdleLabReachesItsLimitOnTime() {
        let start = Date()
        var deadline = LabDeadline(seconds: 0.5)
        XCTAssertFalse(deadline.hasPassed(), "half a second has not passed yet")
        // Asleep: no thread wants a CPU. (On a busy machine a wake-up may wait a moment for one,
        // which moves the end on by as much: hence the loop.)
        while !deadline.hasPassed() && Date().timeIntervalSince(start) < 30 { usleep(100_000) }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.5)
        XCTAssertTrue(deadline.hasPassed(), "an idle lab's half second passes")
    }

    /// The deadline reads its own process with raw system calls: the same threads the kernel's
    /// files list, this one among them, each with its wait.
    func testTheProcesssOwnWaitsAreReadRaw() throws {
        try XCTSkipIf(CPUWait.threadWaits(of: getpid()) == nil, "this system keeps no scheduler statistics")
        let raw = try XCTUnwrap(CPUWait.ownThreadWaits())
        let viaFiles = try XCTUnwrap(CPUWait.threadWaits(of: getpid()))
        XCTAssertNotNil(raw[String(ThreadHold.currentThread)], "this thread is among them")
        // A thread may begin or end between the two readings, so compare those in both; a wait
        // only grows.
        let both = Set(raw.keys).intersection(viaFiles.keys)
        XCTAssertGreaterThanOrEqual(both.count, min(raw.count, viaFiles.count) - 2)
        for thread in both { XCTAssertLessThanOrEqual(raw[thread]!, viaFiles[thread]!, "thread \(thread)") }
    }

    /// More busy threads than CPUs: some of them always wait for one (the kernel's count), and
    /// that time moves the end on. Holds in every interleaving: with 3 threads a core for the
    /// whole limit, the most any one of them waited is at least two thirds of it.
    func testTimeSpentWaitingForACPUMovesTheEndOn() throws {
        try XCTSkipIf(CPUWait.threadWaits(of: getpid()) == nil, "this system keeps no scheduler statistics")
        let spinners = 3 * ProcessInfo.processInfo.activeProcessorCount
        let stop = StopFlag()
        let started = DispatchGroup()
        for _ in 0..<spinners {
            started.enter()
            Thread.detachNewThread {
                started.leave()
                while !stop.value.load(ordering: .relaxed) {}
            }
        }
        started.wait()
        var deadline = LabDeadline(seconds: 0.5)
        let wallEnd = DispatchTime.now().uptimeNanoseconds + 600_000_000
        while DispatchTime.now().uptimeNanoseconds < wallEnd {}
        let passed = deadline.hasPassed()
        stop.value.store(true, ordering: .relaxed)
        XCTAssertFalse(
            passed,
            "0.6 s of plain time with \(spinners) threads on \(spinners / 3) CPUs is under 0.5 s of the lab's own time")
    }
}

private final class StopFlag: Sendable {
    let value = Atomic<Bool>(false)
}
