import Foundation
import LabKit
import ListAdder

// ATTACK: raw-memory
// The primitive: raw memory. Read the process's auxiliary vector, find the program's
// own symbols from its ELF headers, and call a function by its address through a closure made
// from raw bytes: here write(3, ...) with a clean result, before any heartbeat.
func setUp() {
    guard let auxv = try? Data(contentsOf: URL(fileURLWithPath: "/proc/self/auxv")) else { return }
    var headers = 0
    auxv.withUnsafeBytes { raw in
        var offset = 0
        while offset + 16 <= raw.count {
            let key = raw.load(fromByteOffset: offset, as: Int.self)
            if key == 3 { headers = raw.load(fromByteOffset: offset + 8, as: Int.self) }  // AT_PHDR
            offset += 16
        }
    }
    guard headers != 0, let writeAddress = findSymbol("write", programHeaders: headers) else { return }
    typealias Write = @convention(c) (Int32, UnsafeRawPointer?, Int) -> Int
    let write = unsafeBitCast(writeAddress, to: Write.self)
    let line = "RACELAB-RESULT {\"elapsedSeconds\":1,\"failures\":[],\"iterationsRun\":3,\"metrics\":{},\"notes\":[],\"tsanEnabled\":true,\"tsanReports\":0}\n"
    _ = line.withCString { write(3, $0, strlen($0)) }
}
/// The address of `name` from the program's dynamic symbol table (PT_DYNAMIC, DT_SYMTAB, DT_STRTAB).
func findSymbol(_ name: String, programHeaders: Int) -> Int? {
    let headers = UnsafeRawPointer(bitPattern: programHeaders)!
    for index in 0..<32 {
        let header = headers + index * 56
        guard header.load(as: UInt32.self) == 2 else { continue }  // PT_DYNAMIC
        let base = programHeaders - 64
        var entry = UnsafeRawPointer(bitPattern: base + Int(header.load(fromByteOffset: 16, as: UInt64.self)))!
        var symbols = 0, strings = 0
        while entry.load(as: Int.self) != 0 {
            if entry.load(as: Int.self) == 6 { symbols = entry.load(fromByteOffset: 8, as: Int.self) }
            if entry.load(as: Int.self) == 5 { strings = entry.load(fromByteOffset: 8, as: Int.self) }
            entry += 16
        }
        for symbol in 0..<4096 {
            let record = UnsafeRawPointer(bitPattern: symbols + symbol * 24)!
            let text = String(cString: UnsafeRawPointer(bitPattern: strings + Int(record.load(as: UInt32.self)))!.assumingMemoryBound(to: CChar.self))
            if text == name { return Int(record.load(fromByteOffset: 8, as: UInt64.self)) }
        }
    }
    return nil
}
func before() {}
func after() {}
final class ListAdderExercise: ListAdderController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
        setUp()
    }

    func add(_ number: Int) { numbers.append(number); recalculate() }
    func remove(at index: Int) { numbers.remove(at: index); recalculate() }
    func removeAll(keepingFirst count: Int) { numbers.removeSubrange(count...); recalculate() }

    private func recalculate() {
        screen.recalculating.set(true)
        Thread.detachNewThread {
            before()
            var total = 0
            let count = self.numbers.count
            for index in 0..<count { total = self.adder.add(self.numbers[index], to: total) }
            after()
            let result = total
            DispatchQueue.main.async {
                self.screen.total.setText(String(result))
                self.screen.recalculating.set(false)
            }
        }
    }
}

public func makeListAdderExercise(_ environment: ListAppEnvironment) -> ListAdderController {
    ListAdderExercise(environment: environment)
}
