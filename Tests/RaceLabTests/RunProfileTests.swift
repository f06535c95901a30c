import CRaceLabSupport
import XCTest

@_spi(LabAuthoring) @testable import LabKit
@testable import RaceLabHarness
@testable import RaceLabReports

/// `racelab run --profile`: one child's profile from what the parent and the child measured, and
/// the table that adds them up per lab, variant and mode.
final class RunProfileTests: XCTestCase {
    let plan = ScenarioPlan(lab: "list-adder", variant: "fixed", mode: .stress, iterations: 3, seed: 42)

    /// A child spawned at 10 s on the monotonic clock, reaped `wall` seconds later, whose story
    /// ran from 10.5 s for `story` seconds (nil: it sent no result).
    func child(wall: Double = 2, story: Double? = 1, cpu: Double = 0.7) -> ChildOutcome {
        var outcome = ChildOutcome(ending: .exited(0), elapsedSeconds: wall)
        outcome.clock.spawnedAtNanoseconds = 10_000_000_000
        outcome.clock.firstHeartbeatAtNanoseconds = 10_400_000_000
        outcome.clock.reapedAtNanoseconds = 10_000_000_000 + Int64(wall * 1e9)
        outcome.clock.cpuSeconds = cpu
        guard let story else { return outcome }
        var result = ScenarioOutcome()
        result.iterationsRun = 3
        result.tsanEnabled = true
        var profile = StoryProfile()
        profile.beganAtNanoseconds = 10_500_000_000
        profile.endedAtNanoseconds = 10_500_000_000 + Int64(story * 1e9)
        profile.harness.quietSeconds = 0.25
        profile.harness.quietLooks = 40
        profile.harness.waitSeconds = 0.5
        profile.harness.waits = 3
        profile.harness.storyHoldSeconds = 1.5
        profile.harness.threadHoldSeconds = 0.25
        profile.harness.checkpointPauseSeconds = 0.25
        profile.harness.checkpointSleepSeconds = 0.125
        profile.harness.preemptionSleepSeconds = 0.375
        profile.harness.preemptions = 12
        result.profile = profile
        outcome.results = [result]
        outcome.announcedIterations = Set(0...3)
        return outcome
    }

    func testOneChildIsSplitIntoStartStoryAndEnd() throws {
        let profile = try XCTUnwrap(RunProfile(child()))
        XCTAssertEqual(profile.children, 1)
        XCTAssertEqual(profile.childrenWithoutStory, 0)
        XCTAssertEqual(profile.wallSeconds, 2)
        XCTAssertEqual(profile.cpuSeconds, 0.7)
        XCTAssertEqual(profile.startSeconds, 0.5, accuracy: 1e-9)
        XCTAssertEqual(profile.storySeconds, 1, accuracy: 1e-9)
        XCTAssertEqual(profile.endSeconds, 0.5, accuracy: 1e-9)
        XCTAssertEqual(profile.otherSeconds, 0.25, accuracy: 1e-9, "story less quiet looks and waits")
        XCTAssertEqual(profile.harness.heldThreadSeconds, 2, "story holds, thread holds and checkpoint pauses")
        XCTAssertEqual(profile.harness.sleptThreadSeconds, 0.5, "checkpoint sleeps and preemption sleeps")
        XCTAssertEqual(profile.harness.preemptions, 12)
    }

    /// A child that sent no result: from its first heartbeat on, all is story, none is end.
    func testAChildWithoutStoryFiguresCountsFromItsFirstHeartbeat() throws {
        let profile = try XCTUnwrap(RunProfile(child(wall: 3, story: nil)))
        XCTAssertEqual(profile.childrenWithoutStory, 1)
        XCTAssertEqual(profile.startSeconds, 0.4, accuracy: 1e-9)
        XCTAssertEqual(profile.storySeconds, 2.6, accuracy: 1e-9)
        XCTAssertEqual(profile.endSeconds, 0)
        XCTAssertEqual(profile.harness.quietSeconds, 0)
        XCTAssertNil(RunProfile(ChildOutcome(ending: .failedToStart("no such file"))), "it never ran")
    }

    /// Stamps outside the span the parent saw (a result lab code wrote) are not believed.
    func testStoryStampsOutsideTheChildsLifeAreIgnored() throws {
        var outcome = child()
        outcome.results[0].profile?.endedAtNanoseconds = 99_000_000_000
        let profile = try XCTUnwrap(RunProfile(outcome))
        XCTAssertEqual(profile.childrenWithoutStory, 1)
        XCTAssertEqual(profile.harness.quietSeconds, 0)
    }

    /// The profile rides beside the verdict and changes nothing of it.
    func testTheVerdictCarriesTheProfileAndIsJudgedAsWithoutIt() throws {
        let with = VerdictBuilder.verdict(plan: plan, kind: .fixed, child: child(), reproduce: "r")
        var bare = child()
        bare.results[0].profile = nil
        let without = VerdictBuilder.verdict(plan: plan, kind: .fixed, child: bare, reproduce: "r")
        XCTAssertEqual(with.profile?.harness.quietLooks, 40)
        XCTAssertEqual(without.profile?.childrenWithoutStory, 1)
        XCTAssertEqual(with.detections, without.detections)
        XCTAssertNil(with.harnessError)
        XCTAssertNil(without.harnessError)
        XCTAssertFalse(with.detected)
        // And it is in the JSON (`racelab run --json`).
        let json = String(decoding: try JSONEncoder().encode(with), as: UTF8.self)
        XCTAssertTrue(json.contains(#""profile":{"#), json)
        XCTAssertEqual(try JSONDecoder().decode(RunVerdict.self, from: Data(json.utf8)).profile, with.profile)
    }

    /// Both profiles hold their `HarnessTime`, yet write its figures beside their own, as when each
    /// had them as fields: the child's result line and `racelab run --json` keep their keys.
    func testTheHarnessFiguresSitBesideEachProfilesOwnInJSON() throws {
        let harnessKeys = [
            "checkpointPauseSeconds", "checkpointSleepSeconds", "preemptionSleepSeconds", "preemptions",
            "quietLooks", "quietSeconds", "storyHoldSeconds", "threadHoldSeconds", "waitSeconds", "waits"
        ]
        func keys(_ value: some Encodable) throws -> [String] {
            let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(value))
            return try XCTUnwrap(object as? [String: Any]).keys.sorted()
        }
        let story = try XCTUnwrap(child().results.first?.profile)
        XCTAssertEqual(try keys(story), (harnessKeys + ["beganAtNanoseconds", "endedAtNanoseconds"]).sorted())
        let run = try XCTUnwrap(RunProfile(child()))
        let runKeys = ["children", "childrenWithoutStory", "cpuSeconds", "endSeconds", "startSeconds", "storySeconds"]
        XCTAssertEqual(try keys(run), (harnessKeys + runKeys + ["wallSeconds"]).sorted())
        XCTAssertEqual(try JSONDecoder().decode(StoryProfile.self, from: try JSONEncoder().encode(story)), story)
        XCTAssertEqual(try JSONDecoder().decode(RunProfile.self, from: try JSONEncoder().encode(run)), run)
    }

    /// A result line from a child that did not measure its story still decodes, with no profile.
    func testAResultLineWithoutAProfileStillDecodes() throws {
        let line =
            #"RACELAB-RESULT {"iterationsRun":3,"failures":[],"tsanReports":0,"elapsedSeconds":1,"notes":[],"#
            + #""metrics":{},"tsanEnabled":true}"#
        guard case .result(let result) = ChildChannel.decode(line) else { return XCTFail("not read as a result") }
        XCTAssertEqual(result.iterationsRun, 3)
        XCTAssertNil(result.profile)
        var measured = result
        measured.profile = StoryProfile()
        guard case .result(let again) = ChildChannel.decode(ChildChannel.encode(measured)) else {
            return XCTFail("not read back")
        }
        XCTAssertEqual(again.profile, StoryProfile())
    }

    func testShardsOfOneExploreRunAddUp() throws {
        func shard(_ wall: Double) -> RunVerdict {
            var verdict = VerdictBuilder.verdict(plan: plan, kind: .fixed, child: child(wall: wall), reproduce: "r")
            verdict.elapsedSeconds = wall
            return verdict
        }
        let merged = try XCTUnwrap(RunVerdict.merging([shard(2), shard(3)]))
        XCTAssertEqual(merged.profile?.children, 2)
        XCTAssertEqual(merged.profile?.wallSeconds, 5, "child-seconds, though the run took 3")
        XCTAssertEqual(merged.elapsedSeconds, 3)
    }

    // MARK: The table

    func outcome(_ lab: String, _ variant: String, _ mode: RunMode, walls: [Double]) -> VariantOutcome {
        let runs = walls.map { wall in
            VerdictBuilder.verdict(plan: plan, kind: .fixed, child: child(wall: wall), reproduce: "r")
        }
        return VariantOutcome(lab: lab, variant: variant, kind: .fixed, mode: mode, runs: runs)
    }

    func testRowsAreSummedPerVariantAndModeAndSortedByWallTime() {
        let table = ProfileTable([
            outcome("a", "fixed", .scripted, walls: [2, 2]),
            outcome("a", "fixed", .stress, walls: [5, 6]),
            outcome("b", "broken", .scripted, walls: [4]),
            outcome("b", "fixed", .explore, walls: []),  // skipped: no runs, no row
            outcome("c", "fixed", .scripted, walls: [2.5, 1.5])
        ])
        XCTAssertEqual(
            table.rows.map { "\($0.lab) \($0.variant) \($0.mode.rawValue)" },
            [
                "a fixed stress", "a fixed scripted", "b broken scripted", "c fixed scripted"
            ], "most wall time first; equal times in the run's order")
        XCTAssertEqual(table.rows.map(\.profile.wallSeconds), [11, 4, 4, 4])
        XCTAssertEqual(table.rows.map(\.profile.children), [2, 2, 1, 2])
        XCTAssertEqual(table.rows[0].profile.harness.preemptions, 24)
        XCTAssertEqual(table.rows[0].profile.storySeconds, 2, accuracy: 1e-9)
        XCTAssertEqual(table.total.children, 7)
        XCTAssertEqual(table.total.wallSeconds, 23)
        XCTAssertEqual(table.total.cpuSeconds, 4.9, accuracy: 1e-9)
        XCTAssertEqual(table.total.harness.quietSeconds, 7 * 0.25, accuracy: 1e-9)
        XCTAssertNil(table.footnote)
    }

    func testTheTextHasARowPerVariantThenTheTotalAndTheShares() throws {
        let table = ProfileTable([
            outcome("a", "fixed", .scripted, walls: [2]), outcome("a", "fixed", .stress, walls: [8])
        ])
        let lines = table.render().components(separatedBy: "\n")
        let header = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("LAB ") })
        XCTAssertEqual(
            lines[header].split(separator: " "),
            [
                "LAB", "VARIANT", "MODE", "CHILDREN", "WALL", "CPU", "START", "STORY", "END", "QUIET", "WAITS",
                "OTHER", "HELD", "SLEPT", "PREEMPT"
            ])
        XCTAssertEqual(lines[header + 1].split(separator: " ").prefix(5), ["a", "fixed", "stress", "1", "8.00"])
        XCTAssertEqual(lines[header + 1].split(separator: " ").last, "12")
        XCTAssertTrue(lines[header + 2].contains("scripted"))
        XCTAssertTrue(lines[header + 3].hasPrefix("TOTAL"))
        XCTAssertTrue(lines[header + 3].contains(" 10.00 "))
        // Shares of the 10 s of wall time: CPU 1.4 s, START 1 s, STORY 2 s, END 7 s.
        let shares = lines[header + 4].split(separator: " ")
        XCTAssertEqual(shares.prefix(8), ["SHARE", "OF", "WALL", "100.0%", "14.0%", "10.0%", "20.0%", "70.0%"])
        XCTAssertEqual(shares.count, 3 + 10, "no share for the counts")
        let widths = Set(lines[header...(header + 3)].map(\.count))
        XCTAssertEqual(widths.count, 1, "figures aligned to the right:\n" + table.render())
    }

    func testMarkdownIsOneTableWithTheFiguresAlignedRight() throws {
        var hung = child(wall: 4, story: nil)
        hung.ending = .killedAfterStall
        let runs = [VerdictBuilder.verdict(plan: plan, kind: .fixed, child: hung, reproduce: "r")]
        let table = ProfileTable([
            outcome("a", "fixed", .scripted, walls: [2]),
            VariantOutcome(lab: "b", variant: "fixed", kind: .fixed, mode: .stress, runs: runs)
        ])
        let lines = table.markdown().components(separatedBy: "\n")
        let header = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("| LAB |") })
        XCTAssertEqual(lines[header + 1], "| --- | --- | --- |" + String(repeating: " ---: |", count: 12))
        XCTAssertTrue(lines[header + 2].hasPrefix("| b | fixed | stress | 1 | 4.00 |"), lines[header + 2])
        XCTAssertTrue(lines[header + 4].hasPrefix("| TOTAL |  |  | 2 | 6.00 |"), lines[header + 4])
        XCTAssertTrue(lines[header + 5].hasPrefix("| SHARE OF WALL |  |  |  | 100.0% |"), lines[header + 5])
        XCTAssertEqual(
            table.footnote,
            "1 child(ren) sent no figures of their story (a crash, a hang): their time from the first heartbeat "
                + "to the end counts as STORY, with nothing inside it."
        )
        XCTAssertEqual(lines.last, table.footnote)
    }
}

/// What the child measures of its story (SpentTime.c): the story's own waits on the main thread,
/// the outermost only, their quiet looks counted as looks and not again as waiting.
final class StoryProfileTests: XCTestCase {
    func testAWaitCountsOnceAndLeavesItsQuietLooksOut() {
        XCTAssertTrue(Thread.isMainThread)
        let meter = StoryProfile.Meter()
        let run = ScenarioRun(mode: .scripted, iteration: 1, seed: 1)
        // On the meter's own clock (the monotonic one): the wall clock can be stepped meanwhile
        // (a stability run saw it 1 ms apart over 0.3 s).
        let began = rl_monotonic_ns()
        run.waitUntil(timeout: 0.3) {
            _ = LabQuiet.now
            run.busyWait(timeout: 0.01) { false }  // a wait inside the wait: not one of its own
            return false
        }
        let elapsed = Double(rl_monotonic_ns() - began) / 1e9
        let profile = meter.profile()
        XCTAssertEqual(profile.harness.waits, 1, "the outermost wait only")
        XCTAssertGreaterThan(profile.harness.quietLooks, 0)
        XCTAssertGreaterThan(profile.harness.quietSeconds, 0)
        XCTAssertGreaterThan(profile.harness.waitSeconds, 0)
        let counted = profile.harness.waitSeconds + profile.harness.quietSeconds
        XCTAssertLessThanOrEqual(counted, elapsed, "no time counted twice")
        XCTAssertGreaterThan(counted, elapsed * 0.9, "the whole wait is counted, as waiting or looking")
        XCTAssertGreaterThanOrEqual(profile.storySeconds, elapsed)
    }

    /// Off the main thread neither looks nor waits are the story's.
    func testLooksOffTheMainThreadAreNotCounted() {
        let meter = StoryProfile.Meter()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for _ in 0..<10 { _ = LabQuiet.now }
            done.signal()
        }
        done.wait()
        XCTAssertEqual(meter.profile().harness.quietLooks, 0)
    }
}
