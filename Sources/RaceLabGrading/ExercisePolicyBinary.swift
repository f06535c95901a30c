import Foundation
import TSanReports

/// The exercise policy on compiled code: what an exercise's object file may call, define and
/// place in its sections (the rules themselves: ExercisePolicy.swift).
extension ExercisePolicy {
    /// C functions an exercise's compiled code may call (exact names, or prefixes ending in `*`).
    static let allowedCFunctions: [String] = [
        // The Swift runtime and what the compiler emits around it.
        "swift_*", "_swift_*", "__swift_*", "_swiftEmptyArrayStorage", "_swiftEmptyDictionarySingleton",
        "_swiftEmptySetSingleton",
        "_Block_copy", "_Block_release", "_NSConcreteStackBlock", "_NSConcreteGlobalBlock",
        "_Unwind_Resume", "__gcc_personality_v0", "__stack_chk_fail", "__stack_chk_guard", "__dso_handle",
        "__tls_get_addr",
        // ThreadSanitizer's own instrumentation (what -sanitize=thread inserts; never an annotation).
        "__tsan_init", "__tsan_func_entry", "__tsan_func_exit", "__tsan_read1", "__tsan_read2", "__tsan_read4",
        "__tsan_read8",
        "__tsan_read16", "__tsan_write1", "__tsan_write2", "__tsan_write4", "__tsan_write8", "__tsan_write16",
        "__tsan_unaligned_read*", "__tsan_unaligned_write*", "__tsan_read_range", "__tsan_write_range",
        "__tsan_external_read", "__tsan_external_write", "__tsan_atomic*", "__tsan_memset", "__tsan_memcpy",
        "__tsan_memmove",
        "__tsan_vptr_read", "__tsan_vptr_update",
        // Memory, time, sleeping, randomness, mathematics.
        "memcpy", "memmove", "memset", "memcmp", "bzero", "strlen", "malloc", "calloc", "realloc", "free",
        "posix_memalign",
        "aligned_alloc", "malloc_usable_size", "usleep", "nanosleep", "sleep", "sched_yield", "clock_gettime",
        "gettimeofday",
        "time", "arc4random*", "random", "rand", "drand48", "sqrt*", "sin*", "cos*", "tan*", "exp*", "log*", "pow*",
        "floor*",
        "ceil*", "fabs*", "fmod*", "round*", "trunc*", "hypot*", "atan*", "fmin*", "fmax*",
        // Synchronisation.
        "pthread_mutex_*", "pthread_mutexattr_*", "pthread_rwlock_*", "pthread_rwlockattr_*", "pthread_cond_*",
        "pthread_condattr_*", "pthread_spin_*", "pthread_once", "pthread_self", "pthread_equal", "pthread_create",
        "pthread_join",
        "pthread_detach", "pthread_attr_*", "pthread_key_*", "pthread_getspecific", "pthread_setspecific",
        "pthread_setname_np",
        "sem_init", "sem_destroy", "sem_wait", "sem_trywait", "sem_timedwait", "sem_post", "sem_getvalue",
        "dispatch_async*", "dispatch_sync*", "dispatch_barrier_*", "dispatch_group_*", "dispatch_semaphore_*",
        "dispatch_once*",
        "dispatch_queue_*", "dispatch_get_*", "dispatch_apply*", "dispatch_after*", "dispatch_time",
        "dispatch_walltime",
        "dispatch_retain", "dispatch_release", "dispatch_set_target_queue", "dispatch_suspend", "dispatch_resume",
        "dispatch_main", "dispatch_block_*", "dispatch_assert_queue*"
    ]

    /// Every violation in one compiled exercise object. `module`: the exercise's module;
    /// `labModule`: its lab's (default: `module` less "Exercises", "Solutions" or "Corpus").
    public static func check(object: ObjectFile, file: String, module: String, labModule: String? = nil)
        -> [PolicyViolation]
    {
        let lab =
            labModule
            ?? ["Exercises", "Solutions", "Corpus"].reduce(module) { name, suffix in
                name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name
            }
        var findings = ObjectFindings(file: file)
        // An object no honest exercise comes near (a type that grows with every line): refused
        // as such, rather than read for minutes.
        guard object.symbols.count <= maximumSymbols else {
            findings.add(
                "forbidden-api",
                "an object of \(object.symbols.count) symbols, too large to check (at most \(maximumSymbols))")
            return findings.found
        }
        checkDefinitions(object, module: module, into: &findings)
        checkSections(object, into: &findings)
        checkOutsideReferences(object, module: module, lab: lab, into: &findings)
        return findings.found
    }

    /// The violations found in one object: each rule and construct once, at most `maximumFindings`.
    private struct ObjectFindings {
        let file: String
        private(set) var found: [PolicyViolation] = []

        init(file: String) { self.file = file }

        mutating func add(_ id: String, _ construct: String) {
            let rule = ExercisePolicy.rule(id)
            if found.count < maximumFindings, !found.contains(where: { $0.rule == id && $0.construct == construct }) {
                found.append(PolicyViolation(rule: id, file: file, line: nil, construct: construct, why: rule.why))
            }
        }
    }

    /// What the object defines for the linker: strong definitions only of the exercise's own
    /// Swift code; weak ones only the compiler's shared copies of generic code, metadata
    /// references and helpers, which any strong definition would override, never the other way round.
    private static func checkDefinitions(_ object: ObjectFile, module: String, into findings: inout ObjectFindings) {
        // A Swift symbol of the exercise names its module, as its context ("ListAdderExercises.X")
        // or as the module of an extension ("(extension in ListAdderExercises):ListAdderLab.x").
        func isOwn(_ name: String) -> Bool {
            guard name.hasPrefix("$s"), name.utf8.count <= SwiftDemangler.maximumLength else { return false }
            let readable = SwiftDemangler.demangleFully(name)
            return readable.contains("\(module).") || readable.contains("(extension in \(module))")
        }
        for symbol in object.symbols where symbol.isDefined && symbol.isGlobal {
            let allowed =
                symbol.isWeak
                ? symbol.name.hasPrefix("$s") || weakCompilerPrefixes.contains(where: symbol.name.hasPrefix)
                : isOwn(symbol.name)
            if !allowed { findings.add("foreign-definition", "defines \(SwiftDemangler.demangle(symbol.name))") }
        }
    }

    /// Sections: no code run at load time (but ThreadSanitizer's constructor), no section of its own.
    private static func checkSections(_ object: ObjectFile, into findings: inout ObjectFindings) {
        for section in object.sections {
            let name = section.name
            if isLoadTimeSection(name) {
                // ThreadSanitizer's module constructor (it only calls __tsan_init) is the one entry.
                let entries = section.references
                for target in entries
                where !(entries.count == 1 && ["tsan.module_ctor", ".text.tsan.module_ctor"].contains(target)) {
                    findings.add("load-time-code", "\(name) entry \(SwiftDemangler.demangle(target))")
                }
            } else if !isCompilerSection(name) {
                findings.add("custom-section", "section \(name)")
            }
            if name == ".text.tsan.module_ctor" || name == ".rela.text.tsan.module_ctor" {
                for target in section.references where target != "__tsan_init" {
                    findings.add("load-time-code", "tsan.module_ctor calls \(target)")
                }
            }
        }
    }

    /// What the object uses from outside: Swift APIs the exercise may use, allowed C functions.
    private static func checkOutsideReferences(
        _ object: ObjectFile, module: String, lab: String, into findings: inout ObjectFindings
    ) {
        // Who calls each outside C function, for the ones allowed only from the compiler's code.
        var callers: [String: Set<String>] = [:]
        for section in object.sections {
            for use in section.uses { callers[use.target, default: []].insert(use.function ?? section.name) }
        }
        for symbol in object.symbols where !symbol.isDefined {
            if let allowed = allowedOnlyFrom[symbol.name], let from = callers[symbol.name], from.allSatisfy(allowed) {
                continue
            }
            if symbol.name.hasPrefix("$s") {
                guard symbol.name.utf8.count < 2_000 else {
                    findings.add("forbidden-api", "a Swift name too long to read")
                    continue
                }
                let readable = SwiftDemangler.demangleFully(symbol.name)
                if let refusal = ExerciseAPI.refusal(of: readable, ownModules: [module, lab]) {
                    findings.add("forbidden-api", refusal)
                }
            } else if !isAllowedC(symbol.name) {
                findings.add("c-call", "a call to \(symbol.name)")
            }
        }
    }

    /// Findings kept per object (the first; an exercise refused for one is refused for all).
    static let maximumFindings = 20
    /// Symbols an exercise object may have: the labs' own have a few hundred.
    static let maximumSymbols = 5_000

    /// Weak symbols swiftc emits in any object besides Swift-mangled ones.
    static let weakCompilerPrefixes = [
        "symbolic ", "associated conformance ", "got.", "__swift_", "DW.ref.__gcc_personality_v0", "get_type_metadata "
    ]

    /// C functions allowed only when called from the compiler's own code: Mutex and the runtime's
    /// thread id read the thread id through `syscall` in SwiftShims' `_swift_stdlib_gettid`; the
    /// compiler wraps each deinit (a Swift symbol ending in `fd`, or `fD` for the deallocating
    /// one) in ThreadSanitizer's ignore
    /// calls, which called from anywhere else would hide a race.
    static let allowedOnlyFrom: [String: @Sendable (String) -> Bool] = [
        "syscall": { $0 == "_swift_stdlib_gettid" },
        "__tsan_ignore_thread_begin": isDeinit,
        "__tsan_ignore_thread_end": isDeinit
    ]

    /// A deinit as the compiler names it ("$s...Cfd", "$s...CfD").
    static let isDeinit: @Sendable (String) -> Bool = {
        $0.hasPrefix("$s") && ($0.hasSuffix("fd") || $0.hasSuffix("fD"))
    }

    static func isAllowedC(_ name: String) -> Bool {
        // The runtime's key path entry points: a read or write through one is hidden from TSan.
        if name.contains("KeyPath") { return false }
        return allowedCFunctions.contains { pattern in
            pattern.hasSuffix("*") ? name.hasPrefix(pattern.dropLast()) : name == pattern
        }
    }

    static func isLoadTimeSection(_ name: String) -> Bool {
        [".init_array", ".preinit_array", ".fini_array", ".ctors", ".dtors", ".init", ".fini"].contains {
            name == $0 || name.hasPrefix($0 + ".")
        }
            || [".rela.init_array", ".rela.preinit_array", ".rela.fini_array", ".rela.ctors", ".rela.dtors"].contains {
                name.hasPrefix($0)
            }
    }

    /// Sections swiftc (and the assembler) make for Swift code on Linux.
    static func isCompilerSection(_ name: String) -> Bool {
        if name.isEmpty { return true }
        let exact: Set<String> = [
            ".strtab", ".symtab", ".shstrtab", ".group", ".note.GNU-stack", ".eh_frame", ".rela.eh_frame",
            ".gcc_except_table",
            ".linker-options", ".llvm_addrsig", ".comment", ".swift_modhash", ".swift1_autolink_entries", ".swift_ast",
            ".bss", ".tbss",
            ".tdata", ".data", ".rodata", ".note.swift_reflection_metadata"
        ]
        if exact.contains(name) { return true }
        let prefixes = [
            ".text", ".rela.text", ".data.", ".rela.data", ".rodata.", ".rela.rodata", ".bss.", ".tbss.", ".tdata.",
            ".rela.tdata",
            "swift5_", ".relaswift5_", ".debug", ".rela.debug", ".gcc_except_table.", ".data.rel.ro",
            ".rela.data.rel.ro",
            ".note.", ".llvm.", ".sdata", ".sbss", "__llvm", ".rela__llvm"
        ]
        return prefixes.contains { name.hasPrefix($0) }
    }
}
