package runner

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/occkit/occkit/probe"
)

// DefaultCgroupDir is where a container sees its own cgroup v2 files.
const DefaultCgroupDir = "/sys/fs/cgroup"

// CPUAccounting reads a cgroup v2 directory for the OpenClaw probe's cap
// and CPU wait (PRB-2). The zero value reads [DefaultCgroupDir].
type CPUAccounting struct {
	// Dir is the cgroup directory; "" means [DefaultCgroupDir].
	Dir string
}

func (c CPUAccounting) read(name string) string {
	dir := c.Dir
	if dir == "" {
		dir = DefaultCgroupDir
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return ""
	}
	return string(b)
}

// CPUMax is the cpu.max text, "" when unreadable (a share of 1).
func (c CPUAccounting) CPUMax() string { return c.read("cpu.max") }

// Cap is the probe cap for this cgroup's CPU limit.
func (c CPUAccounting) Cap() time.Duration { return probe.Cap(c.CPUMax()) }

var (
	pressureTotal = regexp.MustCompile(`(?m)^some .*total=([0-9]+)`)
	throttledUsec = regexp.MustCompile(`throttled_usec ([0-9]+)`)
)

// CPUMeter measures CPU wait over an interval with one metric: cpu.pressure
// ("some … total=", throttling and node contention) when the kernel has
// pressure accounting, else cpu.stat throttled_usec (throttling only).
type CPUMeter struct {
	acct     CPUAccounting
	pressure bool
	before   float64
}

// Start begins a measurement.
func (c CPUAccounting) Start() CPUMeter {
	m := CPUMeter{acct: c}
	if v := m.sample(true); !math.IsNaN(v) {
		m.pressure, m.before = true, v
		return m
	}
	m.before = m.sample(false)
	return m
}

func (m CPUMeter) sample(pressure bool) float64 {
	text, re := m.acct.read("cpu.stat"), throttledUsec
	if pressure {
		text, re = m.acct.read("cpu.pressure"), pressureTotal
	}
	sub := re.FindStringSubmatch(text)
	if sub == nil {
		return math.NaN()
	}
	usec, err := strconv.ParseFloat(sub[1], 64)
	if err != nil {
		return math.NaN()
	}
	return usec
}

// Wait returns the CPU wait since Start, rounded to milliseconds, and
// whether it is known (both samples read and not decreasing).
func (m CPUMeter) Wait() (time.Duration, bool) {
	after := m.sample(m.pressure)
	if math.IsNaN(after) || math.IsNaN(m.before) || after < m.before {
		return 0, false
	}
	return time.Duration(math.Round((after-m.before)/1000)) * time.Millisecond, true
}
