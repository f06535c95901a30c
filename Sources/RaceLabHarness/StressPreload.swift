import Foundation

/// Where `racelab stress`'s preemption library is, and whether a program can take it.
public enum StressPreload {
    /// The library's file name, as the build names the `RaceLabStressPreload` product.
    public static let fileName = "libRaceLabStressPreload.so"

    /// The library beside `executable` (racelab), built with it.
    public static func library(besides executable: URL) -> URL {
        executable.deletingLastPathComponent().appendingPathComponent(fileName)
    }

    /// Why `program` cannot be stress-run, or nil if it can: it must be a file we may run, and an
    /// ELF program that asks for ThreadSanitizer's start (`__tsan_init` among its symbol names,
    /// which every program built with -sanitize=thread or -fsanitize=thread carries in its
    /// dynamic symbols, the runtime linked in or not). A script or a program built without TSan
    /// is refused before any run: nothing would be found, and the preemption could not load.
    public static func problem(with program: URL) -> String? {
        let path = program.path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            return "\(path) is not a program this user can run"
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return "cannot read \(path)" }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4)) ?? Data()
        guard head == Data([0x7F, 0x45, 0x4C, 0x46]) else {
            return "\(path) is not a compiled program (an ELF file): give the program itself, not a script"
        }
        try? handle.seek(toOffset: 0)
        let marker = Data("__tsan_init".utf8)
        var tail = Data()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            let window = tail + chunk
            if window.range(of: marker) != nil { return nil }
            tail = window.suffix(marker.count - 1)
        }
        return "\(path) is not built with ThreadSanitizer: build it with `swift build --sanitize=thread` "
            + "(Swift) or `-fsanitize=thread` (C, C++)"
    }
}
