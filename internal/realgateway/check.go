package realgateway

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Expect is what every process of a started revision must show.
type Expect struct {
	// Level is the admitted level: no console record below it.
	Level string
	// Secrets are values that must appear in no process's output.
	Secrets []string
}

// ReadyRecord is the message of the gateway's ready record.
const ReadyRecord = "gateway ready"

// maxLog bounds how much of one output stream a check reads.
const maxLog = 8 << 20

// Problems lists what is wrong with rep and the outputs in logDir, checked
// against want: every served process answered /healthz live and /readyz
// 200; a gateway at level info or below wrote its ready record; every
// console line of every process is a JSON record at or above the admitted
// level (lines a process writes outside its logger, [Process].OutsideLogger,
// are reported apart); no secret appears in any output; every process ran
// until it was stopped and (once ready, for a served one) ended on SIGTERM
// within the stop timeout as it accepts ([Process].StopExits: exit 0 unless
// said otherwise); nothing outlived them. Nil means the
// revision started, served and stopped as it must.
func Problems(spec Spec, rep Report, want Expect) []string {
	var out []string
	add := func(role, format string, args ...any) {
		out = append(out, role+": "+fmt.Sprintf(format, args...))
	}
	served := map[string]bool{}
	procs := map[string]Process{}
	steps := map[string]Process{}
	for _, p := range spec.Processes {
		served[p.Role] = p.Port > 0
		procs[p.Role] = p
		for _, st := range p.Init {
			steps[st.Role] = st
		}
	}
	for _, p := range rep.Processes {
		for _, st := range p.Init {
			out = append(out, stepProblems(spec.LogDir, steps[st.Role], st, want.Secrets)...)
		}
		if p.NotStarted {
			add(p.Role, "never started: an init step failed")
			continue
		}
		stdout := readLog(filepath.Join(spec.LogDir, p.Role+".stdout"))
		stderr := readLog(filepath.Join(spec.LogDir, p.Role+".stderr"))
		if p.ExitedEarly {
			add(p.Role, "ended before it was stopped (%s); stderr tail: %s", p.Exit, tail(stderr, want.Secrets))
		}
		switch {
		case served[p.Role] && procs[p.Role].TCPReady:
			if p.ReadyMs < 0 {
				add(p.Role, "port %d never accepted a connection", procs[p.Role].Port)
			}
		case served[p.Role]:
			if p.LiveMs < 0 {
				add(p.Role, "/healthz never answered live")
			}
			if p.ReadyMs < 0 {
				add(p.Role, "/readyz never answered 200 (last: %s)", p.Readyz)
			}
		}
		records, stray := Console(append(append([]byte(nil), stdout...), stderr...))
		var outside []string
		if re := procs[p.Role].OutsideLogger; re != "" {
			outside, stray = partition(stray, regexp.MustCompile(re))
		}
		if len(stray) > 0 {
			add(p.Role, "%d console lines are not JSON records, first %q", len(stray), stray[0])
		}
		if len(outside) > 0 {
			add(p.Role, "%d console lines written outside its logger, first %q", len(outside), outside[0])
		}
		if below := Below(records, want.Level); len(below) > 0 {
			add(p.Role, "%d console records below level %s, first %+v", len(below), want.Level, below[0])
		}
		proc := procs[p.Role]
		if _, ok := Find(records, ReadyRecord); served[p.Role] && !proc.TCPReady && levelRank[want.Level] <= levelRank["info"] && !ok {
			add(p.Role, "no %q record", ReadyRecord)
		}
		if re := proc.Connected; re != "" && !regexp.MustCompile(`(?m)`+re).Match(append(append([]byte(nil), stdout...), stderr...)) {
			add(p.Role, "never showed its connected signal %q", re)
		}
		if leaks := Leaks(append(append(stdout, stderr...), p.Readyz...), want.Secrets); len(leaks) > 0 {
			add(p.Role, "%d secret values appear in its output or readiness answers", len(leaks))
		}
		for _, dir := range proc.Writes {
			if files := LeakingFiles(dir, want.Secrets); len(files) > 0 {
				add(p.Role, "secret values appear in %d files it wrote, first %s", len(files), files[0])
			}
		}
		// A process still starting may die of SIGTERM; the missing
		// readiness already says what is wrong with it.
		if !p.ExitedEarly && (!served[p.Role] || p.ReadyMs >= 0) && (p.StopMs < 0 || !cleanStop(procs[p.Role], p.Exit)) {
			add(p.Role, "did not stop cleanly on SIGTERM (%s, %d ms)", p.Exit, p.StopMs)
		}
	}
	for _, l := range rep.Leftover {
		out = append(out, "leftover process: "+l)
	}
	return out
}

// stepProblems is what is wrong with one init step: it did not exit 0,
// or a secret appears in its output or in a file it wrote. Its console is
// a command's progress text (not the frozen JSON console of the process
// it prepares): its lines are not checked as records.
func stepProblems(logDir string, step Process, st StepReport, secrets []string) []string {
	var out []string
	stdout := readLog(filepath.Join(logDir, st.Role+".stdout"))
	stderr := readLog(filepath.Join(logDir, st.Role+".stderr"))
	if st.Exit != "exit 0" {
		out = append(out, fmt.Sprintf("%s: init step ended %s; output tail: %s", st.Role, st.Exit, tail(append(stdout, stderr...), secrets)))
	}
	if leaks := Leaks(append(stdout, stderr...), secrets); len(leaks) > 0 {
		out = append(out, fmt.Sprintf("%s: %d secret values appear in its output", st.Role, len(leaks)))
	}
	for _, dir := range step.Writes {
		if files := LeakingFiles(dir, secrets); len(files) > 0 {
			out = append(out, fmt.Sprintf("%s: secret values appear in %d files it wrote, first %s", st.Role, len(files), files[0]))
		}
	}
	return out
}

// cleanStop reports whether exit is an end after SIGTERM that p accepts
// (see [Process].StopExits).
func cleanStop(p Process, exit string) bool {
	if len(p.StopExits) == 0 {
		return exit == "exit 0"
	}
	for _, e := range p.StopExits {
		if e == exit {
			return true
		}
	}
	return false
}

// partition splits lines into those re matches and the others.
func partition(lines []string, re *regexp.Regexp) (match, rest []string) {
	for _, l := range lines {
		if re.MatchString(l) {
			match = append(match, l)
		} else {
			rest = append(rest, l)
		}
	}
	return match, rest
}

// maxScan bounds how much of the files under one directory the leak
// check reads.
const maxScan = 256 << 20

// LeakingFiles returns the files under dir (sorted) whose first maxLog
// bytes hold one of the secrets (see [Leaks]), reading at most maxScan
// bytes in all.
func LeakingFiles(dir string, secrets []string) []string {
	var out []string
	budget := int64(maxScan)
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || budget <= 0 {
			return nil
		}
		b := readLog(path)
		budget -= int64(len(b))
		if len(Leaks(b, secrets)) > 0 {
			out = append(out, path)
		}
		return nil
	})
	return out
}

func readLog(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, maxLog))
	return b
}

// tail is the end of an output for a message, secrets masked.
func tail(b []byte, secrets []string) string {
	const n = 600
	if len(b) > n {
		b = b[len(b)-n:]
	}
	s := string(b)
	for _, v := range secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, "[secret]")
		}
	}
	return s
}

// Split separates the problems a known divergence matches (a regular
// expression) from the others, so a tier states what OpenClaw is known to
// do instead of failing on it, and still fails on anything else.
func Split(problems, known []string) (unexpected, expected []string) {
	for _, p := range problems {
		hit := false
		for _, k := range known {
			if regexp.MustCompile(k).MatchString(p) {
				hit = true
				break
			}
		}
		if hit {
			expected = append(expected, p)
		} else {
			unexpected = append(unexpected, p)
		}
	}
	return unexpected, expected
}
