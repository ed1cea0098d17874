package ssh

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
)

// Driver is the SSH ComputeDriver. Make one with [New]; it is immutable
// and safe for concurrent use (operations on one host serialize on the
// host lock).
type Driver struct {
	s    settings
	decl drivers.Declaration
}

var (
	_ drivers.ComputeDriver = (*Driver)(nil)
	_ drivers.Preflighter   = (*Driver)(nil)
)

// New validates cfg and returns a Driver. It connects to nothing: use
// [Driver.Preflight] to check the hosts. A config without a known_hosts
// file for every host is refused (400 INVALID_REQUEST): host keys are
// always verified.
func New(cfg Config) (*Driver, error) {
	s, err := validate(cfg)
	if err != nil {
		return nil, err
	}
	return &Driver{s: s, decl: drivers.Declaration{
		Name:           occkit.ComputeSSH,
		RuntimeLogging: occkit.OwnedByPlatform,
		Topologies:     []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}},
	}}, nil
}

// Declaration declares the ssh Compute: embedded OpenClaw only (RES-11),
// platform-owned logging, after-commit activation.
func (d *Driver) Declaration() drivers.Declaration {
	out := d.decl
	out.Topologies = append([]occkit.Topology(nil), d.decl.Topologies...)
	return out
}

// ValidateHarnessAuth applies the bundled ssh rules (AUTH-5, through
// [admission.ValidateHarnessAuth]): embedded OpenClaw only (400, RES-11),
// a binding required (409, AUTH-1), and only {"method": "runtime"} with no
// other keys; every other method is 409. The projection is host-managed:
// no variable is projected.
func (d *Driver) ValidateHarnessAuth(ctx context.Context, f drivers.AuthFacts) (occkit.Projection, error) {
	if err := drivers.Cancellation(ctx, "DRV-6"); err != nil {
		return occkit.Projection{}, err
	}
	f.Compute = occkit.ComputeSSH
	b := f.Binding
	if b.Method == occkit.MethodRuntime && (b.Source != (occkit.SourceRef{}) || b.SourceID != "" || b.SourceType != "") {
		return occkit.Projection{}, occkit.Invalid("AUTH-5", admission.BindingPath(),
			"the runtime harnessAuth method takes no other keys")
	}
	return admission.ValidateHarnessAuth(f)
}

var (
	errOperation = errors.New("operation bound")
	errReadiness = errors.New("readiness bound")
)

// begin bounds one operation (DRV-6): the caller's ctx, cut at the
// operation timeout.
func (d *Driver) begin(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, d.s.opTimeout, errOperation)
}

// finish maps a failure of the operation: once the caller's context is
// done, whatever failed, the caller's cancellation or deadline as a 503
// that keeps it for errors.Is (DRV-1, [drivers.Settle]); the operation's
// own bound becomes a structured 503.
func (d *Driver) finish(caller, op context.Context, h host, err error) error {
	if err == nil {
		return nil
	}
	if c := drivers.Cancellation(caller, "DRV-6"); c != nil {
		return c
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		if context.Cause(op) == errOperation {
			return occkit.New(occkit.CodeDependencyUnavailable, "DRV-6", occkit.NewPath("operationTimeout"),
				"%s: the operation did not finish within %s", h, d.s.opTimeout)
		}
	}
	return err
}

// place picks an Agent's host by rendezvous hashing: the host whose
// (agent, address) hash is highest.
func (d *Driver) place(agentID string) host {
	best, bestScore := d.s.hosts[0], uint64(0)
	for i, h := range d.s.hosts {
		sum := sha256.Sum256([]byte(agentID + "\x00" + h.addr))
		if s := binary.BigEndian.Uint64(sum[:8]); i == 0 || s > bestScore {
			best, bestScore = h, s
		}
	}
	return best
}

// abs resolves a configured host path against the SSH user's home.
func abs(home, p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return strings.TrimSuffix(home, "/") + "/" + p
}

// revisionDir is a revision's directory as configured (relative paths
// are relative to the SSH user's home); [Render] builds the same layout.
func (d *Driver) revisionDir(agentID, digest string) string {
	return strings.TrimSuffix(d.s.stateDir, "/") + "/agents/" + hash12(agentID) + "/revisions/" + digest
}

func (d *Driver) lockPath() string { return strings.TrimSuffix(d.s.stateDir, "/") + "/lock" }

// hostState is what Prepare learns about a host under its lock.
type hostState struct {
	home      string
	unitPorts map[string]int // unit name → port, for every occkit unit
	listening map[int]bool
	served    bool
}

// inspect reads the host's home, the ports of the units already deployed,
// the listening TCP ports (ss -ltn) and whether markerRel exists.
func (d *Driver) inspect(ctx context.Context, c *conn, markerRel string) (hostState, error) {
	script := fmt.Sprintf(`printf 'home %%s\n' "$HOME"
for f in %s/%s*.service; do
	[ -f "$f" ] || continue
	p=$(sed -n 's/^# occkit-port: \([0-9][0-9]*\)$/\1/p' "$f" | head -n 1)
	printf 'unit %%s %%s\n' "${f##*/}" "$p"
done
[ -f %s ] && echo served
command -v ss >/dev/null 2>&1 || exit 3
ss -ltn | awk 'NR > 1 { print "listen " $4 }'
`, quote(d.s.unitDir), UnitPrefix, quote(markerRel))
	out, err := c.step(ctx, "inspecting the host (ss -ltn and deployed units)", script, nil)
	if err != nil {
		return hostState{}, err
	}
	st := hostState{unitPorts: map[string]int{}, listening: map[int]bool{}}
	for _, line := range strings.Split(string(out), "\n") {
		kind, rest, _ := strings.Cut(line, " ")
		switch kind {
		case "home":
			st.home = rest
		case "unit":
			name, port, _ := strings.Cut(rest, " ")
			if p, err := strconv.Atoi(port); err == nil {
				st.unitPorts[name] = p
			}
		case "served":
			st.served = true
		case "listen":
			if i := strings.LastIndexByte(rest, ':'); i >= 0 {
				if p, err := strconv.Atoi(rest[i+1:]); err == nil {
					st.listening[p] = true
				}
			}
		}
	}
	if !strings.HasPrefix(st.home, "/") || !pathRE.MatchString(st.home) {
		return hostState{}, unavailable(c.h, "the SSH user's home directory is not a supported absolute path")
	}
	return st, nil
}

// lowestFree is the lowest port of r used by no deployed unit and not
// listening on the host.
func lowestFree(r PortRange, st hostState) (int, bool) {
	used := map[int]bool{}
	for _, p := range st.unitPorts {
		used[p] = true
	}
	for p := r.Min; p <= r.Max; p++ {
		if !used[p] && !st.listening[p] {
			return p, true
		}
	}
	return 0, false
}

func (d *Driver) renderOptions(home string, port int) RenderOptions {
	return RenderOptions{
		Port:            port,
		Scope:           d.s.scope,
		UnitDir:         abs(home, d.s.unitDir),
		StateDir:        abs(home, d.s.stateDir),
		BinaryPath:      d.s.binary,
		Args:            d.s.args,
		EnvironmentFile: d.s.envFile,
		ServiceUser:     d.s.svcUser,
	}
}

// Prepare deploys rev on its Agent's host and waits until the gateway
// serves (DRV-6). Under the host lock it picks the port (the revision's
// own when it was deployed before, else the lowest free one), writes the
// admitted document read-only and the unit atomically, and has the
// [ServiceManager] start the unit; after releasing the lock it polls the
// gateway's /readyz through the SSH connection for at most the readiness
// timeout, and only then writes the served marker. Preparing a served
// revision whose unit is unchanged only checks readiness.
//
// Prepare trusts the revision's admission: it projects no credential
// whatever the harnessAuth snapshot (the unit loads the operator's
// environment files, AUTH-5), and it expects [admission.Verify] (ADM-5,
// which also guards the logging stamp, LOG-2) to have run.
func (d *Driver) Prepare(ctx context.Context, rev drivers.Revision) error {
	if err := drivers.Cancellation(ctx, "DRV-6"); err != nil {
		return err
	}
	if err := checkRevision(rev); err != nil {
		return err
	}
	op, cancel := d.begin(ctx)
	defer cancel()
	h := d.place(rev.AgentID())
	return d.finish(ctx, op, h, d.prepare(op, h, rev))
}

func (d *Driver) prepare(ctx context.Context, h host, rev drivers.Revision) error {
	c, err := dial(ctx, h, d.s.connect)
	if err != nil {
		return err
	}
	defer c.Close()
	// What runs is the approved release: asked before the host is
	// touched.
	if err := d.checkRelease(ctx, c, rev); err != nil {
		return err
	}
	release, err := c.lock(ctx, d.lockPath(), d.s.lockWait)
	if err != nil {
		return err
	}
	unit, served, changed, err := d.install(ctx, c, rev)
	release()
	if err != nil {
		return err
	}
	if served && !changed {
		if c.ready(ctx, unit.Port, d.probeTimeout()) {
			return nil
		}
		// Served once, not serving now: start it again.
		if err := d.restart(ctx, c, unit); err != nil {
			return err
		}
	}
	if err := d.waitReady(ctx, c, unit); err != nil {
		return err
	}
	return d.markServed(ctx, c, rev, unit)
}

// install is Prepare's part under the host lock.
func (d *Driver) install(ctx context.Context, c *conn, rev drivers.Revision) (u Unit, served, changed bool, err error) {
	name := UnitName(rev.AgentID(), rev.Digest())
	st, err := d.inspect(ctx, c, d.revisionDir(rev.AgentID(), rev.Digest())+"/served")
	if err != nil {
		return Unit{}, false, false, err
	}
	port, ok := st.unitPorts[name]
	if !ok {
		if port, ok = lowestFree(d.s.ports, st); !ok {
			return Unit{}, false, false, occkit.Conflict("DRV-6", occkit.NewPath("portRange"),
				"%s: every port of portRange %d-%d is taken", c.h, d.s.ports.Min, d.s.ports.Max)
		}
	}
	if u, err = Render(rev, d.renderOptions(st.home, port)); err != nil {
		return Unit{}, false, false, err
	}
	// Refused before anything of the revision is written.
	if err := d.canProvide(c.h, u); err != nil {
		return Unit{}, false, false, err
	}
	dirs := fmt.Sprintf("set -e\numask 077\nmkdir -p -- %s %s %s\n",
		quote(u.WorkingDirectory), quote(u.RevisionDir), quote(strings.TrimSuffix(u.Path, "/"+u.Name)))
	if _, err := c.step(ctx, "creating the revision directories", dirs, nil); err != nil {
		return Unit{}, false, false, err
	}
	// The planned document may carry channel tokens: owner read-only.
	if _, err := c.upload(ctx, u.ConfigPath, 0o400, u.Document); err != nil {
		return Unit{}, false, false, err
	}
	if err := d.writeSecrets(ctx, c, u); err != nil {
		return Unit{}, false, false, err
	}
	if err := d.installPlugins(ctx, c, u); err != nil {
		return Unit{}, false, false, err
	}
	if changed, err = c.upload(ctx, u.Path, 0o644, u.Content); err != nil {
		return Unit{}, false, false, err
	}
	if !changed && st.served {
		return u, true, false, nil
	}
	if _, err := c.step(ctx, "clearing the served marker", "rm -f -- "+quote(u.MarkerPath), nil); err != nil {
		return Unit{}, false, false, err
	}
	if err := d.s.services.Start(ctx, c, u); err != nil {
		return Unit{}, false, false, d.serviceErr(ctx, c.h, "start", err)
	}
	return u, false, changed, nil
}

// writeSecrets makes the unit's credential files: the per-Agent gateway
// token, generated on the host from /dev/urandom when missing (its bytes
// never cross the SSH connection), and the revision's secretBindings read
// through the [SecretReader], each owner read-only.
func (d *Driver) writeSecrets(ctx context.Context, c *conn, u Unit) error {
	gen := fmt.Sprintf(`set -e
umask 077
f=%s
if [ ! -s "$f" ]; then
  t=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
  printf 'OPENCLAW_GATEWAY_TOKEN=%%s\n' "$t" > "$f.tmp"
  chmod 0400 -- "$f.tmp"
  mv -f -- "$f.tmp" "$f"
fi
`, quote(u.GatewayTokenFile))
	if _, err := c.step(ctx, "creating the gateway token", gen, nil); err != nil {
		return err
	}
	if u.SecretsFile == "" {
		return nil
	}
	if d.s.secrets == nil {
		return occkit.Conflict("AUTH-6", occkit.NewPath("secretBindings"),
			"the revision has secretBindings but the ssh Compute has no SecretReader (Config.Secrets)")
	}
	var b bytes.Buffer
	for i, e := range u.Secrets {
		at := occkit.NewPath("secretBindings").Index(i)
		v, err := d.s.secrets.ReadSecret(ctx, e.Source)
		if err != nil {
			return mapSecretErr(err, at)
		}
		line, ok := envFileLine(e.Name, v)
		if !ok {
			return occkit.Conflict("AUTH-6", at, "the Secret of %s is not a single line of text", e.Name)
		}
		b.WriteString(line)
	}
	_, err := c.upload(ctx, u.SecretsFile, 0o400, b.Bytes())
	return err
}

// mapSecretErr keeps a structured refusal and reports any other failure
// of the SecretReader as 503 without its text.
func mapSecretErr(err error, at occkit.Path) error {
	var oe *occkit.Error
	if errors.As(err, &oe) {
		return oe
	}
	return occkit.New(occkit.CodeDependencyUnavailable, "AUTH-6", at, "the Secret could not be read")
}

// envFileLine is one EnvironmentFile= assignment: the value double-quoted
// with \, " and $ escaped; a value with a control character cannot be
// written.
func envFileLine(name string, v []byte) (string, bool) {
	var b strings.Builder
	b.WriteString(name)
	b.WriteString(`="`)
	for _, r := range string(v) {
		switch {
		case r < 0x20 || r == 0x7f:
			return "", false
		case r == '"' || r == '\\' || r == '$':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteString("\"\n")
	return b.String(), true
}

// restart clears the served marker and restarts the unit, under the lock.
func (d *Driver) restart(ctx context.Context, c *conn, u Unit) error {
	release, err := c.lock(ctx, d.lockPath(), d.s.lockWait)
	if err != nil {
		return err
	}
	defer release()
	if _, err := c.step(ctx, "clearing the served marker", "rm -f -- "+quote(u.MarkerPath), nil); err != nil {
		return err
	}
	if err := d.s.services.Start(ctx, c, u); err != nil {
		return d.serviceErr(ctx, c.h, "start", err)
	}
	return nil
}

func (d *Driver) serviceErr(ctx context.Context, h host, what string, err error) error {
	var oe *occkit.Error
	if ctx.Err() != nil || errors.As(err, &oe) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	return unavailable(h, "the service manager could not %s the unit", what)
}

func (d *Driver) probeTimeout() time.Duration { return min(2*time.Second, d.s.ready) }

// waitReady polls /readyz until it answers 200, at most the readiness
// timeout (DRV-6).
func (d *Driver) waitReady(ctx context.Context, c *conn, u Unit) error {
	rctx, cancel := context.WithTimeoutCause(ctx, d.s.ready, errReadiness)
	defer cancel()
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-rctx.Done():
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return occkit.New(occkit.CodeDependencyUnavailable, "DRV-6", occkit.NewPath("readinessTimeout"),
				"%s: the gateway did not answer /readyz within %s", c.h, d.s.ready)
		case <-t.C:
		}
		if c.ready(rctx, u.Port, d.probeTimeout()) {
			return nil
		}
		t.Reset(d.s.poll)
	}
}

// markServed writes the served marker under the host lock, only while the
// revision's unit is still installed (a concurrent Retire wins).
func (d *Driver) markServed(ctx context.Context, c *conn, rev drivers.Revision, u Unit) error {
	release, err := c.lock(ctx, d.lockPath(), d.s.lockWait)
	if err != nil {
		return err
	}
	defer release()
	if _, err := c.step(ctx, "checking the unit", "[ -f "+quote(u.Path)+" ]", nil); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return occkit.Conflict("DRV-6", occkit.Root(), "%s: the revision was retired while it became ready", c.h)
	}
	marker, _ := json.Marshal(map[string]any{"revision": rev.Digest(), "port": u.Port})
	_, err = c.upload(ctx, u.MarkerPath, 0o644, append(marker, '\n'))
	return err
}

// Retire stops, disables and removes the revision's unit and its files on
// every host (so a change of [Config.Hosts] never orphans one), keeping the
// Agent's state directory and its operator environment file. Retiring
// what is not deployed succeeds.
func (d *Driver) Retire(ctx context.Context, agentID, revisionDigest string) error {
	if err := drivers.Cancellation(ctx, "DRV-6"); err != nil {
		return err
	}
	if agentID == "" {
		return occkit.Invalid("DRV-1", occkit.NewPath("agentId"), "an Agent ID is required")
	}
	if !validDigest(revisionDigest) {
		return occkit.Invalid("DRV-1", occkit.NewPath("revisionDigest"), "a revision digest is 64 lower-case hex characters")
	}
	op, cancel := d.begin(ctx)
	defer cancel()
	for _, h := range d.s.hosts {
		if err := d.finish(ctx, op, h, d.retire(op, h, agentID, revisionDigest)); err != nil {
			return err
		}
	}
	return nil
}

func (d *Driver) retire(ctx context.Context, h host, agentID, digest string) error {
	c, err := dial(ctx, h, d.s.connect)
	if err != nil {
		return err
	}
	defer c.Close()
	release, err := c.lock(ctx, d.lockPath(), d.s.lockWait)
	if err != nil {
		return err
	}
	defer release()
	name := UnitName(agentID, digest)
	unitPath := strings.TrimSuffix(d.s.unitDir, "/") + "/" + name
	revDir := d.revisionDir(agentID, digest)
	out, err := c.step(ctx, "inspecting the unit", "[ -f "+quote(unitPath)+" ] && echo present; exit 0", nil)
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(out)) == "present" {
		if err := d.s.services.Stop(ctx, c, name); err != nil {
			return d.serviceErr(ctx, h, "stop", err)
		}
		if _, err := c.step(ctx, "removing the unit", "rm -f -- "+quote(unitPath), nil); err != nil {
			return err
		}
		if err := d.s.services.Forget(ctx, c); err != nil {
			return d.serviceErr(ctx, h, "reload", err)
		}
	}
	_, err = c.step(ctx, "removing the revision files", "rm -rf -- "+quote(revDir), nil)
	return err
}

func (d *Driver) namespaceDir(ns drivers.Namespace) string {
	return strings.TrimSuffix(d.s.stateDir, "/") + "/namespaces/" + hash12(ns.ID)
}

// EnsureNamespace records the namespace on every host (a marker file under
// the state directory: an SSH host has no tenant boundary of its own).
// Idempotent.
func (d *Driver) EnsureNamespace(ctx context.Context, ns drivers.Namespace) error {
	if err := drivers.Cancellation(ctx, "DRV-6"); err != nil {
		return err
	}
	if ns.ID == "" {
		return occkit.Invalid("DRV-1", occkit.NewPath("namespace", "id"), "a namespace needs an ID")
	}
	marker, _ := json.Marshal(map[string]string{"id": ns.ID, "name": ns.Name})
	return d.eachHost(ctx, func(ctx context.Context, c *conn) error {
		_, err := c.upload(ctx, d.namespaceDir(ns)+"/namespace.json", 0o644, append(marker, '\n'))
		return err
	})
}

// DeleteNamespace removes the namespace's marker from every host.
// Deleting an absent namespace succeeds.
func (d *Driver) DeleteNamespace(ctx context.Context, ns drivers.Namespace) error {
	if err := drivers.Cancellation(ctx, "DRV-6"); err != nil {
		return err
	}
	if ns.ID == "" {
		return occkit.Invalid("DRV-1", occkit.NewPath("namespace", "id"), "a namespace needs an ID")
	}
	return d.eachHost(ctx, func(ctx context.Context, c *conn) error {
		_, err := c.step(ctx, "removing the namespace", "rm -rf -- "+quote(d.namespaceDir(ns)), nil)
		return err
	})
}

// Preflight connects to every host (verifying its key) and checks the tools
// the driver runs there, the gateway binary, and the operator environment
// file and plugin cache (when configured).
func (d *Driver) Preflight(ctx context.Context) error {
	if err := drivers.Cancellation(ctx, "DRV-6"); err != nil {
		return err
	}
	script := "for t in sh flock ss mktemp cmp mv sed awk; do command -v \"$t\" >/dev/null 2>&1 || exit 3; done\n[ -x " + quote(d.s.binary) + " ] || exit 4\n"
	what := "checking host tools (sh flock ss mktemp cmp mv sed awk) and binaryPath"
	if d.s.envFile != "" {
		script += "[ -f " + quote(d.s.envFile) + " ] || exit 5\n"
		what += " and environmentFile"
	}
	if d.s.pluginCache != "" {
		script += "[ -d " + quote(d.s.pluginCache) + " ] || exit 6\n"
		what += " and pluginCache"
	}
	return d.eachHost(ctx, func(ctx context.Context, c *conn) error {
		_, err := c.step(ctx, what, script, nil)
		return err
	})
}

func (d *Driver) eachHost(ctx context.Context, fn func(ctx context.Context, c *conn) error) error {
	op, cancel := d.begin(ctx)
	defer cancel()
	for _, h := range d.s.hosts {
		err := func() error {
			c, err := dial(op, h, d.s.connect)
			if err != nil {
				return err
			}
			defer c.Close()
			return fn(op, c)
		}()
		if err := d.finish(ctx, op, h, err); err != nil {
			return err
		}
	}
	return nil
}
