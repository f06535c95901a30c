#!/usr/bin/env bash
# Whether a group of children whose memory limit is the sum of theirs reaches its limit before
# they reach their own (cgroup v1, as root): a parent group of PARENT_MB (default 2048) holding
# CACHE_MB (default 600) of page cache left by a removed child, and two children of 1 GiB each,
# each filling its memory until the kernel ends it. Prints how long each took, each child's and
# the parent's limit hits (failcnt) and out-of-memory kills. ChildLimits.memoryHeadroom is why:
#   scripts/memory-groups-experiment.sh; PARENT_MB=2560 scripts/memory-groups-experiment.sh
set -u
own=$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
P=/sys/fs/cgroup/memory$own/memory-experiment-$$
mkdir "$P" || { echo "needs root and a writable cgroup v1 memory hierarchy"; exit 2; }
echo $(( ${PARENT_MB:-2048} << 20 )) > "$P/memory.limit_in_bytes"
cache=$(mktemp /tmp/memory-experiment.XXXXXX)
mkdir "$P/c0"
sh -c "echo \$\$ > $P/c0/cgroup.procs; dd if=/dev/zero of=$cache bs=1M count=${CACHE_MB:-600} status=none; cat $cache > /dev/null"
sleep 0.5; rmdir "$P/c0"
echo "parent after the removed child: $(( $(cat "$P/memory.usage_in_bytes") >> 20 )) MiB of ${PARENT_MB:-2048}"
hog='b = []
for i in range(40): b.append(bytearray(b"x" * (32 << 20)))
print("not ended")'
for c in c1 c2; do
    mkdir "$P/$c"; echo $((1 << 30)) > "$P/$c/memory.limit_in_bytes"
    (
        start=$(date +%s%N)
        sh -c "echo \$\$ > $P/$c/cgroup.procs; exec python3 -c '$hog'" 2> /dev/null; rc=$?
        echo "$c: exit $rc after $(( ($(date +%s%N) - start) / 1000000 )) ms; its limit hit $(cat "$P/$c/memory.failcnt") times; $(grep oom_kill "$P/$c/memory.oom_control" | tail -1)"
    ) &
done
wait
echo "parent: its limit hit $(cat "$P/memory.failcnt") times; $(grep oom_kill "$P/memory.oom_control" | tail -1); peak $(( $(cat "$P/memory.max_usage_in_bytes") >> 20 )) MiB"
rmdir "$P/c1" "$P/c2" "$P"; rm -f "$cache"
