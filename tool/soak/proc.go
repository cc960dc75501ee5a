package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// procStatus is what /proc/<pid> tells about a process's memory and CPU.
type procStatus struct {
	RSS, HWM int64   // resident set now and at its peak, bytes
	CPU      float64 // user + system seconds
}

// userHZ is the unit of the CPU times in /proc/<pid>/stat on Linux.
const userHZ = 100

// readProc reads /proc/<pid>/status and /proc/<pid>/stat.
func readProc(pid int) (procStatus, error) {
	var ps procStatus
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return ps, fmt.Errorf("read process status: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "VmRSS":
			ps.RSS = kb << 10
		case "VmHWM":
			ps.HWM = kb << 10
		}
	}
	b, err = os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ps, fmt.Errorf("read process stat: %w", err)
	}
	// The fields after the command name, which is in parentheses and may hold spaces.
	if i := strings.LastIndexByte(string(b), ')'); i >= 0 {
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 12 {
			ut, _ := strconv.ParseFloat(f[11], 64)
			st, _ := strconv.ParseFloat(f[12], 64)
			ps.CPU = (ut + st) / userHZ
		}
	}
	return ps, nil
}

// loadAvg is the 1-minute load average from /proc/loadavg.
func loadAvg() (float64, error) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, fmt.Errorf("read load average: %w", err)
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, fmt.Errorf("read load average: empty /proc/loadavg")
	}
	l, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0, fmt.Errorf("read load average: %w", err)
	}
	return l, nil
}
