// Trampolines for Synchronization.Mutex's slow paths (see MutexVisibility.c). Swift passes the
// mutex (`self`, the address of its lock word) in the self register: r13 on x86_64, x20 on
// arm64; `_lockSlow` also takes the owner id in the first argument register.
#if defined(__linux__) && defined(__x86_64__)
    .text

    .globl "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
    .type "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF",@function
"$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF":
    pushq %r13                          // the lock; the stack is 16-byte aligned again
    callq *rl_real_lock_slow(%rip)      // owner in %edi, self in %r13, as the caller set them
    movq (%rsp), %rdi
    callq rl_tsan_acquire               // taken: everything its last holder did happened before
    popq %r13
    retq

    .globl "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"
    .type "$s15Synchronization12_MutexHandleV11_unlockSlowyyF",@function
"$s15Synchronization12_MutexHandleV11_unlockSlowyyF":
    pushq %r13
    movq %r13, %rdi
    callq rl_tsan_release               // about to give it up: what we did happens before the next holder
    popq %r13
    jmpq *rl_real_unlock_slow(%rip)

    .globl "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
    .type "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF",@function
"$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF":
    pushq %r13
    subq $16, %rsp
    callq *rl_real_try_lock_slow(%rip)
    movb %al, (%rsp)
    testb %al, %al
    je 1f
    movq 16(%rsp), %rdi
    callq rl_tsan_acquire
1:  movb (%rsp), %al
    addq $16, %rsp
    popq %r13
    retq

#elif defined(__linux__) && defined(__aarch64__)
    .text

    .globl "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
    .type "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF",%function
"$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF":
    stp x29, x30, [sp, #-32]!
    mov x29, sp
    str x20, [sp, #16]
    adrp x16, rl_real_lock_slow
    ldr x16, [x16, :lo12:rl_real_lock_slow]
    blr x16
    ldr x0, [sp, #16]
    bl rl_tsan_acquire
    ldr x20, [sp, #16]
    ldp x29, x30, [sp], #32
    ret

    .globl "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"
    .type "$s15Synchronization12_MutexHandleV11_unlockSlowyyF",%function
"$s15Synchronization12_MutexHandleV11_unlockSlowyyF":
    stp x29, x30, [sp, #-32]!
    mov x29, sp
    str x20, [sp, #16]
    mov x0, x20
    bl rl_tsan_release
    ldr x20, [sp, #16]
    ldp x29, x30, [sp], #32
    adrp x16, rl_real_unlock_slow
    ldr x16, [x16, :lo12:rl_real_unlock_slow]
    br x16

    .globl "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
    .type "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF",%function
"$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF":
    stp x29, x30, [sp, #-32]!
    mov x29, sp
    str x20, [sp, #16]
    adrp x16, rl_real_try_lock_slow
    ldr x16, [x16, :lo12:rl_real_try_lock_slow]
    blr x16
    str w0, [sp, #24]
    cbz w0, 1f
    ldr x0, [sp, #16]
    bl rl_tsan_acquire
1:  ldr w0, [sp, #24]
    ldr x20, [sp, #16]
    ldp x29, x30, [sp], #32
    ret
#endif

#if defined(__linux__)
    .section .note.GNU-stack,"",%progbits
#endif
