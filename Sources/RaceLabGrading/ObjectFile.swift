import Foundation

/// What the exercise checks need of a compiled object file (ELF, 64-bit, little-endian: what
/// Swift builds on Linux): its sections, its symbols, and which symbols each section's
/// relocations point at. Everything is bounds-checked; a file that is not such an object is
/// reported as unreadable, never trusted.
public struct ObjectFile: Sendable {
    public struct Symbol: Sendable, Equatable {
        public let name: String
        /// Defined in this object (not an outside reference).
        public let isDefined: Bool
        /// Visible to the linker outside this object (global or weak).
        public let isGlobal: Bool
        /// A weak definition: the compiler's shared copies (specialisations, witness accessors);
        /// any strong definition of the same name wins over it.
        public let isWeak: Bool
    }

    public struct Section: Sendable {
        public let name: String
        /// The symbols this section's relocations refer to (what its code calls or its data holds).
        public var references: [String] { uses.map(\.target) }
        /// Each reference with the function of this section it comes from, when one covers it.
        public var uses: [Use]
    }

    /// One relocation: which symbol, from which function.
    public struct Use: Sendable, Equatable {
        public let target: String
        public let function: String?
    }

    public let sections: [Section]
    public let symbols: [Symbol]

    public struct ReadError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(contentsOf url: URL) throws(ReadError) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ReadError(description: "cannot read \(url.path)")
        }
        try self.init(bytes: [UInt8](data), name: url.lastPathComponent)
    }

    public init(bytes: [UInt8], name: String = "object") throws(ReadError) {
        let reader = ByteReader(bytes: bytes)
        let (headers, names) = try Self.sectionTable(reader, name: name)
        let table = Self.symbolTable(reader, headers, sectionNames: names)
        sections = Self.sections(reader, headers, names: names, symbols: table)
        symbols = table.symbols
    }
}

extension ObjectFile {
    /// The ELF header checked, then the section table it points at, with each section's name.
    fileprivate static func sectionTable(_ reader: ByteReader, name: String) throws(ReadError)
        -> (headers: [SectionHeader], names: [String])
    {
        let bytes = reader.bytes
        guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46 else {
            throw ReadError(description: "\(name) is not an ELF object file")
        }
        guard bytes[4] == 2, bytes[5] == 1 else {
            throw ReadError(description: "\(name) is not a 64-bit little-endian ELF file")
        }
        guard let sectionTable = reader.u64(0x28), let entrySize = reader.u16(0x3A), let count = reader.u16(0x3C),
            let namesIndex = reader.u16(0x3E), entrySize >= 64, count < 65_000
        else {
            throw ReadError(description: "\(name): damaged ELF header")
        }
        var headers: [SectionHeader] = []
        for index in 0..<Int(count) {
            let base = Int(sectionTable) + index * Int(entrySize)
            guard let nameOffset = reader.u32(base), let type = reader.u32(base + 4),
                let offset = reader.u64(base + 24),
                let size = reader.u64(base + 32), let link = reader.u32(base + 40), let info = reader.u32(base + 44),
                let itemSize = reader.u64(base + 56), offset <= UInt64(bytes.count), size <= UInt64(bytes.count)
            else {
                throw ReadError(description: "\(name): damaged section table")
            }
            headers.append(
                SectionHeader(
                    name: Int(nameOffset), type: type, offset: Int(offset), size: Int(size),
                    link: Int(link), info: Int(info), entrySize: Int(itemSize)))
        }
        guard Int(namesIndex) < headers.count else { throw ReadError(description: "\(name): no section names") }
        let sectionNames = headers[Int(namesIndex)]
        return (headers, headers.map { sectionNames.string(at: $0.name, in: reader) })
    }

    /// Symbols (SHT_SYMTAB = 2): one table in a relocatable object. A section symbol
    /// (STT_SECTION = 3) has no name of its own: it goes by its section's.
    fileprivate static func symbolTable(_ reader: ByteReader, _ headers: [SectionHeader], sectionNames names: [String])
        -> SymbolTable
    {
        var table = SymbolTable()
        guard let symtab = headers.first(where: { $0.type == 2 }), symtab.link < headers.count else { return table }
        let strings = headers[symtab.link]
        let size = max(symtab.entrySize, 24)
        for index in 0..<(symtab.size / size) {
            let base = symtab.offset + index * size
            guard let nameOffset = reader.u32(base), let info = reader.u8(base + 4),
                let sectionIndex = reader.u16(base + 6),
                let value = reader.u64(base + 8), let size = reader.u64(base + 16)
            else { break }
            let binding = info >> 4
            let isSection = info & 0xF == 3 && Int(sectionIndex) < names.count
            let symbol = Symbol(
                name: isSection ? names[Int(sectionIndex)] : strings.string(at: Int(nameOffset), in: reader),
                isDefined: sectionIndex != 0,
                isGlobal: binding == 1 || binding == 2, isWeak: binding == 2)
            table.byIndex[index] = symbol
            if !symbol.name.isEmpty && !isSection { table.symbols.append(symbol) }
            if info & 0xF == 2, sectionIndex != 0 {  // STT_FUNC
                table.functions[Int(sectionIndex), default: []].append((symbol.name, value, value &+ size))
            }
        }
        return table
    }

    /// Sections, with what their relocations (SHT_RELA = 4, SHT_REL = 9) refer to.
    fileprivate static func sections(
        _ reader: ByteReader, _ headers: [SectionHeader], names: [String], symbols: SymbolTable
    ) -> [Section] {
        var sections = names.map { Section(name: $0, uses: []) }
        for header in headers where header.type == 4 || header.type == 9 {
            guard header.info < sections.count else { continue }
            let size = max(header.entrySize, header.type == 4 ? 24 : 16)
            let covering = symbols.functions[header.info] ?? []
            for index in 0..<(header.size / size) {
                guard let offset = reader.u64(header.offset + index * size),
                    let info = reader.u64(header.offset + index * size + 8)
                else { break }
                guard let symbol = symbols.byIndex[Int(info >> 32)] else { continue }
                let function = covering.first { offset >= $0.start && offset < $0.end }?.name
                sections[header.info].uses.append(Use(target: symbol.name, function: function))
            }
        }
        return sections
    }
}

/// One entry of the section table (Elf64_Shdr): the fields the checks use.
private struct SectionHeader {
    var name: Int
    var type: UInt32
    var offset: Int
    var size: Int
    var link: Int
    var info: Int
    var entrySize: Int

    /// The name at `offset` in this section, a string table ("?" when it is out of bounds).
    func string(at offset: Int, in reader: ByteReader) -> String {
        reader.cString(at: self.offset + offset, limit: self.offset + size) ?? "?"
    }
}

/// The symbol table as the relocations need it.
private struct SymbolTable {
    /// Every entry by its index (what a relocation names), section symbols included.
    var byIndex: [Int: ObjectFile.Symbol] = [:]
    /// The symbols with a name of their own, in order.
    var symbols: [ObjectFile.Symbol] = []
    /// By section index: the functions (STT_FUNC) defined there, and the addresses each covers.
    var functions: [Int: [(name: String, start: UInt64, end: UInt64)]] = [:]
}

/// Little-endian reads that return nil instead of reading past the end.
private struct ByteReader {
    let bytes: [UInt8]

    func u8(_ offset: Int) -> UInt8? { offset >= 0 && offset < bytes.count ? bytes[offset] : nil }
    func u16(_ offset: Int) -> UInt16? { value(offset, 2).map { UInt16($0) } }
    func u32(_ offset: Int) -> UInt32? { value(offset, 4).map { UInt32($0) } }
    func u64(_ offset: Int) -> UInt64? { value(offset, 8) }

    private func value(_ offset: Int, _ width: Int) -> UInt64? {
        guard offset >= 0, offset + width <= bytes.count else { return nil }
        var result: UInt64 = 0
        for index in (0..<width).reversed() { result = result << 8 | UInt64(bytes[offset + index]) }
        return result
    }

    func cString(at offset: Int, limit: Int) -> String? {
        guard offset >= 0, offset < min(limit, bytes.count) else { return nil }
        var end = offset
        while end < min(limit, bytes.count), bytes[end] != 0 { end += 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }
}
