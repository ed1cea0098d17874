package ssh

import (
	"errors"

	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/occkit/occkit"
)

// HostKeyProblem is why a host key was refused. The set is closed: see
// [AllHostKeyProblems].
type HostKeyProblem string

// Host-key problems.
const (
	// HostKeyUnknown: the known_hosts file has no key for the host.
	HostKeyUnknown HostKeyProblem = "unknown"
	// HostKeyChanged: the known_hosts file holds a different key for the
	// host; it may be an impersonation.
	HostKeyChanged HostKeyProblem = "changed"
	// HostKeyRevoked: the key is marked @revoked.
	HostKeyRevoked HostKeyProblem = "revoked"
)

// AllHostKeyProblems lists every [HostKeyProblem].
func AllHostKeyProblems() []HostKeyProblem {
	return []HostKeyProblem{HostKeyUnknown, HostKeyChanged, HostKeyRevoked}
}

// HostKeyError is a refused host key (DRV-6): the connection was closed
// before authentication. It unwraps to a 503 DEPENDENCY_UNAVAILABLE
// *occkit.Error at the host's path (hosts[i]), so errors.As finds both.
type HostKeyError struct {
	// Host is the index of the host in [Config.Hosts].
	Host int
	// Problem is why the key was refused.
	Problem HostKeyProblem
	err     *occkit.Error
}

// Error renders the structured error.
func (e *HostKeyError) Error() string { return e.err.Error() }

// Unwrap returns the structured error.
func (e *HostKeyError) Unwrap() error { return e.err }

func hostKeyError(h host, err error) error {
	var ke *knownhosts.KeyError
	var re *knownhosts.RevokedError
	var p HostKeyProblem
	var detail string
	switch {
	case errors.As(err, &ke) && len(ke.Want) == 0:
		p, detail = HostKeyUnknown, "the host key of %s is not in its knownHostsFile; add it after checking its fingerprint"
	case ke != nil:
		p, detail = HostKeyChanged, "the host key of %s differs from the one in its knownHostsFile (possible impersonation); refusing to connect"
	case errors.As(err, &re):
		p, detail = HostKeyRevoked, "the host key of %s is revoked in its knownHostsFile"
	default:
		return nil
	}
	return &HostKeyError{Host: h.index, Problem: p,
		err: occkit.New(occkit.CodeDependencyUnavailable, "DRV-6", h.path(), detail, h)}
}

// unavailable is the driver's 503 for a host that cannot do what was
// asked. The detail names the step, never command output: remote output
// may quote document content.
func unavailable(h host, format string, args ...any) error {
	return occkit.New(occkit.CodeDependencyUnavailable, "DRV-6", h.path(), h.String()+": "+format, args...)
}
