// The preload library of `racelab stress`: no interface of its own. It is loaded into another
// program (LD_PRELOAD) and acts through the calls it defines; see StressPreload.c.
