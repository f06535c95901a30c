#!/usr/bin/env bash
# The C support library as another platform's compiler sees it, checked on this Linux machine:
#  1. macOS: every C file compiled with __linux__ undefined and __APPLE__ defined (the same
#     #if branches a Mac takes). No Linux-only call may be left outside a Linux branch, and every
#     function the headers declare must be defined (else: a link error on the Mac).
#  2. Linux on arm64 (Apple Silicon in a container): every C and assembly file compiled for
#     aarch64-linux-gnu, if that target's C headers are installed (Debian: libc6-dev-arm64-cross);
#     otherwise it says it did not run.
# What it cannot do: use Apple's headers or Apple's linker, or build the Swift code for either
# platform. It reads like a compiler, it does not replace a Mac.
set -euo pipefail
cd "$(dirname "$0")/../Sources/CRaceLabSupport"
CLANG=${CLANG:-clang}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# Functions only Apple's C library has, declared so that Linux's headers can stand in.
cat > "$work/apple.h" <<'H'
#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
int rl_apple_pthread_threadid_np(void *thread, uint64_t *thread_id);  /* __uint64_t * on Apple */
#define pthread_threadid_np(thread, id) rl_apple_pthread_threadid_np((void *)(thread), (id))
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
#define POSIX_SPAWN_CLOEXEC_DEFAULT 0x4000
H
# Calls and names that exist only on Linux: outside a Linux branch, each breaks a Mac build.
linux_only='SYS_[a-z_0-9]+|prctl|PR_SET_[A-Z_]+|memfd_create|prlimit|FUTEX_[A-Z_]+|tgkill|gettid|landlock_[a-z_]+|seccomp|__NR_[a-z_0-9]+|PR_[A-Z_]+'

GCC=$(command -v gcc || true)
# compile_all LABEL FLAGS...: every C file with FLAGS; every function the headers declare (the
# public ones in include/ and the internal ones beside the C files) must be defined by one of
# them, and no weak reference may be left for Apple's linker to refuse.
compile_all() {
    local label=$1; shift
    local objects="$work/$label"
    mkdir -p "$objects"
    for file in *.c; do
        # -Wall -Werror: what a branch leaves unused there (a variable, a function) is a warning
        # in that platform's build, which its learner would see first.
        if ! "$CLANG" "$@" -Iinclude -std=gnu11 -Wall -Werror -c "$file" -o "$objects/${file%.c}.o" 2> "$work/err"; then
            echo "  $file: does not compile without warnings"; sed 's/^/    /' "$work/err" | head -20; failed=1
        fi
    done
    nm -g --defined-only "$objects"/*.o | awk '{ print $3 }' | sort -u > "$work/defined"
    grep -hoE '^[a-z_0-9 *]+[ *](rl_[a-z_0-9]+)\(' include/*.h ./*.h | grep -oE 'rl_[a-z_0-9]+\($' | tr -d '(' | sort -u > "$work/declared"
    if missing=$(comm -23 "$work/declared" "$work/defined" | tr '\n' ' ') && [ -n "$missing" ]; then
        echo "  declared but not defined (a link error): $missing"; failed=1
    else
        echo "  every C file compiles; $(wc -l < "$work/declared") declared functions, all defined"
    fi
}

GCC=$(command -v gcc || true)
echo "macOS branches (clang, __linux__ undefined, __APPLE__ defined):"
compile_all macos -U__linux__ -D__APPLE__ -include "$work/apple.h"
# Apple's linker refuses a weak reference that no linked library defines (a build without TSan).
if weak=$(nm "$work"/macos/*.o | awk '$1 == "w" || $1 == "v" { print $2 }' | grep -v '^rl_' | sort -u | tr '\n' ' ') && [ -n "$weak" ]; then
    echo "  weak references to symbols defined elsewhere (Apple's linker refuses them without TSan): $weak"; failed=1
fi
# Each file's own lines after its #if branches are taken, macros not expanded (GCC's
# -fdirectives-only; not the system headers' lines): a Linux-only name there is compiled on a Mac.
if [ -n "$GCC" ]; then
    for file in *.c; do
        "$GCC" -U__linux__ -U__gnu_linux__ -Ulinux -D__APPLE__ -Iinclude -include "$work/apple.h" -E -fdirectives-only "$file" 2> /dev/null \
            | awk -v me="$file" '/^# [0-9]+ "/ { split($0, part, "\""); here = (part[2] == me); next } here { print }' > "$work/own.c"
        if leaks=$(grep -owE "$linux_only" "$work/own.c" | sort -u | tr '\n' ' ') && [ -n "$leaks" ]; then
            echo "  $file: Linux-only names outside a Linux branch: $leaks"; failed=1
        fi
    done
else
    echo "  (no gcc: Linux-only names outside a Linux branch are not looked for)"
fi

echo "Linux without its facilities (RL_NO_LINUX_FACILITIES: the branches macOS takes, on Linux):"
compile_all reduced -DRL_NO_LINUX_FACILITIES

echo "Linux on arm64 (clang --target=aarch64-linux-gnu):"
sysroot=/usr/aarch64-linux-gnu
if [ -d "$sysroot/include" ]; then
    for file in *.c *.S; do
        if ! "$CLANG" --target=aarch64-linux-gnu --sysroot="$sysroot" -isystem "$sysroot/include" -Iinclude -std=gnu11 -Wall -Werror \
                -c "$file" -o "$work/arm64-${file%.*}.o" 2> "$work/err"; then
            echo "  $file: does not compile for arm64"; sed 's/^/    /' "$work/err" | head -20; failed=1
        fi
    done
    # racelab stress's preemption library (a target of its own, Linux only) too.
    if ! "$CLANG" --target=aarch64-linux-gnu --sysroot="$sysroot" -isystem "$sysroot/include" -std=gnu11 -Wall -Werror \
            -c ../CRaceLabStressPreload/StressPreload.c -o "$work/arm64-StressPreload.o" 2> "$work/err"; then
        echo "  StressPreload.c: does not compile for arm64"; sed 's/^/    /' "$work/err" | head -20; failed=1
    fi
    [ "$failed" = 0 ] && echo "  every C and assembly file compiles for aarch64-linux-gnu (racelab stress's library too)"
else
    echo "  not run: no arm64 C headers at $sysroot (Debian: apt-get install libc6-dev-arm64-cross)"
fi
exit "$failed"
