import Foundation

/// Where the machine allows it (Linux with mount, network and PID namespaces, as root or with
/// unprivileged user namespaces), a child runs in namespaces of its own, set up by util-linux's
/// `unshare`:
/// - its own PID namespace, of which it is the first process: it sees and can signal no process
///   outside it (not the grader, not another student's run), and when it ends (or `unshare`,
///   the process the harness started, is killed) the kernel kills everything left inside;
/// - the whole file system is read-only to it, except its private run folder, and /dev/shm is a
///   fresh private tmpfs: it cannot change another run's files, the kit, the grades or the
///   workspace of another submission;
/// - it has no network (only a loopback that is down).
/// The child itself takes away mount(2), signals to others and new processes (its seccomp filter,
/// Confinement.c). It shares the CPU and memory with everything else (the watchdog and the
/// limits handle those). Elsewhere children run without it, and reports say so.
public enum ChildSandbox {
    /// Sets up the mounts, then becomes the child. $0 is the run folder.
    static let script =
        #"mount --make-rprivate / && mount --bind "$0" "$0" && mount --bind / / && mount -o remount,bind,ro / && mount -t tmpfs -o size=64m,mode=1777 tmpfs /dev/shm && cd "$0" && exec "$@""#

    /// util-linux's `setpriv`, which starts `unshare` with a parent-death signal: if the harness
    /// itself is killed, `unshare` dies, and with it (`--kill-child`) the whole namespace.
    static let setpriv: String? = ["/usr/bin/setpriv", "/bin/setpriv"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The command that runs a program in the sandbox: `setpriv --pdeathsig KILL` (where there
    /// is one) and `unshare`; nil when the machine has no `unshare` that works (checked once, by
    /// running a sandboxed `true`).
    public static let launcher: [String]? = {
        #if os(Linux) && !RACELAB_NO_LINUX_FACILITIES
            guard
                let path = ["/usr/bin/unshare", "/bin/unshare"].first(where: {
                    FileManager.default.isExecutableFile(atPath: $0)
                })
            else { return nil }
            guard let folder = try? RunFolder.privateFolder(named: "racelab-sandbox-probe") else { return nil }
            defer { try? FileManager.default.removeItem(at: folder) }
            for launcher in [setpriv.map { [$0, "--pdeathsig", "KILL", "--", path] }, [path]].compactMap({ $0 }) {
                if works(launcher, folder: folder) { return launcher }
            }
            return nil
        #else
            return nil
        #endif
    }()

    /// The `unshare` in use, when there is a sandbox.
    public static var unshare: String? { launcher?.last }

    static func works(_ launcher: [String], folder: URL) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher[0])
        process.arguments =
            Array(launcher.dropFirst()) + namespaceOptions + ["/bin/sh", "-c", script, folder.path, "/bin/true"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Root may make namespaces directly; anyone else needs a user namespace first.
    static var namespaceOptions: [String] {
        (geteuid() == 0 ? [] : ["--user", "--map-root-user"]) + [
            "--mount", "--net", "--pid", "--fork", "--kill-child", "--mount-proc", "--"
        ]
    }

    /// The program and arguments that run `executable` in the sandbox, in `folder`; nil when the
    /// machine offers no sandbox. With a `group`, the sandbox's first process joins it before
    /// anything else (ChildLimits), or the child does not start.
    public static func wrap(_ executable: URL, arguments: [String], folder: URL, group: ChildGroup? = nil)
        -> (URL, [String])?
    {
        guard let launcher else { return nil }
        let setUp =
            group.map {
                "{ \($0.joinCommand); } || { echo \"\(ChildGroup.joinFailed)\" >&2; exit 125; }; " + script
            } ?? script
        return (
            URL(fileURLWithPath: launcher[0]),
            Array(launcher.dropFirst()) + namespaceOptions + ["/bin/sh", "-c", setUp, folder.path, executable.path]
                + arguments
        )
    }

}
