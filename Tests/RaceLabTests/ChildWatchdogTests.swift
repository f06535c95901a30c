import XCTest

@testable import RaceLabHarness

/// The watchdog's decisions, from looks made by hand: no process, no clock. Looks come every
/// 1/32 s (about the runner's 20 ms, and exact in binary, so a limit is crossed at a known look).
final class ChildWatchdogTests: XCTestCase {
    static let step = 1.0 / 32
    let start = Date(timeIntervalSinceReferenceDate: 1_000)

    /// The moment of look `index`.
    func at(_ index: Int) -> Date { start + Double(index) * Self.step }

    /// A heartbeat of iteration `iteration` after `hits` checkpoint hits.
    static func beat(_ iteration: Int, _ hits: Int) -> HeartbeatSignatures {
        HeartbeatSignatures(
            "RACELAB-PROGRESS",
            decoded: ChildChannel.Progress(iteration: iteration, checkpointHits: Int64(hits), threads: []))
    }

    /// The look `index` steps after the start.
    func look(
        _ index: Int, heartbeat: HeartbeatSignatures? = beat(1, 5), threadWaits: [String: UInt64]? = nil,
        outputCut: Bool = false, memoryFull: Bool = false, crash: Bool = false
    ) -> ChildWatchdog.Observation {
        ChildWatchdog.Observation(
            now: at(index), heartbeat: heartbeat, threadWaits: threadWaits, outputCut: outputCut,
            memoryFull: memoryFull, sawCrashMarker: crash)
    }

    /// The first look (and the decision there) that is not `.keepWaiting`, among looks 0...`last`.
    func firstKill(
        _ watchdog: inout ChildWatchdog, through last: Int, _ make: (Int) -> ChildWatchdog.Observation
    ) -> (look: Int, decision: ChildWatchdog.Decision)? {
        for index in 0...last {
            let decision = watchdog.tick(make(index))
            if decision != .keepWaiting { return (index, decision) }
        }
        return nil
    }

    /// Silence is a stall at the first look with more than the timeout watched: 33 looks of
    /// 1/32 s past the last progress for a 1 s watchdog, not one before.
    func testSilenceIsAStallAtTheFirstLookPastTheTimeout() throws {
        var watchdog = ChildWatchdog(stallTimeout: 1)
        let kill = try XCTUnwrap(firstKill(&watchdog, through: 200) { self.look($0) })
        XCTAssertEqual(kill.look, 33)
        XCTAssertEqual(kill.decision, .kill(.stalled))
        XCTAssertEqual(ChildWatchdog.Reason.stalled.ending, .killedAfterStall)
        XCTAssertNil(watchdog.stallReason, "no progress at all: no reason beyond that")
    }

    /// Progress at every look sets the watch back: a child that keeps going is never killed,
    /// however long it runs, as long as each iteration ends within the iteration limit.
    func testAChildThatKeepsProgressingIsNeverKilled() {
        var watchdog = ChildWatchdog(stallTimeout: 1, startupTimeout: 60)
        // Five minutes: a new iteration every 30 s, a checkpoint hit every half second.
        XCTAssertNil(
            firstKill(&watchdog, through: 5 * 60 * 32) { self.look($0, heartbeat: Self.beat($0 / 960, $0 / 16)) })
    }

    /// Progress inside one iteration that never ends is a hang too, at the first look past the
    /// iteration limit, and says why.
    func testAnIterationThatNeverEndsIsAStall() throws {
        var watchdog = ChildWatchdog(stallTimeout: 1, iterationTimeout: 60)
        let kill = try XCTUnwrap(
            firstKill(&watchdog, through: 70 * 32) { self.look($0, heartbeat: Self.beat(4, $0 / 16)) })
        XCTAssertEqual(kill.look, 60 * 32 + 1)
        XCTAssertEqual(kill.decision, .kill(.stalled))
        XCTAssertEqual(
            watchdog.stallReason, "iteration 4 went on for 60 s without ending: the story never finished")
    }

    /// A crash marker gives the child `crashGrace` to die by itself; then it is killed as a crash.
    func testACrashThatDoesNotDieIsKilledAfterItsGrace() throws {
        var watchdog = ChildWatchdog(stallTimeout: 30, crashGrace: 1.5)
        let kill = try XCTUnwrap(
            firstKill(&watchdog, through: 200) { index in
                self.look(index, heartbeat: Self.beat(1, index), crash: index >= 10)
            })
        XCTAssertEqual(kill.look, 10 + 49, "the first look more than 1.5 s after the marker was seen")
        XCTAssertEqual(kill.decision, .kill(.crashedWithoutDying))
        XCTAssertEqual(ChildWatchdog.Reason.crashedWithoutDying.ending, .killedAfterCrash)
    }

    /// A crash seen before the stall limit, with its grace not over, is still a stall for the
    /// watchdog; the runner says it was a crash (`ChildRunner.ending`).
    func testACrashStillInItsGraceAtTheStallLimitIsAStallTheRunnerCallsACrash() throws {
        var watchdog = ChildWatchdog(stallTimeout: 1, crashGrace: 30)
        let kill = try XCTUnwrap(firstKill(&watchdog, through: 200) { self.look($0, crash: $0 >= 5) })
        XCTAssertEqual(kill.look, 33)
        XCTAssertEqual(kill.decision, .kill(.stalled))
        XCTAssertEqual(ChildRunner.ending(status: 9, killedFor: .stalled, crashed: true), .killedAfterCrash)
        XCTAssertEqual(ChildRunner.ending(status: 9, killedFor: .stalled, crashed: false), .killedAfterStall)
        XCTAssertEqual(ChildRunner.ending(status: 9, killedFor: .neverStarted, crashed: true), .killedBeforeStart)
        XCTAssertEqual(ChildRunner.ending(status: 9, killedFor: .memoryFull, crashed: true), .signaled(9))
        XCTAssertEqual(ChildRunner.ending(status: 3 << 8, killedFor: nil, crashed: true), .exited(3))
    }

    /// Output past its limit ends a lab child at the look that sees it; a tool's is only cut.
    func testAnOutputFloodEndsALabChildAtOnce() {
        var lab = ChildWatchdog(stallTimeout: 10, endsOnOutputFlood: true)
        XCTAssertEqual(lab.tick(look(0)), .keepWaiting)
        XCTAssertEqual(lab.tick(look(1, outputCut: true)), .kill(.outputFlood))
        var tool = ChildWatchdog(stallTimeout: 10)
        XCTAssertEqual(tool.tick(look(0, outputCut: true)), .keepWaiting)
        XCTAssertNil(ChildWatchdog.Reason.outputFlood.ending, "its ending is the kill's signal")
    }

    /// Memory at its limit ends the child at the look that reads it, before any other reason;
    /// only a flood of output comes first.
    func testAMemoryLimitEndsTheChildAtOnceBeforeAnyOtherReason() {
        var watchdog = ChildWatchdog(stallTimeout: 1, crashGrace: 0.5, endsOnOutputFlood: true)
        for index in 0..<17 {
            XCTAssertEqual(watchdog.tick(look(index, heartbeat: Self.beat(1, index), crash: index == 0)), .keepWaiting)
        }
        // At look 17 the crash's grace is over: what each reading makes of that same moment.
        var graceOver = watchdog
        XCTAssertEqual(graceOver.tick(look(17, heartbeat: Self.beat(1, 17))), .kill(.crashedWithoutDying))
        var full = watchdog
        XCTAssertEqual(full.tick(look(17, heartbeat: Self.beat(1, 17), memoryFull: true)), .kill(.memoryFull))
        var flooded = watchdog
        XCTAssertEqual(
            flooded.tick(look(17, heartbeat: Self.beat(1, 17), outputCut: true, memoryFull: true)), .kill(.outputFlood))
        XCTAssertNil(ChildWatchdog.Reason.memoryFull.ending)
        // Memory full from the first look: killed there, long before any stall.
        var early = ChildWatchdog(stallTimeout: 1)
        XCTAssertEqual(early.tick(look(0, memoryFull: true)), .kill(.memoryFull))
    }

    /// Before its first progress line a lab child is starting: `startupTimeout`, not the stall
    /// limit, and its end is "never started"; a tool (no startup allowance) is watched by the
    /// stall limit from the start.
    func testAChildThatNeverStartsIsKilledAtTheStartupLimit() throws {
        var lab = ChildWatchdog(stallTimeout: 0.5, startupTimeout: 1.5)
        let never = try XCTUnwrap(firstKill(&lab, through: 200) { self.look($0, heartbeat: nil) })
        XCTAssertEqual(never.look, 49)
        XCTAssertEqual(never.decision, .kill(.neverStarted))
        XCTAssertEqual(ChildWatchdog.Reason.neverStarted.ending, .killedBeforeStart)
        var tool = ChildWatchdog(stallTimeout: 0.5)
        let stalled = try XCTUnwrap(firstKill(&tool, through: 200) { self.look($0, heartbeat: nil) })
        XCTAssertEqual(stalled.look, 17)
        XCTAssertEqual(stalled.decision, .kill(.stalled))
        // Once it has started, the stall limit applies.
        var started = ChildWatchdog(stallTimeout: 0.5, startupTimeout: 1.5)
        let late = try XCTUnwrap(
            firstKill(&started, through: 200) { self.look($0, heartbeat: $0 < 20 ? nil : Self.beat(1, 0)) })
        XCTAssertEqual(late.look, 20 + 17)
        XCTAssertEqual(late.decision, .kill(.stalled))
    }

    /// The threads' waits for a CPU are asked for only once the child has been silent a quarter
    /// of a second, at most 4 times a second; what they waited is not silence.
    func testAStarvedChildIsAskedItsWaitsNowAndThenAndIsNotKilled() {
        var watchdog = ChildWatchdog(stallTimeout: 1)
        var asked: [Int] = []
        var waited: UInt64 = 0
        for index in 0...(10 * 32) {
            let now = start + Double(index) * Self.step
            var waits: [String: UInt64]?
            if watchdog.wantsThreadWaits(at: now) {
                asked.append(index)
                waits = ["7": waited]
                waited += 250_000_000  // a quarter of a second waited since the last reading
            }
            XCTAssertEqual(watchdog.tick(look(index, threadWaits: waits)), .keepWaiting, "look \(index)")
        }
        XCTAssertEqual(Array(asked.prefix(3)), [9, 17, 25], "from a quarter of a second silent, every quarter")
        // A child that waited for nothing is stuck.
        var stuck = ChildWatchdog(stallTimeout: 1)
        XCTAssertEqual(
            firstKill(&stuck, through: 200) { self.look($0, threadWaits: ["7": 0]) }?.look, 33)
    }

    /// A new iteration sets the CPU readings back: a reading from before it is no base for the
    /// next. Within one iteration the iteration watch still counts, so the readings go on, and
    /// the time waited across a checkpoint hit is credited.
    func testANewIterationStartsTheReadingsAnew() {
        var watchdog = ChildWatchdog(stallTimeout: 1)
        for index in 0...8 { _ = watchdog.tick(look(index)) }
        XCTAssertTrue(watchdog.wantsThreadWaits(at: at(9)))
        XCTAssertEqual(watchdog.tick(look(9, threadWaits: ["7": 1_000_000_000])), .keepWaiting)
        XCTAssertFalse(watchdog.wantsThreadWaits(at: at(10)), "read a moment ago")
        // Progress at look 10, then silence; every later reading says 5 s waited in all, 4 s
        // more than at look 9.
        func killed(after progress: HeartbeatSignatures) -> Int? {
            var watched = watchdog
            for index in 10...400 {
                let waits: [String: UInt64]? = watched.wantsThreadWaits(at: at(index)) ? ["7": 5_000_000_000] : nil
                if watched.tick(look(index, heartbeat: progress, threadWaits: waits)) != .keepWaiting { return index }
            }
            return nil
        }
        XCTAssertEqual(killed(after: Self.beat(2, 6)), 10 + 33, "a new iteration: none of the 4 s is credited")
        XCTAssertEqual(killed(after: Self.beat(1, 6)), 10 + 33 + 4 * 32, "the same iteration: all of it is")
    }

    /// A look that comes late (the machine was suspended) does not count its gap as silence.
    func testAPauseOfTheWholeMachineIsNotSilence() {
        var watchdog = ChildWatchdog(stallTimeout: 1)
        XCTAssertEqual(watchdog.tick(look(0)), .keepWaiting)
        XCTAssertEqual(watchdog.tick(look(30 * 32)), .keepWaiting, "30 s between two looks")
        XCTAssertEqual(
            firstKill(&watchdog, through: 200) { self.look(30 * 32 + 1 + $0) }?.look, 32,
            "then 33 looks of silence, watched")
    }
}
