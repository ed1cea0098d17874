// Package localproc is a complete occkit ComputeDriver for another
// runtime: it "runs" embedded OpenClaw as a local process. Preparing a
// revision writes, under a root directory, everything a process supervisor
// needs to start the gateway: the admitted document (read-only), a process
// description (argv, environment, port, restart policy) and an event log.
// It starts nothing itself, so it is safe to run anywhere, and it passes
// occkit's driver conformance suite (drivers/drivertest).
//
// # Contract
//
// The required methods of [drivers.ComputeDriver] are Declaration,
// EnsureNamespace, DeleteNamespace, Prepare, Retire and
// ValidateHarnessAuth. The Driver also offers these optional capabilities,
// which callers find with [drivers.As] (also through wrappers):
//
//   - [drivers.Activator]: marks a prepared revision as the one the
//     supervisor runs for its Agent;
//   - [drivers.Stopper]: marks it stopped, keeping its files;
//   - [drivers.Diagnoser]: checks the files and the admitted document's
//     digest;
//   - [drivers.RuntimeLogReader]: reads the revision's event log, bounded;
//   - [drivers.Preflighter]: checks the root directory is writable.
//
// # Layout
//
//	ROOT/namespaces/NS/namespace.json
//	ROOT/agents/AGENT/port                  the Agent's gateway port
//	ROOT/agents/AGENT/active                digest of the activated revision
//	ROOT/agents/AGENT/gateway-token.env     the gateway token, mode 0400
//	ROOT/agents/AGENT/DIGEST/openclaw.json  the planned native document, mode 0444
//	ROOT/agents/AGENT/DIGEST/process.json   the process description
//	ROOT/agents/AGENT/DIGEST/state          prepared | stopped
//	ROOT/agents/AGENT/DIGEST/events.log     one line per lifecycle event
//
// NS and AGENT are the first 12 hex characters of the SHA-256 of the IDs
// (as DRV-5 names Kubernetes objects), so no ID ever becomes a path.
//
// # Policy
//
// The Compute declares one topology, embedded OpenClaw (RES-11), and like
// an SSH host it accepts only the `runtime` harnessAuth method: the
// operator's host supplies the model credentials (AUTH-5); every other
// binding is 409 RESOURCE_CONFLICT. Logging is platform-owned: the admitted
// document carries occkit's stamp (LOG-1) and the process description
// removes OPENCLAW_LOG_LEVEL so nothing overrides it (LOG-4).
package localproc

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
)

// Name is the Compute kind of the driver.
const Name occkit.Compute = "localproc"

// DefaultBasePort is the first gateway port handed out.
const DefaultBasePort = 18789

// Options configure a Driver.
type Options struct {
	// Root is the directory that holds every namespace and revision;
	// required. It is created when missing.
	Root string
	// Binary is the OpenClaw executable the process description starts;
	// "" means "openclaw".
	Binary string
	// BasePort is the first gateway port; each Agent gets the lowest
	// unused port from it. 0 means [DefaultBasePort].
	BasePort int
	// Now is the clock of the event log; nil means time.Now.
	Now func() time.Time
}

// Driver is the local-process ComputeDriver. A *Driver is safe for
// concurrent use; all state lives under its root directory.
type Driver struct {
	root     string
	binary   string
	basePort int
	now      func() time.Time

	// mu serializes every change under root.
	mu sync.Mutex
}

// New returns a Driver over opts.Root.
func New(opts Options) (*Driver, error) {
	if opts.Root == "" {
		return nil, occkit.Invalid("DRV-1", occkit.InstallationPath("root"), "the local-process driver needs a root directory")
	}
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	d := &Driver{root: root, binary: opts.Binary, basePort: opts.BasePort, now: opts.Now}
	if d.binary == "" {
		d.binary = "openclaw"
	}
	if d.basePort == 0 {
		d.basePort = DefaultBasePort
	}
	if d.now == nil {
		d.now = time.Now
	}
	return d, nil
}

// Root is the driver's root directory.
func (d *Driver) Root() string { return d.root }

// Declaration declares embedded OpenClaw only, platform-owned logging and
// the default (after-commit) activation. Agents keep one port, so an
// earlier version stops before a new one is prepared.
func (d *Driver) Declaration() drivers.Declaration {
	return drivers.Declaration{
		Name:             Name,
		RuntimeLogging:   occkit.OwnedByPlatform,
		StopPredecessors: true,
		Topologies:       []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}},
	}
}

// EnsureNamespace records ns; ensuring it again changes nothing.
func (d *Driver) EnsureNamespace(ctx context.Context, ns drivers.Namespace) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if ns.ID == "" {
		return occkit.Invalid("DRV-1", occkit.RenderPath("namespace", "id"), "a namespace needs an ID")
	}
	b, err := json.Marshal(map[string]string{"id": ns.ID, "name": ns.Name})
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	dir := filepath.Join(d.root, "namespaces", hashID(ns.ID))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "namespace.json"), append(b, '\n'), 0o644)
}

// DeleteNamespace removes ns; deleting an absent namespace succeeds.
func (d *Driver) DeleteNamespace(ctx context.Context, ns drivers.Namespace) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return os.RemoveAll(filepath.Join(d.root, "namespaces", hashID(ns.ID)))
}

// process is the process description a supervisor starts.
type process struct {
	Agent      string            `json:"agent"`
	Revision   string            `json:"revision"`
	Generation int64             `json:"generation"`
	Harness    string            `json:"harness"`
	Argv       []string          `json:"argv"`
	Workdir    string            `json:"workdir"`
	Env        map[string]string `json:"env"`
	Unset      []string          `json:"unset"`
	// SecretEnv are the secretBindings (AUTH-6) the supervisor fills from
	// its Secret store: references, never bytes.
	SecretEnv map[string]secretRef `json:"secretEnv"`
	// EnvFiles are owner-only files the supervisor loads (the gateway
	// token the native document references as ${OPENCLAW_GATEWAY_TOKEN}).
	EnvFiles []string `json:"envFiles"`
	// HostCredentials: the host supplies model credentials (AUTH-5);
	// nothing secret is ever written here.
	HostCredentials bool    `json:"hostCredentials"`
	Restart         restart `json:"restart"`
}

type secretRef struct {
	NamespaceID string `json:"namespaceId"`
	ID          string `json:"id"`
}

// plan is the revision's render plan with the gateway on loopback at
// port.
func (d *Driver) plan(rev drivers.Revision, port int) (compile.Plan, error) {
	return drivers.Plan[compile.Plan](rev, compile.PlanOptions{Bind: compile.BindLoopback, GatewayPort: port})
}

// gatewayToken writes the Agent's gateway token file once, 32 random bytes
// hex encoded, owner read-only; an existing token is kept.
func gatewayToken(path string) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return err
	}
	return writeFile(path, []byte("OPENCLAW_GATEWAY_TOKEN="+hex.EncodeToString(raw[:])+"\n"), 0o400)
}

type restart struct {
	Policy       string `json:"policy"`
	DelaySeconds int    `json:"delaySeconds"`
}

// Prepare writes rev's files (RES-11: only a declared topology; LOG-2:
// only with an intact logging stamp). A
// revision is written to a temporary directory and renamed into place, so
// a failure leaves nothing half-written; preparing it again keeps its files
// and marks it prepared (re-starting a stopped one).
func (d *Driver) Prepare(ctx context.Context, rev drivers.Revision) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if rev == nil {
		return occkit.Invalid("DRV-1", occkit.Root(), "no revision to prepare")
	}
	if err := occkit.CheckTopology(d.Declaration().Name, d.Declaration().Topologies, rev.Topology()); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	agentDir := filepath.Join(d.root, "agents", hashID(rev.AgentID()))
	dir := filepath.Join(agentDir, rev.Digest())
	if _, err := os.Stat(dir); err == nil {
		if err := writeFile(filepath.Join(dir, "state"), []byte("prepared\n"), 0o644); err != nil {
			return err
		}
		return d.event(dir, "prepared again")
	}
	if err := os.MkdirAll(agentDir, 0o755); err != nil {
		return err
	}
	port, err := d.port(agentDir)
	if err != nil {
		return err
	}
	// The render plan (CMP-4) is the whole launch: the native document
	// with the gateway section, its environment and arguments. The
	// driver only places them; it decides nothing about credentials.
	plan, err := d.plan(rev, port)
	if err != nil {
		return err
	}
	gw, _ := plan.Process(occkit.ProcessGateway)
	native, _ := gw.File(compile.FileNativeDocument)
	p := process{
		Agent: rev.AgentID(), Revision: rev.Digest(), Generation: rev.Source().Generation,
		Harness:   fmt.Sprintf("%s %s", rev.HarnessIdentity().ID, rev.HarnessIdentity().Version),
		Argv:      append([]string{d.binary}, gw.Args...),
		Workdir:   filepath.Join(agentDir, "work"),
		Env:       map[string]string{native.PathEnv: filepath.Join(dir, native.Name)},
		SecretEnv: map[string]secretRef{},
		EnvFiles:  []string{filepath.Join(agentDir, "gateway-token.env")},
		Unset:     gw.Unset,
		// The host supplies model credentials (AUTH-5, the only binding
		// ValidateHarnessAuth accepts).
		HostCredentials: gw.HostCredentials,
		Restart:         restart{Policy: "always", DelaySeconds: 2},
	}
	for _, e := range gw.Env {
		switch {
		case e.GatewayToken:
			// In gateway-token.env.
		case !e.Secret.IsZero():
			p.SecretEnv[e.Name] = secretRef{NamespaceID: e.Secret.NamespaceID, ID: e.Secret.ID}
		default:
			p.Env[e.Name] = e.Value
		}
	}
	if err := gatewayToken(p.EnvFiles[0]); err != nil {
		return err
	}
	desc, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}

	tmp, err := os.MkdirTemp(agentDir, ".prepare-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	files := []struct {
		name string
		data []byte
		mode fs.FileMode
	}{
		{native.Name, native.Data, 0o444}, // read-only (LOG-4)
		{"process.json", append(desc, '\n'), 0o644},
		{"state", []byte("prepared\n"), 0o644},
		{"events.log", nil, 0o644},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(tmp, f.name), f.data, f.mode); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	return d.event(dir, fmt.Sprintf("prepared generation=%d port=%d", p.Generation, port))
}

// Retire removes one revision's files, keeping the Agent's work directory
// and port. Retiring what is gone succeeds.
func (d *Driver) Retire(ctx context.Context, agentID, revisionDigest string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !validDigest(revisionDigest) {
		return occkit.Invalid("DRV-1", occkit.RenderPath("revisionDigest"), "a revision digest is 64 lower-case hex characters")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	agentDir := filepath.Join(d.root, "agents", hashID(agentID))
	if active, err := os.ReadFile(filepath.Join(agentDir, "active")); err == nil && strings.TrimSpace(string(active)) == revisionDigest {
		if err := os.Remove(filepath.Join(agentDir, "active")); err != nil {
			return err
		}
	}
	return os.RemoveAll(filepath.Join(agentDir, revisionDigest))
}

// ValidateHarnessAuth accepts only the `runtime` method: the host supplies
// the credentials (AUTH-5). Topologies this Compute does not run are 400
// (RES-11); every other binding is 409 RESOURCE_CONFLICT.
func (d *Driver) ValidateHarnessAuth(ctx context.Context, f drivers.AuthFacts) (occkit.Projection, error) {
	if err := ctx.Err(); err != nil {
		return occkit.Projection{}, err
	}
	if err := occkit.CheckTopology(d.Declaration().Name, d.Declaration().Topologies, occkit.Topology{Harness: f.Harness, Mode: f.Mode}); err != nil {
		return occkit.Projection{}, err
	}
	switch f.Binding.Method {
	case occkit.MethodRuntime:
		return occkit.Projection{HostManaged: true}, nil
	case "":
		return occkit.Projection{}, occkit.Conflict("AUTH-1", admission.BindingPath(), "the Agent has no harnessAuth binding")
	}
	return occkit.Projection{}, occkit.Conflict("AUTH-5", admission.BindingPath().Key("method"),
		"the %s Compute runs on the operator's host and accepts only the runtime method, not %s", Name, f.Binding.Method)
}

// Activate marks a prepared revision as its Agent's active one. Activating
// an unprepared revision is 409 RESOURCE_CONFLICT; activating the active
// one again changes nothing.
func (d *Driver) Activate(ctx context.Context, rev drivers.Revision) error {
	dir, err := d.revisionDir(ctx, rev)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := os.Stat(dir); err != nil {
		return occkit.Conflict("ADM-6", occkit.Root(), "the revision is not prepared")
	}
	if err := writeFile(filepath.Join(dir, "state"), []byte("prepared\n"), 0o644); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(filepath.Dir(dir), "active"), []byte(rev.Digest()+"\n"), 0o644); err != nil {
		return err
	}
	return d.event(dir, "activated")
}

// Stop marks a prepared revision stopped, keeping its files; stopping an
// unknown revision succeeds.
func (d *Driver) Stop(ctx context.Context, rev drivers.Revision) error {
	dir, err := d.revisionDir(ctx, rev)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	if state, _ := os.ReadFile(filepath.Join(dir, "state")); string(state) == "stopped\n" {
		return nil
	}
	if err := writeFile(filepath.Join(dir, "state"), []byte("stopped\n"), 0o644); err != nil {
		return err
	}
	return d.event(dir, "stopped")
}

// plannedDocument is the native document the plan gives rev on its Agent's
// port, or nil when it cannot be planned.
func (d *Driver) plannedDocument(rev drivers.Revision, agentDir string) []byte {
	b, err := os.ReadFile(filepath.Join(agentDir, "port"))
	if err != nil {
		return nil
	}
	port, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return nil
	}
	plan, err := d.plan(rev, port)
	if err != nil {
		return nil
	}
	gw, _ := plan.Process(occkit.ProcessGateway)
	f, _ := gw.File(compile.FileNativeDocument)
	return f.Data
}

// Diagnose reports two checks: the files are present and the document on
// disk is the planned one (the admitted document and the gateway section), and
// the revision is running (prepared, not stopped, and active).
func (d *Driver) Diagnose(ctx context.Context, rev drivers.Revision) (drivers.Diagnostics, error) {
	dir, err := d.revisionDir(ctx, rev)
	if err != nil {
		return drivers.Diagnostics{}, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	files := drivers.DiagnosticCheck{Component: "gateway", Check: "admitted-document", State: drivers.DiagnosticSucceeded}
	running := drivers.DiagnosticCheck{Component: "gateway", Check: "running", State: drivers.DiagnosticSucceeded}
	b, err := os.ReadFile(filepath.Join(dir, "openclaw.json"))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		files.State, files.Code = drivers.DiagnosticFailed, "NOT_PREPARED"
	case err != nil:
		files.State, files.Code = drivers.DiagnosticUnknown, "UNREADABLE"
	default:
		if !bytes.Equal(b, d.plannedDocument(rev, filepath.Dir(dir))) {
			files.State, files.Code = drivers.DiagnosticFailed, "DIGEST_MISMATCH"
		}
	}
	state, _ := os.ReadFile(filepath.Join(dir, "state"))
	active, _ := os.ReadFile(filepath.Join(filepath.Dir(dir), "active"))
	switch {
	case len(state) == 0:
		running.State, running.Code = drivers.DiagnosticFailed, "NOT_PREPARED"
	case string(state) == "stopped\n":
		running.State, running.Code = drivers.DiagnosticFailed, "STOPPED"
	case strings.TrimSpace(string(active)) != rev.Digest():
		running.State, running.Code = drivers.DiagnosticFailed, "NOT_ACTIVE"
	}
	return drivers.Diagnostics{RevisionDigest: rev.Digest(), ObservedAt: d.now(), Checks: []drivers.DiagnosticCheck{files, running}}, nil
}

// ReadRuntimeLogs returns the most recent lines of the revision's event
// log, at most req.Lines ([drivers.DefaultLogLines] when zero, never more
// than [drivers.MaxLogLines]) and none before req.Since.
func (d *Driver) ReadRuntimeLogs(ctx context.Context, rev drivers.Revision, req drivers.LogRequest) (drivers.LogChunk, error) {
	dir, err := d.revisionDir(ctx, rev)
	if err != nil {
		return drivers.LogChunk{}, err
	}
	n := req.Lines
	if n <= 0 {
		n = drivers.DefaultLogLines
	}
	n = min(n, drivers.MaxLogLines)
	d.mu.Lock()
	b, err := os.ReadFile(filepath.Join(dir, "events.log"))
	d.mu.Unlock()
	if errors.Is(err, fs.ErrNotExist) {
		return drivers.LogChunk{Lines: []drivers.LogLine{}}, nil
	}
	if err != nil {
		return drivers.LogChunk{}, err
	}
	lines := []drivers.LogLine{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		ts, _, _ := strings.Cut(sc.Text(), " ")
		t, _ := time.Parse(time.RFC3339Nano, ts)
		if !req.Since.IsZero() && t.Before(req.Since) {
			continue
		}
		lines = append(lines, drivers.LogLine{Time: t, Raw: sc.Text()})
	}
	truncated := len(lines) > n
	if truncated {
		lines = lines[len(lines)-n:]
	}
	return drivers.LogChunk{Lines: lines, Truncated: truncated}, nil
}

// Preflight checks that the root directory is writable.
func (d *Driver) Preflight(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := os.CreateTemp(d.root, ".preflight-")
	if err != nil {
		return occkit.New(occkit.CodeDependencyUnavailable, "DRV-1", occkit.InstallationPath("root"), "the root directory is not writable")
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// revisionDir checks ctx and rev and returns the revision's directory.
func (d *Driver) revisionDir(ctx context.Context, rev drivers.Revision) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if rev == nil {
		return "", occkit.Invalid("DRV-1", occkit.Root(), "no revision")
	}
	return filepath.Join(d.root, "agents", hashID(rev.AgentID()), rev.Digest()), nil
}

// port returns the Agent's port, assigning the lowest unused one on first
// use. The caller holds mu.
func (d *Driver) port(agentDir string) (int, error) {
	if b, err := os.ReadFile(filepath.Join(agentDir, "port")); err == nil {
		return strconv.Atoi(strings.TrimSpace(string(b)))
	}
	used := map[int]bool{}
	others, _ := filepath.Glob(filepath.Join(d.root, "agents", "*", "port"))
	for _, f := range others {
		if b, err := os.ReadFile(f); err == nil {
			if p, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				used[p] = true
			}
		}
	}
	p := d.basePort
	for used[p] {
		p++
	}
	if p > 65535 {
		return 0, occkit.Conflict("DRV-1", occkit.InstallationPath("basePort"), "no gateway port is free")
	}
	return p, writeFile(filepath.Join(agentDir, "port"), []byte(strconv.Itoa(p)+"\n"), 0o644)
}

// event appends one line to a revision's event log. It never writes a
// value from the document. The caller holds mu.
func (d *Driver) event(dir, what string) error {
	f, err := os.OpenFile(filepath.Join(dir, "events.log"), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s %s\n", d.now().UTC().Format(time.RFC3339Nano), what)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeFile replaces name atomically: a reader sees the old or the new
// content, never a part.
func writeFile(name string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".write-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// hashID names a directory after an ID: 12 hex characters of its SHA-256.
func hashID(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:6])
}

func validDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
