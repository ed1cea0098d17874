package ssh

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
)

// ReleaseError is a host whose gateway binary is not the release the
// revision approved (ADM-3: the frozen revision names the approved Harness
// version, and that is what runs). Prepare returns it before it writes or
// starts anything on the host. It unwraps to a 409 RESOURCE_CONFLICT
// *occkit.Error at the host's path (hosts[i]) whose detail names both
// versions, so errors.As finds both.
type ReleaseError struct {
	// Host is the index of the host in [Config.Hosts].
	Host int
	// Harness is the Harness whose binary was asked (openclaw).
	Harness occkit.Harness
	// Approved is the version the revision approved.
	Approved string
	// Found is the version the host's binary reports, or "" when its
	// answer holds no version the driver recognizes.
	Found string
	err   *occkit.Error
}

// Error renders the structured error.
func (e *ReleaseError) Error() string { return e.err.Error() }

// Unwrap returns the structured error.
func (e *ReleaseError) Unwrap() error { return e.err }

// versionLineRE is the first line `openclaw --version` prints: the product,
// the release and, from 2026.9 on, the commit in parentheses
// ("OpenClaw 2026.9.6 (eb377ac)").
var versionLineRE = regexp.MustCompile(`^OpenClaw ([0-9A-Za-z][0-9A-Za-z.+_-]{0,63})(?: \([0-9A-Za-z._-]{1,64}\))?$`)

// parseVersion reads the release from the output of the version command,
// or "" when it holds none.
func parseVersion(out []byte) string {
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if m := versionLineRE.FindStringSubmatch(line); m != nil {
			return m[1]
		}
		return ""
	}
	return ""
}

// cliCommand is the shell command that runs the host's OpenClaw CLI with
// args: BinaryPath, [Config.CLIArgs], args, no input.
func (d *Driver) cliCommand(args ...string) string {
	return cliCommand(d.s.binary, d.s.cliArgs, args...)
}

func cliCommand(binary string, cliArgs []string, args ...string) string {
	parts := []string{"exec", quote(binary)}
	for _, a := range append(slices.Clone(cliArgs), args...) {
		parts = append(parts, quote(a))
	}
	return strings.Join(parts, " ") + " </dev/null"
}

// checkRelease asks the host's gateway binary for its release and refuses
// (a [*ReleaseError]) when it is not the one rev approved. The ssh Compute
// runs embedded OpenClaw only (RES-11), so the binary is OpenClaw's and no
// Codex binary is ever started there.
func (d *Driver) checkRelease(ctx context.Context, c *conn, rev drivers.Revision) error {
	want := rev.HarnessIdentity()
	out, err := c.Run(ctx, d.cliCommand("--version"), nil)
	var re *RunError
	switch {
	case errors.As(err, &re):
		return unavailable(c.h, "asking binaryPath for its version failed (exit status %d)", re.Status)
	case err != nil:
		return err
	}
	found := parseVersion(out)
	if found != "" && found == want.Version {
		return nil
	}
	e := &ReleaseError{Host: c.h.index, Harness: want.ID, Approved: want.Version, Found: found}
	approved := want.Version
	if approved == "" {
		approved = "no version"
	}
	if found == "" {
		e.err = occkit.Conflict("ADM-3", c.h.path(),
			"%s: binaryPath reports no OpenClaw release it recognizes; the revision approves OpenClaw %s; refusing to start it", c.h, approved)
	} else {
		e.err = occkit.Conflict("ADM-3", c.h.path(),
			"%s: binaryPath is OpenClaw %s but the revision approves OpenClaw %s; refusing to start it", c.h, found, approved)
	}
	return e
}
