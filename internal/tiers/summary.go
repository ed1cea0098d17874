package tiers

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Summarize reads a report (the lines tiers record) and writes one line per
// tier of [All], in that order: "ran (N checks)" when some test of the tier
// ran checks, else the first reason it did not, or "not reported" when no
// test of the tier ran at all. Names the report holds that are no tier of
// [All] get a line of their own. When required, every tier of [All] must
// have run and every name must be a tier: the error lists those that did
// not and those that are not.
func Summarize(report io.Reader, w io.Writer, required bool) error {
	type state struct {
		checks int64
		ran    bool
		why    string
	}
	seen := map[string]*state{}
	var order []string
	sc := bufio.NewScanner(report)
	for sc.Scan() {
		name, status, ok := strings.Cut(sc.Text(), "\t")
		if !ok || name == "" {
			continue
		}
		s := seen[name]
		if s == nil {
			s = &state{}
			seen[name] = s
			order = append(order, name)
		}
		if n, ok := ranChecks(status); ok {
			s.ran, s.checks = true, s.checks+n
		} else if s.why == "" {
			s.why = status
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("tiers: reading the report: %w", err)
	}
	known := map[string]bool{}
	var missing, unknown []string
	line := func(name, what string) { fmt.Fprintf(w, "  %-52s %s\n", name, what) }
	for _, tr := range All() {
		known[tr.name] = true
		s := seen[tr.name]
		switch {
		case s == nil:
			line(tr.name, "not reported (no test of the tier ran)")
			missing = append(missing, tr.name)
		case s.ran:
			line(tr.name, fmt.Sprintf("ran (%d checks)", s.checks))
		default:
			line(tr.name, s.why)
			missing = append(missing, tr.name)
		}
	}
	for _, name := range order {
		if !known[name] {
			line(name, "is not a tier of internal/tiers.All")
			unknown = append(unknown, name)
		}
	}
	if !required {
		return nil
	}
	var errs []error
	if len(missing) > 0 {
		errs = append(errs, fmt.Errorf("%s=1 but %d of %d real tiers did not run: %s",
			RequireEnv, len(missing), len(All()), strings.Join(missing, ", ")))
	}
	if len(unknown) > 0 {
		errs = append(errs, fmt.Errorf("the report names tiers internal/tiers does not list: %s", strings.Join(unknown, ", ")))
	}
	return errors.Join(errs...)
}

// ranChecks reads a "ran N" status (N > 0), as [Run] records it.
func ranChecks(status string) (int64, bool) {
	s, ok := strings.CutPrefix(status, "ran ")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n > 0
}
