import Foundation

/// Where `racelab stress`'s preemption library is, and whether a program can take it.
public enum StressPreload {
    /// The library's file name, as the build names the `RaceLabStressPreload` product.
    public static let fileName = "libRaceLabStressPreload.so"

    /// The library beside `executable` (racelab), built with it.
    public static func library(besides executable: URL) -> URL {
        executable.deletingLastPathComponent().appendingPathComponent(fileName)
    }

    /// Why the library at `library` cannot be loaded into a program, or nil if it can.
    public static func problem(withLibrary library: URL) -> String? {
        if library.path.contains(where: { $0 == " " || $0 == ":" }) {
            return "RaceLab is built in a folder whose path has a space or a colon (\(library.path)), which "
                + "LD_PRELOAD cannot name: build it in another folder"
        }
        guard FileManager.default.fileExists(atPath: library.path) else {
            return "\(library.path) is missing: build RaceLab with `make build` (it builds the preemption library "
                + "beside racelab)"
        }
        return nil
    }

    /// Why `program` cannot be stress-run, or nil if it can: a file this user may run, a
    /// dynamically linked ELF program (the library is loaded by the dynamic linker), built with
    /// ThreadSanitizer (`__tsan_init` among its dynamic symbols: every program built with
    /// -sanitize=thread or -fsanitize=thread has it, the runtime linked in or not). Anything else
    /// is refused before any run: nothing could be found, or the preemption could not load.
    public static func problem(with program: URL) -> String? {
        let path = program.path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            return "\(path) is not a program this user can run"
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return "cannot read \(path)" }
        defer { try? handle.close() }
        guard let facts = ELFFacts(handle) else {
            return "\(path) is not a compiled program (a 64-bit ELF file): give the program itself, not a script"
        }
        guard facts.isDynamic else {
            return "\(path) is statically linked: RaceLab's preemption is loaded by the dynamic linker, which such a "
                + "program does not use"
        }
        guard facts.hasThreadSanitizer else {
            return "\(path) is not built with ThreadSanitizer: build it with `swift build --sanitize=thread` "
                + "(Swift) or `-fsanitize=thread` (C, C++)"
        }
        return nil
    }

    /// What the check needs of an ELF file (64-bit, little-endian), read from its headers and its
    /// dynamic string table only, every offset bounds-checked; nil if it is not such a file.
    struct ELFFacts {
        var isDynamic = false
        var hasThreadSanitizer = false

        init?(_ handle: FileHandle) {
            func read(_ offset: UInt64, _ count: Int) -> [UInt8]? {
                guard (try? handle.seek(toOffset: offset)) != nil,
                    let data = try? handle.read(upToCount: count), data.count == count
                else { return nil }
                return [UInt8](data)
            }
            func number(_ bytes: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
                (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
            }
            guard let header = read(0, 64), header[0...3] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1
            else { return nil }
            let programHeaders = number(header, 0x20, 8)
            let programEntry = Int(number(header, 0x36, 2))
            let programCount = Int(number(header, 0x38, 2))
            let sections = number(header, 0x28, 8)
            let sectionEntry = Int(number(header, 0x3A, 2))
            let sectionCount = Int(number(header, 0x3C, 2))
            // PT_INTERP: the program names a dynamic linker.
            if programEntry >= 4, programCount < 4096 {
                for index in 0..<programCount {
                    if let type = read(programHeaders + UInt64(index * programEntry), 4), number(type, 0, 4) == 3 {
                        isDynamic = true
                    }
                }
            }
            // The string table of SHT_DYNSYM (its sh_link): the names of the dynamic symbols.
            guard sectionEntry >= 64, sectionCount < 65_536 else { return }
            var table: [[UInt8]] = []
            for index in 0..<sectionCount {
                guard let entry = read(sections + UInt64(index * sectionEntry), 64) else { return }
                table.append(entry)
            }
            guard let dynamicSymbols = table.first(where: { number($0, 4, 4) == 11 }) else { return }
            let link = Int(number(dynamicSymbols, 0x28, 4))
            guard link < table.count else { return }
            let size = number(table[link], 0x20, 8)
            guard size < 256 << 20, let names = read(number(table[link], 0x18, 8), Int(size)) else { return }
            let wanted = [UInt8]("\0__tsan_init\0".utf8)
            hasThreadSanitizer =
                names.count >= wanted.count
                && (0...(names.count - wanted.count)).contains { names[$0..<($0 + wanted.count)].elementsEqual(wanted) }
        }
    }
}
