import CRaceLabSupport
import Foundation
import RaceLabHarness
import XCTest

/// The kernel's part of isolating a child, tried for real: a probe child of the real lab program
/// confines itself as a run does, then tries to start a process, run a program, signal the test
/// process, write outside its folder and open a socket. Each must be refused where the kernel
/// offers the means (seccomp and Landlock on this Linux; namespaces where unshare works).
final class ChildIsolationTests: XCTestCase {
    func testAProbeChildIsRefusedEveryWayOut() throws {
        #if !os(Linux)
            throw XCTSkip("the confinement is Linux's (seccomp, Landlock, namespaces)")
        #else
            try XCTSkipUnless(PlatformChecks.here.childConfinement, "this build does not confine its children")
            let bare = ChildIsolation.measure(executable: LabsTestSupport.child, sandbox: false)
            let confinement = try XCTUnwrap(bare.confinement, bare.problem ?? "no answer")
            XCTAssertNotEqual(confinement.inForce & Int(RL_CONFINED_SYSCALLS), 0, "the seccomp filter is in force")
            // The filter alone: no process, no program, no signal out, no socket.
            for escape in [RL_ESCAPE_PROCESS, RL_ESCAPE_PROGRAM, RL_ESCAPE_SIGNAL, RL_ESCAPE_SOCKET] {
                XCTAssertEqual(confinement.escapes & Int(escape), 0, bare.summary)
            }
            if confinement.inForce & Int(RL_CONFINED_WRITES) != 0 {
                XCTAssertEqual(
                    confinement.escapes & Int(RL_ESCAPE_WRITE), 0,
                    "Landlock: no write outside the run folder: \(bare.summary)")
            }
            XCTAssertNotEqual(
                confinement.escapes & Int(RL_ESCAPE_PROCESS_TABLE), 0, "without the sandbox it shares the process table"
            )
            XCTAssertTrue(bare.summary.contains("NOT in force"), bare.summary)

            guard ChildSandbox.unshare != nil else {
                throw XCTSkip("no usable unshare here: the namespaces are not tried")
            }
            let sandboxed = ChildIsolation.measure(executable: LabsTestSupport.child, sandbox: true)
            XCTAssertTrue(sandboxed.isComplete, sandboxed.summary)
            XCTAssertFalse(sandboxed.summary.contains("NOT in force"), sandboxed.summary)
        #endif
    }
}
