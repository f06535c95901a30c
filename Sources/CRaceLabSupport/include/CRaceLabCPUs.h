#ifndef CRACELAB_CPUS_H
#define CRACELAB_CPUS_H

#include <stddef.h>
#include <stdint.h>

// The CPUs a lab sees (LabCPUs.c). Part of CRaceLabSupport.h.

/// The CPUs this process tells Dispatch and Foundation it has (RACELAB_LAB_CPUS, LabCPUs.c); 0:
/// the machine's own count.
int rl_lab_cpus(void);

/// The CPUs this process may run on (its affinity: `taskset`, a cpuset), at least 1.
int rl_usable_cpus(void);

#endif
