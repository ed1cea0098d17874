package main

import (
	"syscall"
	"time"
	"unsafe"
)

// cpuClock is the CPU time of the whole process (every thread: the
// collector's workers too), read with clock_gettime(CLOCK_PROCESS_CPUTIME_ID).
// A shared machine that preempts the process stretches wall time, not CPU
// time, so ratios of CPU time hold still under load.
func cpuClock() (clock, bool) {
	const processCPUTime = 2 // CLOCK_PROCESS_CPUTIME_ID
	read := func() (time.Duration, bool) {
		var ts syscall.Timespec
		_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, processCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
		return time.Duration(ts.Nano()), errno == 0
	}
	if _, ok := read(); !ok {
		return nil, false
	}
	return func() time.Duration { d, _ := read(); return d }, true
}
