package probe

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The OpenClaw probe cap (PRB-2): the 15 s model turn plus 5 s of slack, and
// 45 CPU-seconds of local work at the container's CPU share, at most 600 s.
const (
	capBase     = 20 * time.Second
	capCPUWork  = 45 * time.Second
	capMaximum  = 600 * time.Second
	msPerSecond = 1000
)

// CPUShare reads the cgroup v2 cpu.max text ("QUOTA PERIOD", e.g.
// "50000 100000" or "max 100000") and returns min(1, quota/period). An
// unlimited ("max"), empty, unparsable or non-positive limit is a share of 1:
// the probe is never given less time than an unlimited one would get.
func CPUShare(cpuMax string) float64 {
	fields := strings.Split(cpuMax, " ")
	quota := jsNumber(fields[0])
	period := math.NaN()
	if len(fields) > 1 {
		period = jsNumber(fields[1])
	}
	share := quota / period
	if math.IsNaN(share) || share <= 0 {
		return 1
	}
	return math.Min(1, share)
}

// CapForShare is the OpenClaw probe cap for a CPU share:
// min(600 s, 20 s + ⌈45 s / share⌉), computed in whole milliseconds.
func CapForShare(share float64) time.Duration {
	if math.IsNaN(share) || share <= 0 || share > 1 {
		share = 1
	}
	work := math.Ceil(float64(capCPUWork/time.Millisecond) / share)
	ms := math.Min(float64(capMaximum/time.Millisecond), float64(capBase/time.Millisecond)+work)
	return time.Duration(ms) * time.Millisecond
}

// Cap is the OpenClaw probe cap for a cgroup cpu.max text (PRB-2).
func Cap(cpuMax string) time.Duration { return CapForShare(CPUShare(cpuMax)) }

// AtCap decides an OpenClaw probe that reached its cap (PRB-2):
// [CPUStarved] when it waited for CPU for more than a quarter of the elapsed
// time, [ModelProbeTimeout] otherwise, also when the wait is unknown.
func AtCap(elapsed, cpuWait time.Duration, cpuWaitKnown bool) Code {
	if cpuWaitKnown && cpuWait >= 0 && float64(cpuWait) > float64(elapsed)/4 {
		return CPUStarved
	}
	return ModelProbeTimeout
}

var jsDecimal = regexp.MustCompile(`^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)

// jsNumber converts like JavaScript's Number(string), which is how the
// reference runtime reads cpu.max: surrounding whitespace is ignored, an
// empty string is 0, and anything but a decimal, hex or Infinity is NaN.
func jsNumber(s string) float64 {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return 0
	case s == "Infinity" || s == "+Infinity":
		return math.Inf(1)
	case s == "-Infinity":
		return math.Inf(-1)
	case jsDecimal.MatchString(s):
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return math.NaN()
		}
		return f
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		u, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil {
			return math.NaN()
		}
		return float64(u)
	}
	return math.NaN()
}
